#pragma once
// The SNMP driver: one target, one net-snmp session, one profile. A poll
// walks the profile's subtrees in parallel on the session; slow tables
// (sensor types, entity names, thresholds) are re-read only every
// `static_refresh` polls or when new sensors appear, so a steady-state poll
// reads little more than the value column.
//
// Threading: created, polled and destroyed on the io_context thread.

#include <memory>

#include "drivers/registry.hpp"
#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/profile_decoder.hpp"
#include "drivers/snmp/session.hpp"
#include "drivers/snmp/session_config.hpp"

namespace opticsd::snmp {

struct DriverOptions {
  SessionConfig session;
  std::string profile;            // empty: pick by sysObjectID
  bool lldp = false;
  int static_refresh = 10;        // polls between re-reads of the slow tables
};

// Reads the target's options (session keys plus profile, profile_dir, lldp, static_refresh).
std::optional<DriverOptions> readDriverOptions(OptionReader& options,
                                               std::shared_ptr<const ProfileCatalog>& catalog);

class SnmpDriver : public Driver {
 public:
  using SessionFactory = std::function<Result<std::unique_ptr<Session>>()>;

  // `io` receives deferred completions; null only for validation.
  SnmpDriver(boost::asio::io_context* io, std::string target, DriverOptions options, std::shared_ptr<const ProfileCatalog> catalog,
             SessionFactory make_session);
  ~SnmpDriver() override;

  void poll(std::int64_t now_ms, Done done) override;
  void cancel() override;

  const Profile* profile() const { return profile_.get(); }

 private:
  struct Round;
  void startWalks(const std::shared_ptr<Round>& round);
  void finishRound(const std::shared_ptr<Round>& round);

  boost::asio::io_context* io_;
  std::string target_;
  DriverOptions options_;
  std::shared_ptr<const ProfileCatalog> catalog_;
  SessionFactory make_session_;
  std::unique_ptr<Session> session_;
  std::shared_ptr<const Profile> profile_;
  std::optional<Layout> layout_;
  int polls_since_static_ = 0;
  std::shared_ptr<Round> round_;
};

std::unique_ptr<Driver> createSnmpDriver(const DriverContext& context, OptionReader& options);

}  // namespace opticsd::snmp
