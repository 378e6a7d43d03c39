#include "drivers/snmp/snmp_driver.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <regex>

#include "drivers/snmp/explain.hpp"
#include "drivers/snmp/lldp.hpp"
#include "drivers/snmp/netsnmp_session.hpp"

namespace opticsd::snmp {

struct SnmpDriver::Round {
  std::int64_t now_ms = 0;
  Done done;
  bool read_static = false;
  std::size_t pending = 0;
  VarbindStore slow;
  VarbindStore values;
  std::vector<std::string> errors;
  bool failed_static = false;
  bool answered_async = false;   // finishing from a session callback (already deferred)
  std::unique_ptr<Trace> trace;  // poll-once --explain only
};

namespace {

// ENTITY-MIB descriptions that name a pluggable optic or its cage contents.
const std::regex& transceiverText() {
  static const std::regex re(R"((transceiver|xcvr|\bsfp|qsfp|osfp|\bcfp|\boptic))",
                             std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
  return re;
}

}  // namespace

std::optional<DriverOptions> readDriverOptions(OptionReader& options, std::shared_ptr<const ProfileCatalog>& catalog) {
  DriverOptions out;
  auto session = readSessionConfig(options);
  if (auto profile = options.optionalString("profile")) out.profile = *profile;
  auto dirs = ProfileCatalog::defaultDirs();
  for (auto& dir : options.directoryList("profile_dir")) dirs.push_back(dir);
  if (auto lldp = options.optionalBool("lldp")) out.lldp = *lldp;
  if (auto refresh = options.optionalInt("static_refresh", 1, 1000000)) out.static_refresh = static_cast<int>(*refresh);
  if (auto wait = options.optionalDuration("resolve_timeout")) {
    if (wait->count() < 10 || wait->count() > 600000) {
      options.error("resolve_timeout", "expected 10ms..10m");
    } else {
      out.resolve_timeout = *wait;
    }
  }
  auto loaded = ProfileCatalog::load(dirs);
  if (!loaded) {
    options.error("profile_dir", loaded.error().message);
  } else {
    catalog = *loaded;
    if (!out.profile.empty() && !catalog->byName(out.profile)) {
      std::string known;
      for (const auto& p : catalog->profiles()) known += (known.empty() ? "" : ", ") + p->name;
      options.error("profile", "unknown SNMP profile '" + out.profile + "' (known: " + known + ")");
    }
  }
  if (!session || !options.valid()) return std::nullopt;
  out.session = std::move(*session);
  return out;
}

SnmpDriver::SnmpDriver(boost::asio::io_context* io, std::string target, DriverOptions options,
                       std::shared_ptr<const ProfileCatalog> catalog, SessionFactory make_session,
                       std::shared_ptr<HostResolver> resolver)
    : io_(io),
      target_(std::move(target)),
      options_(std::move(options)),
      catalog_(std::move(catalog)),
      make_session_(std::move(make_session)),
      resolver_(std::move(resolver)) {
  if (!options_.profile.empty() && catalog_) profile_ = catalog_->byName(options_.profile);
  if (profile_) profile_chosen_by_ = "named by the target's profile: key";
  if (io_) resolve_timer_.emplace(*io_);
}

SnmpDriver::~SnmpDriver() {
  *alive_ = false;
  stopResolving();
  if (session_) session_->cancel();
}

void SnmpDriver::cancel() {
  stopResolving();
  if (session_) session_->cancel();
  round_.reset();
}

void SnmpDriver::stopResolving() {
  resolving_.reset();  // drops our callback; the lookup runs on for the next poll
  if (resolve_timer_) resolve_timer_->cancel();
}

void SnmpDriver::poll(std::int64_t now_ms, Done done) {
  stopResolving();
  if (session_) session_->cancel();  // a round still in flight is abandoned
  auto round = std::make_shared<Round>();
  round->now_ms = now_ms;
  round->done = std::move(done);
  round_ = round;

  const std::string host = options_.session.address;
  if (!io_ || isNumericAddress(host)) return withAddress(round, host);
  if (!resolver_) resolver_ = HostResolver::shared();
  if (auto hit = resolver_->cached(host)) {
    if (hit->stale) resolver_->refresh(host);  // keep using the old address meanwhile
    return withAddress(round, hit->address);
  }
  resolving_ = resolver_->resolve(*io_, host, [this, round, host](Result<std::string> address) {
    if (round_ != round) return;
    stopResolving();
    round->answered_async = true;
    if (!address) {
      round->errors.push_back("cannot resolve host " + host + ": " + address.error().message);
      return finishRound(round);
    }
    withAddress(round, *address);
  });
  const auto wait = options_.resolve_timeout.value_or(options_.session.timeout);
  resolve_timer_->expires_after(wait);
  resolve_timer_->async_wait([this, alive = alive_, round, host, wait](const boost::system::error_code& ec) {
    if (ec || !*alive || round_ != round) return;
    resolving_.reset();
    round->answered_async = true;
    round->errors.push_back("cannot resolve host " + host + ": no answer from DNS within " +
                            std::to_string(wait.count()) + " ms (the lookup goes on; the next poll uses its answer)");
    finishRound(round);
  });
}

void SnmpDriver::withAddress(const std::shared_ptr<Round>& round, const std::string& address) {
  if (session_ && address != session_address_) session_.reset();  // the name now points elsewhere
  if (!session_) {
    auto made = make_session_(address);
    if (!made) {
      round->errors.push_back(made.error().message);
      return finishRound(round);
    }
    session_ = std::move(*made);
    session_address_ = address;
  }
  if (profile_) return startWalks(round);

  // sysDescr too: some vendors (Huawei VRP 5 and YunShan) share a sysObjectID
  // prefix but not the units of their tables, and only the version text tells.
  session_->get({oids::kSysObjectId, oids::kSysDescr}, [this, round](Result<std::vector<Varbind>> result) {
    if (round_ != round) return;
    round->answered_async = true;
    if (!result) {
      round->errors.push_back(result.error().message);
      return finishRound(round);
    }
    const Varbind* id_vb = nullptr;
    std::string descr;
    for (const auto& vb : *result) {
      if (vb.oid == oids::kSysObjectId && vb.type == VarType::kObjectId) id_vb = &vb;
      if (vb.oid == oids::kSysDescr) descr = vb.asText().value_or("");
    }
    if (!id_vb) {
      round->errors.push_back("sysObjectID.0 missing or not an OID; set 'profile:' for this target");
      return finishRound(round);
    }
    const Oid& id = id_vb->oid_value;
    profile_ = catalog_ ? catalog_->bySysObjectId(id, descr) : nullptr;
    if (!profile_) {
      round->errors.push_back("no SNMP profile matches sysObjectID " + id.toString() + "; set 'profile:'");
      return finishRound(round);
    }
    profile_chosen_by_ = "chosen by sysObjectID " + id.toString();
    if (profile_->sys_descr) profile_chosen_by_ += " and sysDescr matching '" + profile_->sys_descr_text + "'";
    startWalks(round);
  });
}

void SnmpDriver::startWalks(const std::shared_ptr<Round>& round) {
  const WalkPlan plan = planWalks(*profile_);
  if (explainSink()) round->trace = std::make_unique<Trace>();
  round->read_static = !layout_ || polls_since_static_ >= options_.static_refresh || round->trace;
  std::vector<std::pair<Oid, bool>> walks;  // root, slow
  if (round->read_static) {
    for (const auto& root : plan.static_roots) walks.emplace_back(root, true);
  }
  for (const auto& root : plan.dynamic_roots) walks.emplace_back(root, false);
  if (options_.lldp) {
    for (const auto& root : lldpWalkRoots()) walks.emplace_back(root, false);
  }
  round->pending = walks.size();
  for (const auto& [root, slow] : walks) {
    session_->walk(root, [this, round, slow = slow](Result<std::vector<Varbind>> result) {
      if (round_ != round) return;
      round->answered_async = true;
      if (!result) {
        round->errors.push_back(result.error().message);
        if (slow) round->failed_static = true;
      } else if (slow) {
        round->slow.add(std::move(*result));
      } else {
        round->values.add(std::move(*result));
      }
      if (--round->pending == 0) finishRound(round);
    });
  }
  if (walks.empty()) finishRound(round);
}

void SnmpDriver::finishRound(const std::shared_ptr<Round>& round) {
  if (round_ != round) return;
  PollResult result = decodeRound(*round);
  // A profile that fits the device but finds nothing must not look healthy:
  // with the slow tables, ask ENTITY-MIB whether there are transceivers.
  const bool nothing_found = profile_ && layout_ && result.samples.empty() && result.errors.empty();
  if (nothing_found && round->read_static && session_) {
    round->pending = 1;
    session_->walk(oids::kEntPhysicalEntry.child(2),
                   [this, round, result = std::move(result)](Result<std::vector<Varbind>> walked) mutable {
                     if (round_ != round) return;
                     round->answered_async = true;
                     zero_module_reason_ = walked ? zeroModuleReason(*walked) : zeroModuleReason({});
                     if (!zero_module_reason_.empty()) result.errors.push_back(zero_module_reason_);
                     deliver(round, std::move(result));
                   });
    return;
  }
  if (nothing_found && !zero_module_reason_.empty()) result.errors.push_back(zero_module_reason_);
  if (!result.samples.empty()) zero_module_reason_.clear();
  deliver(round, std::move(result));
}

std::string SnmpDriver::zeroModuleReason(const std::vector<Varbind>& entity_descriptions) const {
  std::size_t transceivers = 0;
  std::string example;
  for (const auto& vb : entity_descriptions) {
    auto text = vb.asText();
    if (!text || !std::regex_search(*text, transceiverText())) continue;
    if (example.empty()) example = *text;
    ++transceivers;
  }
  std::string why;
  if (transceivers) {
    why = "ENTITY-MIB lists " + std::to_string(transceivers) + " transceiver entities (e.g. '" + example + "')";
  }
  if (layout_ && layout_->sensors_unmatched && layout_->sensors.empty()) {
    why += (why.empty() ? "" : " and ") + std::to_string(layout_->sensors_unmatched) +
           " sensor rows matched none of its rules";
  }
  if (why.empty()) return {};
  return "profile " + profile_->name + " found 0 modules, but " + why +
         "; run 'opticsd poll-once --explain' to see each row";
}

PollResult SnmpDriver::decodeRound(Round& round) {
  PollResult result;
  Trace* trace = round.trace.get();
  const bool static_ok = !(round.read_static && round.failed_static);
  // A failed periodic re-read of the slow tables keeps the layout it would have
  // refreshed: this poll's values still go out, and the re-read is tried next poll.
  if (profile_ && (static_ok || layout_)) {
    if (trace) trace->add("profile " + profile_->name + " (" + profile_->source + "), " + profile_chosen_by_);
    if (round.read_static && static_ok) {
      layout_ = resolve(*profile_, round.slow, trace);
      polls_since_static_ = 0;
    }
    ++polls_since_static_;
    if (!static_ok) polls_since_static_ = options_.static_refresh;
    if (layout_) {
      result = apply(*profile_, *layout_, round.values, target_, round.now_ms, trace);
      // More sensor values than the layout knows: modules were inserted; re-read soon.
      if (profile_->entity_sensors) {
        auto values = round.values.column(profile_->entity_sensors->sensor_entry, 4);
        if (values.rows().size() != layout_->sensor_rows) {
          polls_since_static_ = options_.static_refresh;
        }
      }
    }
    if (options_.lldp) result.neighbors = decodeLldp(round.values);
  }
  if (result.samples.empty() && !round.errors.empty()) polls_since_static_ = options_.static_refresh;
  for (auto& e : round.errors) {
    // Parallel walks of one dead agent fail alike; say it once.
    if (std::find(result.errors.begin(), result.errors.end(), e) == result.errors.end()) {
      result.errors.push_back(std::move(e));
    }
  }
  return result;
}

void SnmpDriver::deliver(const std::shared_ptr<Round>& round, PollResult result) {
  round_.reset();
  if (round->trace) {
    auto lines = round->trace->lines();
    lines.push_back(std::to_string(result.samples.size()) + " modules");
    for (const auto& e : result.errors) lines.push_back("error: " + e);
    if (const auto& sink = explainSink()) sink(target_, std::move(lines));
  }
  auto done = std::move(round->done);
  if (io_ && !round->answered_async) {
    boost::asio::post(*io_,
                      [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
    return;
  }
  done(std::move(result));
}

namespace {

// What validate() reads once and every create() of the target shares.
struct SnmpTarget {
  DriverOptions options;
  std::shared_ptr<const ProfileCatalog> catalog;
};

std::shared_ptr<const DriverConfig> validate(const std::string&, OptionReader& options) {
  SnmpTarget target;
  auto parsed = readDriverOptions(options, target.catalog);
  if (!parsed) return nullptr;
  target.options = std::move(*parsed);
  return makeDriverConfig(std::move(target));
}

Result<std::unique_ptr<Driver>> create(const DriverContext& context, const SnmpTarget& target) {
  boost::asio::io_context* io = &context.io;
  SnmpDriver::SessionFactory factory =
      [io, session_config = target.options.session](const std::string& address) -> Result<std::unique_ptr<Session>> {
    SessionConfig resolved = session_config;
    resolved.resolved_address = address;
    auto session = NetSnmpSession::open(*io, resolved);
    if (!session) return tl::unexpected(session.error());
    return std::unique_ptr<Session>(std::move(*session));
  };
  return std::make_unique<SnmpDriver>(io, context.target_name, target.options, target.catalog, std::move(factory));
}

constexpr std::string_view kSecretKeys[] = {"community", "auth_password", "priv_password"};

}  // namespace

const DriverEntry& driverEntry() {
  static constexpr DriverEntry entry{"snmp", "switches over SNMP v2c/v3, vendor MIB profiles as data", &validate,
                                     &createWith<SnmpTarget, &create>, kSecretKeys};
  return entry;
}

}  // namespace opticsd::snmp
