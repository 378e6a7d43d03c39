#include "daemon/config/listen_address.hpp"

#include <arpa/inet.h>

#include <cstdint>

namespace opticsd {
namespace {

constexpr std::string_view kHint =
    "expected HOST:PORT with an IP address, e.g. 127.0.0.1:9464, 0.0.0.0:9464, :9464 "
    "(every IPv4 address), localhost:9464 or [::1]:9464";

bool isIpv4(const std::string& host) {
  in_addr out{};
  return ::inet_pton(AF_INET, host.c_str(), &out) == 1;
}

bool isIpv6(const std::string& host) {
  in6_addr out{};
  return ::inet_pton(AF_INET6, host.c_str(), &out) == 1;
}

}  // namespace

Result<std::string> normalizeListenAddress(std::string_view address) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos) return fail(std::string(kHint) + ", got '" + std::string(address) + "'");
  std::string host(address.substr(0, colon));
  const std::string port(address.substr(colon + 1));
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) > 65535) {
    return fail("port '" + port + "' is not a number from 0 to 65535 in '" + std::string(address) + "'");
  }
  if (host.empty()) return "0.0.0.0:" + port;
  if (host == "localhost") return "127.0.0.1:" + port;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    if (isIpv6(host.substr(1, host.size() - 2))) return host + ":" + port;
  } else if (isIpv4(host)) {
    return host + ":" + port;
  } else if (isIpv6(host)) {
    return fail("an IPv6 address goes in brackets: [" + host + "]:" + port);
  }
  return fail("'" + host + "' is not an IP address; " + std::string(kHint));
}

bool isLoopbackListenAddress(std::string_view normalized) {
  return normalized.starts_with("127.") || normalized.starts_with("[::1]:");
}

std::optional<std::string> openMetricsWarning(std::string_view normalized_address, bool tls, bool basic_auth) {
  if (isLoopbackListenAddress(normalized_address) || tls || basic_auth) return std::nullopt;
  return "/metrics on " + std::string(normalized_address) +
         " is open to the network without TLS or basic auth: listen on 127.0.0.1, or set "
         "listen.tls_cert_file/tls_key_file and listen.basic_auth_user/basic_auth_password_file";
}

}  // namespace opticsd
