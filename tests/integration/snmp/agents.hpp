#pragma once
// Real SNMP agents for integration tests: snmpsimd serving a directory of
// .snmprec files, and snmpd with a private config. Each runs on a free
// 127.0.0.1 UDP port and is killed (by its own pid) when the object dies.

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace opticsd::snmp::testing {

std::uint16_t freeUdpPort();
bool haveProgram(const std::string& name);
std::string makeTempDir();

class Agent {
 public:
  Agent() = default;
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;
  ~Agent() { stop(); }

  // snmpsimd over copies of `files` (community = file base name).
  bool startSnmpsim(const std::vector<std::string>& files);
  // snmpd with `config_lines` plus the agentAddress line.
  bool startSnmpd(const std::vector<std::string>& config_lines);
  // Waits until `probe_args` (an snmpget command line tail) succeeds.
  bool waitReady(const std::string& snmpget_args, int timeout_ms = 20000);
  void stop();

  std::uint16_t port() const { return port_; }
  const std::string& dir() const { return dir_; }

 private:
  bool spawn(const std::vector<std::string>& argv);
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  std::string dir_;
};

}  // namespace opticsd::snmp::testing
