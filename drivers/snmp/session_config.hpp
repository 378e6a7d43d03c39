#pragma once
// How to reach one agent: address, version, credentials, timing. Read from
// a target's config mapping through OptionReader. Secrets are resolved here
// (config, file, or systemd credential) and never printed: describe() and
// every error message leave them out.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "drivers/options/option_reader.hpp"
#include "drivers/result.hpp"

namespace opticsd::snmp {

enum class SnmpVersion : std::uint8_t { kV2c, kV3 };
enum class SecurityLevel : std::uint8_t { kNoAuthNoPriv, kAuthNoPriv, kAuthPriv };
enum class AuthProtocol : std::uint8_t { kSha, kSha224, kSha256, kSha384, kSha512, kMd5 };
// AES-192/256: kAes192/kAes256 extend the key as the Blumenthal draft says
// (net-snmp's -x AES192/AES256); the Cisco variants as Cisco does (Reeder
// draft; net-snmp's -x AES192C/AES256C). An agent accepts one of the two.
enum class PrivProtocol : std::uint8_t { kAes128, kDes, kAes192, kAes256, kAes192Cisco, kAes256Cisco };

struct SessionConfig {
  std::string address = "127.0.0.1";  // a host name or a numeric address
  // The numeric address `address` resolved to (SnmpDriver fills it, off the
  // polling thread); net-snmp only ever sees a numeric peer.
  std::string resolved_address;
  std::uint16_t port = 161;
  SnmpVersion version = SnmpVersion::kV2c;
  std::string community = "public";  // secret
  // SNMPv3 (RFC 3414 USM)
  std::string user;
  SecurityLevel level = SecurityLevel::kNoAuthNoPriv;
  AuthProtocol auth_protocol = AuthProtocol::kSha;
  std::string auth_password;  // secret
  PrivProtocol priv_protocol = PrivProtocol::kAes128;
  std::string priv_password;  // secret
  std::string context;
  std::string engine_id_hex;  // optional: skip discovery, pin the agent's engine
  // Timing. `timeout` is one try of one request (config `request_timeout`,
  // else the target's `timeout` shared out over 1 + retries tries).
  std::chrono::milliseconds timeout{2000};
  int retries = 1;
  int max_repetitions = 25;
  std::size_t max_varbinds = 500000;  // a walk beyond this is an agent bug, not a table

  // "udp:10.0.0.1:161 v3 authPriv user=ops" or "udp:leaf1:161 [10.0.0.1] v2c" (no secrets).
  std::string describe() const;
};

// Reads the keys below from `options` (the target's mapping), resolving
// secrets; problems are reported on `options`.
//   address, port, version (2c|3), community | community_file | community_credential,
//   user, security_level, auth_protocol, auth_password | auth_password_file | auth_password_credential,
//   priv_protocol, priv_password | priv_password_file | priv_password_credential,
//   context, engine_id, timeout, request_timeout, retries, max_repetitions, max_varbinds
std::optional<SessionConfig> readSessionConfig(OptionReader& options);

// "10.0.0.1", "10.0.0.1:1161", "leaf1:1161", "[2001:db8::1]:1161" or a bare
// IPv6 literal "2001:db8::1" (no port then).
struct HostPort {
  std::string host;
  std::optional<std::uint16_t> port;
};
Result<HostPort> splitHostPort(const std::string& address);

}  // namespace opticsd::snmp
