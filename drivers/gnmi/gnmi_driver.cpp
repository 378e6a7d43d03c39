#include "drivers/gnmi/gnmi_driver.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <random>

#include "drivers/explain_sink.hpp"

namespace opticsd::gnmi {
namespace {

std::string_view encodingName(int e) {
  switch (e) {
    case ::gnmi::JSON:
      return "JSON";
    case ::gnmi::BYTES:
      return "BYTES";
    case ::gnmi::PROTO:
      return "PROTO";
    case ::gnmi::ASCII:
      return "ASCII";
    case ::gnmi::JSON_IETF:
      return "JSON_IETF";
    default:
      return "unknown";
  }
}

void toProtoPath(std::string_view text, ::gnmi::Path& out) {
  auto parsed = parsePath(text);  // variant paths are checked by the unit tests
  if (!parsed) return;
  for (const auto& e : parsed->elems) {
    auto* elem = out.add_elem();
    elem->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*elem->mutable_key())[k] = v;
  }
}

// Text from the target (its status message, its paths) in a log line or an
// error: bounded, and anything but printable ASCII replaced.
std::string printable(std::string_view text, std::size_t max = 300) {
  std::string out(text.substr(0, max));
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) c = '?';
  }
  return out;
}

std::chrono::system_clock::time_point after(std::chrono::milliseconds d) {
  return std::chrono::system_clock::now() + d;
}

}  // namespace

GnmiDriver::GnmiDriver(boost::asio::io_context& io, std::string target, GnmiOptions options, LeafRules rules)
    : io_(io), target_(std::move(target)), options_(std::move(options)), reconnect_timer_(io) {
  core_ = std::make_shared<StreamCore>(*options_.variant, std::move(rules), options_.max_updates_per_interval,
                                       options_.channel_base);
  if (explainSink()) core_->enableTrace();
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (options_.tls) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options_.ca_pem;
    ssl.pem_cert_chain = options_.client_cert_pem;
    ssl.pem_private_key = options_.client_key_pem;
    credentials = grpc::SslCredentials(ssl);
  } else {
    credentials = grpc::InsecureChannelCredentials();
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(static_cast<int>(options_.max_message_bytes));
  if (!options_.tls_server_name.empty()) args.SetSslTargetNameOverride(options_.tls_server_name);
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, static_cast<int>(options_.reconnect_min.count()));
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, static_cast<int>(options_.reconnect_max.count()));
  channel_ = grpc::CreateCustomChannel(options_.address, credentials, args);
  stub_ = ::gnmi::gNMI::NewStub(channel_);
  if (!options_.username.empty()) {
    metadata_.emplace_back("username", options_.username);
    metadata_.emplace_back("password", options_.password);
  }
}

GnmiDriver::~GnmiDriver() {
  *alive_ = false;
  reconnect_timer_.cancel();
  core_->cancelAll();
  if (!core_->waitIdle(std::chrono::seconds(5))) {
    spdlog::warn("gnmi target={} calls still in flight after cancel", target_);
  }
}

void GnmiDriver::onIo(std::function<void()> fn) {
  boost::asio::post(io_, [alive = std::weak_ptr<bool>(alive_), fn = std::move(fn)] {
    auto a = alive.lock();
    if (a && *a) fn();
  });
}

std::string GnmiDriver::describeStatus(const grpc::Status& status) const {
  std::string what;
  switch (status.error_code()) {
    case grpc::StatusCode::UNAUTHENTICATED:
      what = "authentication failed (check username and password)";
      break;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      what = "message larger than max_message_size (" + std::to_string(options_.max_message_bytes) +
             " bytes) or target out of resources";
      break;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      what = "no answer in time";
      break;
    case grpc::StatusCode::UNAVAILABLE:
      what = "unreachable";
      break;
    case grpc::StatusCode::UNIMPLEMENTED:
      what = "not implemented by the target";
      break;
    default:
      what = "gRPC status " + std::to_string(static_cast<int>(status.error_code()));
  }
  const std::string message = printable(status.error_message());
  return what + (message.empty() ? "" : ": " + message);
}

void GnmiDriver::withEncoding(std::function<void(Result<::gnmi::Encoding>)> then) {
  startCapabilities(
      *stub_, core_, metadata_, after(options_.connect_timeout),
      [this, then = std::move(then)](const grpc::Status& status, const ::gnmi::CapabilityResponse& response) {
        Result<::gnmi::Encoding> chosen = fail("");
        if (!status.ok()) {
          chosen = fail("Capabilities: " + describeStatus(status));
        } else {
          std::vector<int> supported(response.supported_encodings().begin(), response.supported_encodings().end());
          std::string listed;
          for (int e : supported) listed += (listed.empty() ? "" : ",") + std::string(encodingName(e));
          auto has = [&](int e) { return std::find(supported.begin(), supported.end(), e) != supported.end(); };
          ::gnmi::Encoding pick = ::gnmi::PROTO;
          switch (options_.encoding) {
            case EncodingChoice::kAuto:
              pick = has(::gnmi::PROTO) ? ::gnmi::PROTO : has(::gnmi::JSON_IETF) ? ::gnmi::JSON_IETF : ::gnmi::JSON;
              break;
            case EncodingChoice::kProto:
              pick = ::gnmi::PROTO;
              break;
            case EncodingChoice::kJsonIetf:
              pick = ::gnmi::JSON_IETF;
              break;
            case EncodingChoice::kJson:
              pick = ::gnmi::JSON;
              break;
          }
          spdlog::info("gnmi target={} gNMI version={} encodings=[{}] models={} subscribing with {}", target_,
                       printable(response.gnmi_version(), 40), listed, response.supported_models_size(),
                       encodingName(pick));
          if (!supported.empty() && !has(pick)) {
            spdlog::warn("gnmi target={} does not list encoding {}; trying it anyway", target_, encodingName(pick));
          }
          chosen = pick;
        }
        onIo([then, chosen] { then(chosen); });
      });
}

std::vector<::gnmi::SubscribeRequest> GnmiDriver::subscriptions(::gnmi::SubscriptionList::Mode mode,
                                                                ::gnmi::Encoding encoding) const {
  const VendorVariant& v = *options_.variant;
  auto targetOf = [&](std::span<const std::string_view> targets, std::size_t i) {
    return i < targets.size() ? targets[i] : v.target;
  };
  std::vector<std::string_view> targets;  // in the order the variant first names them
  auto note = [&](std::string_view t) {
    if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
  };
  for (std::size_t i = 0; i < v.sample_paths.size(); ++i) note(targetOf(v.sample_path_targets, i));
  for (std::size_t i = 0; i < v.on_change_paths.size(); ++i) note(targetOf(v.on_change_path_targets, i));
  if (explainSink()) {
    subscription_sent_ = std::string(::gnmi::SubscriptionList::Mode_Name(mode)) + " encoding " +
                         std::string(encodingName(encoding)) + " variant " + std::string(v.name) +
                         (v.origin.empty() ? "" : " prefix origin " + std::string(v.origin)) + ":";
  }
  const auto ns = [](std::chrono::milliseconds d) { return static_cast<std::uint64_t>(d.count()) * 1'000'000u; };
  std::vector<::gnmi::SubscribeRequest> requests;
  for (std::string_view target : targets) {
    ::gnmi::SubscribeRequest& request = requests.emplace_back();
    auto* list = request.mutable_subscribe();
    list->set_mode(mode);
    list->set_encoding(encoding);
    list->set_updates_only(mode == ::gnmi::SubscriptionList::STREAM && options_.updates_only);
    if (!v.origin.empty()) list->mutable_prefix()->set_origin(std::string(v.origin));
    if (!target.empty()) list->mutable_prefix()->set_target(std::string(target));
    if (explainSink() && !target.empty()) subscription_sent_ += " [prefix target " + std::string(target) + "]";
    for (std::size_t i = 0; i < v.sample_paths.size(); ++i) {
      if (targetOf(v.sample_path_targets, i) != target) continue;
      auto* s = list->add_subscription();
      toProtoPath(v.sample_paths[i], *s->mutable_path());
      s->set_mode(::gnmi::SAMPLE);
      s->set_sample_interval(ns(options_.sample_interval));
      if (explainSink()) subscription_sent_ += " SAMPLE " + std::string(v.sample_paths[i]) + ";";
    }
    for (std::size_t i = 0; i < v.on_change_paths.size(); ++i) {
      if (targetOf(v.on_change_path_targets, i) != target) continue;
      auto* s = list->add_subscription();
      toProtoPath(v.on_change_paths[i], *s->mutable_path());
      s->set_mode(::gnmi::ON_CHANGE);
      if (options_.heartbeat_interval) s->set_heartbeat_interval(ns(*options_.heartbeat_interval));
      if (explainSink()) subscription_sent_ += " ON_CHANGE " + std::string(v.on_change_paths[i]) + ";";
    }
  }
  return requests;
}

void GnmiDriver::poll(std::int64_t now_ms, Done done) {
  if (options_.mode == SubscribeMode::kPoll) return pollTarget(now_ms, std::move(done));
  if (options_.mode == SubscribeMode::kOnce || !snapshot_taken_) return startOnce(now_ms, std::move(done));
  PollResult result = snapshot(now_ms);
  onIo([done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
}

void GnmiDriver::cancel() {
  if (once_done_) {
    once_done_ = nullptr;
    ++round_;  // the ONCE call runs to its end (bounded by its deadline); its answer is dropped
  }
}

void GnmiDriver::startOnce(std::int64_t now_ms, Done done) {
  const std::uint64_t round = ++round_;
  once_done_ = std::move(done);
  once_now_ms_ = now_ms;
  once_synced_ = false;
  withEncoding([this, round](Result<::gnmi::Encoding> encoding) {
    if (round != round_) return;
    if (!encoding) return finishOnce(round, encoding.error().message);
    // The round is answered once every call (one per prefix target) has
    // synced or ended well; the first failure answers it with its error.
    auto requests = subscriptions(::gnmi::SubscriptionList::ONCE, *encoding);
    auto pending = std::make_shared<std::size_t>(requests.size());
    for (auto& request : requests) {
      auto settled = std::make_shared<bool>(false);
      auto settle = [this, round, pending, settled] {
        if (round != round_ || *settled) return;
        *settled = true;
        if (--*pending > 0) return;
        once_synced_ = true;
        finishOnce(round, std::nullopt);
      };
      CallEvents events;
      events.sync = [this, settle] { onIo(settle); };
      events.done = [this, round, settle](const grpc::Status& status) {
        std::optional<std::string> error;
        if (!status.ok()) error = "Subscribe ONCE: " + describeStatus(status);
        onIo([this, round, settle, error] {
          if (error) return finishOnce(round, error);
          settle();
        });
      };
      startSubscribe(*stub_, core_, std::move(request), metadata_,
                     after(options_.connect_timeout + options_.sample_interval), std::move(events));
    }
  });
}

void GnmiDriver::pollTarget(std::int64_t now_ms, Done done) {
  const std::uint64_t round = ++round_;
  once_done_ = std::move(done);
  once_now_ms_ = now_ms;
  once_synced_ = false;
  const bool all_live = !poll_calls_.empty() && std::all_of(poll_calls_.begin(), poll_calls_.end(),
                                                            [](const auto& call) { return call->live(); });
  if (all_live) {
    poll_syncs_pending_ = poll_calls_.size();
    for (auto& call : poll_calls_) call->poll();
    return;
  }
  // A call whose sibling ended is ended too: the calls are started again together.
  for (auto& call : poll_calls_) call->cancel();
  poll_calls_.clear();
  withEncoding([this, round](Result<::gnmi::Encoding> encoding) {
    if (round != round_) return;
    if (!encoding) return finishOnce(round, encoding.error().message);
    auto requests = subscriptions(::gnmi::SubscriptionList::POLL, *encoding);
    poll_syncs_pending_ = requests.size();
    for (auto& request : requests) {
      CallEvents events;
      // A sync answers whichever poll is waiting, once every call has given one.
      events.sync = [this] {
        onIo([this] {
          if (poll_syncs_pending_ == 0 || --poll_syncs_pending_ > 0) return;
          once_synced_ = true;
          finishOnce(round_, std::nullopt);
        });
      };
      auto handle = std::make_shared<CallHandle>();
      // Only this call's end touches the session: a later call may already have replaced it.
      events.done = [this, weak = std::weak_ptr<CallHandle>(handle)](const grpc::Status& status) {
        const std::string error = "Subscribe POLL: " + (status.ok() ? std::string("the target ended the subscription")
                                                                    : describeStatus(status));
        onIo([this, weak, error] {
          auto mine = weak.lock();
          if (!mine || std::find(poll_calls_.begin(), poll_calls_.end(), mine) == poll_calls_.end()) return;
          for (auto& call : poll_calls_) call->cancel();  // its siblings: the next poll starts them all again
          poll_calls_.clear();
          finishOnce(round_, error);
        });
      };
      poll_calls_.push_back(handle);
      startSubscribe(*stub_, core_, std::move(request), metadata_, std::nullopt, std::move(events), handle);
      handle->poll();
    }
  });
}

void GnmiDriver::finishOnce(std::uint64_t round, std::optional<std::string> error) {
  if (round != round_ || !once_done_) return;
  Done done = std::move(once_done_);
  once_done_ = nullptr;
  PollResult result;
  if (error && !once_synced_) {
    result.errors.push_back(*error);
    core_->take(once_now_ms_, 0);  // counts of a failed round are not carried over
  } else {
    result = snapshot(once_now_ms_);
    if (options_.mode == SubscribeMode::kStream && !snapshot_taken_) {
      snapshot_taken_ = true;
      startStream();
    }
  }
  done(std::move(result));  // already on the io_context, from a posted event
}

void GnmiDriver::startStream() {
  if (!*alive_ || stream_ == StreamState::kConnecting || stream_ == StreamState::kUp) return;
  stream_ = StreamState::kConnecting;
  withEncoding([this](Result<::gnmi::Encoding> encoding) {
    if (!encoding) {
      stream_error_ = encoding.error().message;
      stream_ = StreamState::kDown;
      stream_failed_ = true;
      return scheduleReconnect();
    }
    const std::uint64_t generation = ++stream_generation_;
    for (auto& request : subscriptions(::gnmi::SubscriptionList::STREAM, *encoding)) {
      CallEvents events;
      events.first_response = [this, generation] {
        onIo([this, generation] {
          if (generation != stream_generation_ || stream_ == StreamState::kDown) return;
          if (stream_ != StreamState::kUp) spdlog::info("gnmi target={} stream up", target_);
          stream_ = StreamState::kUp;
          stream_failed_ = false;
        });
      };
      events.sync = [this] { onIo([this] { backoff_ = std::chrono::milliseconds(0); }); };
      events.done = [this, generation](const grpc::Status& status) {
        onIo([this, generation, status] {
          if (generation == stream_generation_) streamEnded(status);
        });
      };
      startSubscribe(*stub_, core_, std::move(request), metadata_, std::nullopt, std::move(events));
    }
  });
}

void GnmiDriver::streamEnded(const grpc::Status& status) {
  stream_error_ = status.ok() ? "the target ended the stream" : "Subscribe STREAM: " + describeStatus(status);
  spdlog::warn("gnmi target={} stream down: {}", target_, stream_error_);
  stream_ = StreamState::kDown;
  stream_failed_ = true;
  // The other targets' calls of this stream go too: the reconnect starts them all afresh.
  ++stream_generation_;
  core_->cancelAll();
  scheduleReconnect();
}

void GnmiDriver::scheduleReconnect() {
  backoff_ = backoff_.count() == 0 ? options_.reconnect_min : std::min(backoff_ * 2, options_.reconnect_max);
  // Up to a quarter of jitter, so targets that fell together do not return together.
  static thread_local std::minstd_rand jitter(std::random_device{}());
  const auto wait = backoff_ + std::chrono::milliseconds(jitter() % (backoff_.count() / 4 + 1));
  reconnect_at_ = std::chrono::steady_clock::now() + wait;
  reconnect_timer_.expires_after(wait);
  reconnect_timer_.async_wait([this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
    auto a = alive.lock();
    if (ec || !a || !*a) return;
    startStream();
  });
}

PollResult GnmiDriver::snapshot(std::int64_t now_ms) {
  PollResult result;
  auto taken = core_->take(now_ms, options_.stale_after.count());
  if (taken.channel_base.source == ChannelBase::Source::kAmbiguous && !logged_ambiguous_) {
    logged_ambiguous_ = true;  // said once per target: the default holds until the device's numbering is clear
    spdlog::warn("gnmi target={} channel numbering {}", target_, printable(taken.channel_base.why));
  }
  if (taken.trace) explain(taken);
  if (taken.counts.unknown_paths > 0 && !logged_unknown_) {
    logged_unknown_ = true;
    spdlog::info("gnmi target={} ignores {} updates on paths variant {} does not map, e.g. {}", target_,
                 taken.counts.unknown_paths, options_.variant->name, printable(taken.counts.first_unknown_path));
  }
  if (taken.counts.bad_values > 0) {
    spdlog::debug("gnmi target={} {} values not understood, e.g. at {}", target_, taken.counts.bad_values,
                  printable(taken.counts.first_bad_value_path));
  }
  const bool down = stream_ == StreamState::kDown || (stream_ == StreamState::kConnecting && stream_failed_);
  if (options_.mode == SubscribeMode::kStream && snapshot_taken_ && down) {
    const auto in =
        std::chrono::duration_cast<std::chrono::milliseconds>(reconnect_at_ - std::chrono::steady_clock::now());
    result.errors.push_back("gNMI stream down: " + stream_error_ +
                            (stream_ == StreamState::kDown
                                 ? " (reconnecting in " + std::to_string(std::max<std::int64_t>(0, in.count())) + " ms)"
                                 : " (reconnecting)"));
    return result;  // no samples: the target is down, not healthy with old values
  }
  result.samples = std::move(taken.samples);
  for (Sample& sample : result.samples) fec_tails_.apply(sample);
  if (taken.dropped > 0) {
    result.errors.push_back(std::to_string(taken.dropped) + " updates beyond max_updates_per_interval (" +
                            std::to_string(options_.max_updates_per_interval) + ") dropped");
  }
  if (taken.counts.over_limit > 0) {
    result.errors.push_back(std::to_string(taken.counts.over_limit) +
                            " updates dropped: more components and interfaces than opticsd keeps per target");
  }
  return result;
}

void GnmiDriver::explain(const StreamCore::Taken& taken) const {
  const auto& sink = explainSink();
  if (!sink) return;
  std::vector<std::string> lines;
  lines.push_back("subscription sent: " + (subscription_sent_.empty() ? "none" : subscription_sent_));
  lines.push_back("channel base: " + printable(taken.channel_base.why, 1000));
  lines.push_back(std::to_string(taken.updates) + " updates received, " + std::to_string(taken.counts.mapped) +
                  " mapped, " + std::to_string(taken.counts.unknown_paths) + " on paths no rule maps, " +
                  std::to_string(taken.counts.bad_values) + " values refused");
  for (const auto& [path, outcome] : taken.trace->outcome_by_path) {
    lines.push_back(printable(path, 1000) + ": " + printable(outcome, 1000));
  }
  if (taken.trace->more > 0) lines.push_back(std::to_string(taken.trace->more) + " more distinct paths not listed");
  if (taken.trace->outcome_by_path.empty()) lines.push_back("no update received");
  sink(target_, std::move(lines));
}

namespace {

std::shared_ptr<const DriverConfig> validate(const std::string&, OptionReader& options) {
  auto parsed = readGnmiOptions(options);
  if (!parsed) return nullptr;
  if (auto rules = LeafRules::compile(parsed->variant->rules, parsed->variant->origins); !rules) {
    options.error("variant", rules.error().message);
    return nullptr;
  }
  return makeDriverConfig(std::move(*parsed));
}

Result<std::unique_ptr<Driver>> create(const DriverContext& context, const GnmiOptions& options) {
  auto rules = LeafRules::compile(options.variant->rules, options.variant->origins);
  if (!rules) return fail(rules.error().message);
  return std::make_unique<GnmiDriver>(context.io, context.target_name, options.forPollInterval(context.poll_interval),
                                      std::move(*rules));
}

constexpr std::string_view kSecretKeys[] = {"password"};

}  // namespace

const DriverEntry& driverEntry() {
  static constexpr DriverEntry entry{
      "gnmi", "switches streaming OpenConfig (or native) telemetry over gNMI, vendor variants as data", &validate,
      &createWith<GnmiOptions, &create>, kSecretKeys};
  return entry;
}

}  // namespace opticsd::gnmi
