#include "drivers/snmp/session_config.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "drivers/options/secret_source.hpp"

namespace opticsd::snmp {

std::string SessionConfig::describe() const {
  std::string out = "udp:" + address + ":" + std::to_string(port);
  if (!resolved_address.empty() && resolved_address != address) out += " [" + resolved_address + "]";
  if (version == SnmpVersion::kV2c) return out + " v2c";
  out += " v3 ";
  out += level == SecurityLevel::kNoAuthNoPriv ? "noAuthNoPriv"
         : level == SecurityLevel::kAuthNoPriv ? "authNoPriv"
                                               : "authPriv";
  return out + " user=" + user;
}

namespace {

// One secret from exactly one of KEY, KEY_file, KEY_credential.
std::optional<std::string> readSecret(OptionReader& options, const std::string& key) {
  auto inline_value = options.optionalString(key);
  auto file = options.optionalString(key + "_file");
  auto credential = options.optionalString(key + "_credential");
  int given = (inline_value ? 1 : 0) + (file ? 1 : 0) + (credential ? 1 : 0);
  if (given > 1) {
    options.error(key, "give only one of " + key + ", " + key + "_file, " + key + "_credential");
    return std::nullopt;
  }
  if (inline_value) return inline_value;
  Result<std::string> secret = file         ? readSecretFile(*file)
                               : credential ? readCredential(*credential)
                                            : Result<std::string>(fail(""));
  if (!file && !credential) return std::nullopt;
  if (!secret) {
    options.error(file ? key + "_file" : key + "_credential", secret.error().message);
    return std::nullopt;
  }
  return *secret;
}

}  // namespace

Result<HostPort> splitHostPort(const std::string& address) {
  auto parsePort = [&](const std::string& text) -> Result<std::uint16_t> {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos) {
      return fail("bad port '" + text + "' in '" + address + "' (expected host, host:port or [v6]:port)");
    }
    int port = std::stoi(text);
    if (port < 1 || port > 65535) return fail("port " + text + " outside 1..65535");
    return static_cast<std::uint16_t>(port);
  };
  if (address.front() == '[') {
    auto close = address.find(']');
    if (close == std::string::npos || close == 1) return fail("'" + address + "': expected [v6] or [v6]:port");
    HostPort out{address.substr(1, close - 1), std::nullopt};
    if (close + 1 == address.size()) return out;
    if (address[close + 1] != ':') return fail("'" + address + "': expected [v6] or [v6]:port");
    auto port = parsePort(address.substr(close + 2));
    if (!port) return tl::unexpected(port.error());
    out.port = *port;
    return out;
  }
  auto colon = address.find(':');
  // Two colons or more: an IPv6 literal without a port.
  if (colon == std::string::npos || address.find(':', colon + 1) != std::string::npos) return HostPort{address, {}};
  if (colon == 0) return fail("'" + address + "': no host before the port");
  auto port = parsePort(address.substr(colon + 1));
  if (!port) return tl::unexpected(port.error());
  return HostPort{address.substr(0, colon), *port};
}

namespace {

template <typename T, std::size_t N>
using Names = std::array<std::pair<std::string_view, T>, N>;

// The value `key` names in `table`, compared after `normalize`; else `expected` is the error.
template <typename T, std::size_t N>
void readNamed(OptionReader& options, const std::string& key, const Names<T, N>& table, std::string_view expected,
               T& out, std::string (*normalize)(std::string) = nullptr) {
  auto text = options.optionalString(key);
  if (!text) return;
  const std::string name = normalize ? normalize(*text) : *text;
  for (const auto& [candidate, value] : table) {
    if (candidate == name) {
      out = value;
      return;
    }
  }
  options.error(key, std::string(expected));
}

// Operators write SHA256, SHA-256 or sha256 (net-snmp tools, vendor CLIs):
// case and dashes are ignored.
std::string protocolName(std::string text) {
  std::erase(text, '-');
  for (char& ch : text) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return text;
}

constexpr Names<SnmpVersion, 5> kVersions{{{"2c", SnmpVersion::kV2c},
                                           {"v2c", SnmpVersion::kV2c},
                                           {"2", SnmpVersion::kV2c},
                                           {"3", SnmpVersion::kV3},
                                           {"v3", SnmpVersion::kV3}}};
constexpr Names<SecurityLevel, 3> kLevels{{{"noAuthNoPriv", SecurityLevel::kNoAuthNoPriv},
                                           {"authNoPriv", SecurityLevel::kAuthNoPriv},
                                           {"authPriv", SecurityLevel::kAuthPriv}}};
constexpr Names<AuthProtocol, 6> kAuthProtocols{{{"SHA", AuthProtocol::kSha},
                                                 {"SHA224", AuthProtocol::kSha224},
                                                 {"SHA256", AuthProtocol::kSha256},
                                                 {"SHA384", AuthProtocol::kSha384},
                                                 {"SHA512", AuthProtocol::kSha512},
                                                 {"MD5", AuthProtocol::kMd5}}};
constexpr Names<PrivProtocol, 7> kPrivProtocols{{{"AES", PrivProtocol::kAes128},
                                                 {"AES128", PrivProtocol::kAes128},
                                                 {"AES192", PrivProtocol::kAes192},
                                                 {"AES256", PrivProtocol::kAes256},
                                                 {"AES192C", PrivProtocol::kAes192Cisco},
                                                 {"AES256C", PrivProtocol::kAes256Cisco},
                                                 {"DES", PrivProtocol::kDes}}};

// address (host, host:port, [v6]:port) and port, which must agree.
void readAddress(OptionReader& options, SessionConfig& c) {
  c.address = options.requiredString("address");
  auto explicit_port = options.optionalInt("port", 1, 65535);
  if (explicit_port) c.port = static_cast<std::uint16_t>(*explicit_port);
  if (c.address.empty()) return;
  auto split = splitHostPort(c.address);
  if (!split) {
    options.error("address", split.error().message);
    return;
  }
  c.address = split->host;
  if (split->port && explicit_port && *split->port != *explicit_port) {
    options.error("port", "the address gives port " + std::to_string(*split->port) + ", port: says " +
                              std::to_string(*explicit_port));
  } else if (split->port) {
    c.port = *split->port;
  }
}

std::optional<std::string> readEngineIdHex(OptionReader& options) {
  auto engine = options.optionalString("engine_id");
  if (!engine) return std::nullopt;
  std::string hex = *engine;
  if (hex.rfind("0x", 0) == 0) hex = hex.substr(2);
  bool ok = !hex.empty() && hex.size() % 2 == 0 && hex.size() <= 64;
  for (char ch : hex) ok = ok && std::isxdigit(static_cast<unsigned char>(ch));
  if (!ok) {
    options.error("engine_id", "expected hex digits (5..32 bytes)");
    return std::nullopt;
  }
  return hex;
}

// version, community and the SNMPv3 USM settings, as given (checked by checkUsmCredentials).
void readSecurity(OptionReader& options, SessionConfig& c) {
  readNamed(options, "version", kVersions, "expected 2c or 3", c.version);
  if (auto community = readSecret(options, "community")) c.community = *community;
  if (auto user = options.optionalString("user")) c.user = *user;
  readNamed(options, "security_level", kLevels, "expected noAuthNoPriv, authNoPriv or authPriv", c.level);
  readNamed(options, "auth_protocol", kAuthProtocols, "expected SHA, SHA-224, SHA-256, SHA-384, SHA-512 or MD5",
            c.auth_protocol, &protocolName);
  readNamed(options, "priv_protocol", kPrivProtocols,
            "expected AES-128, AES-192, AES-256, AES-192-C or AES-256-C (Cisco's key extension) or DES",
            c.priv_protocol, &protocolName);
  if (auto pw = readSecret(options, "auth_password")) c.auth_password = *pw;
  if (auto pw = readSecret(options, "priv_password")) c.priv_password = *pw;
  if (auto context = options.optionalString("context")) c.context = *context;
  if (auto hex = readEngineIdHex(options)) c.engine_id_hex = *hex;
}

// `timeout` is the whole poll's deadline (the scheduler enforces it);
// `request_timeout` is one try of one request. Without it, each try gets an
// equal share of the deadline, so that `retries` can happen before it.
void readTimeouts(OptionReader& options, SessionConfig& c) {
  std::chrono::milliseconds poll_deadline{0};  // 0: not given for this target
  if (auto deadline = options.optionalDuration("timeout")) {
    if (deadline->count() < 10 || deadline->count() > 600000) {
      options.error("timeout", "expected 10ms..10m");
    } else {
      poll_deadline = *deadline;
    }
  }
  if (auto retries = options.optionalInt("retries", 0, 10)) c.retries = static_cast<int>(*retries);
  if (auto request = options.optionalDuration("request_timeout")) {
    if (request->count() < 10 || request->count() > 600000) {
      options.error("request_timeout", "expected 10ms..10m");
    } else if (poll_deadline.count() > 0 && *request * (c.retries + 1) > poll_deadline) {
      options.error("request_timeout", std::to_string(c.retries + 1) + " tries of " + std::to_string(request->count()) +
                                           " ms exceed timeout " + std::to_string(poll_deadline.count()) +
                                           " ms (the poll deadline): retries could never happen");
    } else {
      c.timeout = *request;
    }
  } else if (poll_deadline.count() > 0) {
    c.timeout = std::max(std::chrono::milliseconds(10), poll_deadline / (c.retries + 1));
  }
}

// SNMPv3 needs a user, and the passwords its level uses.
void checkUsmCredentials(OptionReader& options, const SessionConfig& c) {
  if (c.version != SnmpVersion::kV3) return;
  if (c.user.empty()) options.error("user", "SNMPv3 needs a user");
  // A password that is not there is missing, not short (a misspelled key leaves it unset).
  auto needs = [](const std::string& key, const std::string& what) {
    return "SNMPv3 " + what + " needs " + key + " (or " + key + "_file, " + key + "_credential)";
  };
  if (c.level != SecurityLevel::kNoAuthNoPriv && c.auth_password.empty()) {
    options.error("auth_password", needs("auth_password", "authentication"));
  } else if (c.level != SecurityLevel::kNoAuthNoPriv && c.auth_password.size() < 8) {
    options.error("auth_password", "SNMPv3 authentication needs a password of at least 8 characters");
  }
  if (c.level == SecurityLevel::kAuthPriv && c.priv_password.empty()) {
    options.error("priv_password", needs("priv_password", "privacy"));
  } else if (c.level == SecurityLevel::kAuthPriv && c.priv_password.size() < 8) {
    options.error("priv_password", "SNMPv3 privacy needs a password of at least 8 characters");
  }
}

}  // namespace

std::optional<SessionConfig> readSessionConfig(OptionReader& options) {
  SessionConfig c;
  readAddress(options, c);
  readSecurity(options, c);
  readTimeouts(options, c);
  if (auto reps = options.optionalInt("max_repetitions", 1, 1000)) c.max_repetitions = static_cast<int>(*reps);
  if (auto max = options.optionalInt("max_varbinds", 1, 100000000)) c.max_varbinds = static_cast<std::size_t>(*max);
  checkUsmCredentials(options, c);
  if (!options.valid()) return std::nullopt;
  return c;
}

}  // namespace opticsd::snmp
