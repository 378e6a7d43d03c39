#pragma once
// The SNMP driver: one target, one net-snmp session, one profile. A poll
// walks the profile's subtrees in parallel on the session; slow tables
// (sensor types, entity names, thresholds) are re-read only every
// `static_refresh` polls or when new sensors appear, so a steady-state poll
// reads little more than the value column.
//
// A target given by host name is resolved off the polling thread
// (HostResolver); the poll waits for it asynchronously, at most
// `resolve_timeout`, so a name whose DNS server is silent delays nobody else
// and fails only its own poll ("cannot resolve host X: ..."), to be tried
// again on the next one.
//
// Threading: created, polled and destroyed on the io_context thread.

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <optional>

#include "drivers/driver.hpp"
#include "drivers/options/option_reader.hpp"
#include "drivers/snmp/host_resolver.hpp"
#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/profile_decoder.hpp"
#include "drivers/snmp/session.hpp"
#include "drivers/snmp/session_config.hpp"

namespace opticsd::snmp {

struct DriverOptions {
  SessionConfig session;
  std::string profile;  // empty: pick by sysObjectID
  bool lldp = false;
  int static_refresh = 10;  // polls between re-reads of the slow tables
  // How long a poll waits for the host name to resolve (the lookup itself
  // goes on in the background); unset: the session's timeout.
  std::optional<std::chrono::milliseconds> resolve_timeout;
};

// Reads the target's options (session keys plus profile, profile_dir, lldp, static_refresh, resolve_timeout).
std::optional<DriverOptions> readDriverOptions(OptionReader& options, std::shared_ptr<const ProfileCatalog>& catalog);

class SnmpDriver : public Driver {
 public:
  // Opens a session to the target at `address` (numeric, already resolved).
  using SessionFactory = std::function<Result<std::unique_ptr<Session>>(const std::string& address)>;

  // `io` receives deferred completions and host-name lookups (null: the
  // address is used as given; driverEntry().create always passes one). `resolver`
  // null: the process-wide HostResolver::shared().
  SnmpDriver(boost::asio::io_context* io, std::string target, DriverOptions options,
             std::shared_ptr<const ProfileCatalog> catalog, SessionFactory make_session,
             std::shared_ptr<HostResolver> resolver = nullptr);
  ~SnmpDriver() override;

  void poll(std::int64_t now_ms, Done done) override;
  void cancel() override;

  const Profile* profile() const { return profile_.get(); }

 private:
  struct Round;
  void withAddress(const std::shared_ptr<Round>& round, const std::string& address);
  void stopResolving();
  void startWalks(const std::shared_ptr<Round>& round);
  void finishRound(const std::shared_ptr<Round>& round);
  PollResult decodeRound(Round& round);
  void deliver(const std::shared_ptr<Round>& round, PollResult result);
  std::string zeroModuleReason(const std::vector<Varbind>& entity_descriptions) const;

  boost::asio::io_context* io_;
  std::string target_;
  DriverOptions options_;
  std::shared_ptr<const ProfileCatalog> catalog_;
  SessionFactory make_session_;
  std::shared_ptr<HostResolver> resolver_;
  std::unique_ptr<HostResolver::Pending> resolving_;
  std::optional<boost::asio::steady_timer> resolve_timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::unique_ptr<Session> session_;
  std::string session_address_;  // the numeric address session_ talks to
  std::shared_ptr<const Profile> profile_;
  std::optional<Layout> layout_;
  int polls_since_static_ = 0;
  // Why the last check of a poll with 0 modules thinks the device has
  // transceivers; empty: it found none (or nothing was checked yet). Re-checked
  // with the slow tables, reused in between.
  std::string zero_module_reason_;
  std::string profile_chosen_by_;  // for --explain: "profile: NAME" or "sysObjectID X"
  std::shared_ptr<Round> round_;
};

// validate: readDriverOptions (which loads the profile catalogue once);
// create: an SnmpDriver with net-snmp sessions on the context's io_context.
// Secret keys: community, auth_password, priv_password.
const DriverEntry& driverEntry();

}  // namespace opticsd::snmp
