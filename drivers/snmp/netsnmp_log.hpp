#pragma once
// net-snmp logs on its own ("snmp_build: unknown failure", config and MIB
// warnings) and, with no handler registered, writes straight to stderr. A
// daemon's stderr is its log: everything net-snmp says goes through
// opticsd's logger (spdlog's default logger) instead, at a level that does
// not shout about what the driver already reports as a per-target error,
// rate-limited, and with every secret of a live session cut out.
//
// Threading: any thread (net-snmp may log from wherever it is called).

#include <string>
#include <vector>

namespace opticsd::snmp {

// Installs the route (before init_snmp, so that its own chatter is caught
// too). Idempotent.
void routeNetSnmpLogging();

// Registers secrets (community, passwords) for as long as it lives: no log
// line that passes through redactSecrets() carries them.
class SecretGuard {
 public:
  explicit SecretGuard(std::vector<std::string> secrets);
  ~SecretGuard();
  SecretGuard(const SecretGuard&) = delete;
  SecretGuard& operator=(const SecretGuard&) = delete;

 private:
  std::vector<std::string> secrets_;
};

// `text` with every registered secret replaced by "<redacted>".
std::string redactSecrets(std::string text);

}  // namespace opticsd::snmp
