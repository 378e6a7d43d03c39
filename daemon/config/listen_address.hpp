#pragma once
// listen.address as users of other exporters type it, turned into the
// IP-literal HOST:PORT the HTTP server binds: ":9464" is every IPv4 address
// (0.0.0.0:9464), "localhost:9464" is 127.0.0.1:9464, "[::1]:9464" is IPv6.
// Any other host name is refused: binding must not depend on DNS.

#include <optional>
#include <string>
#include <string_view>

#include "drivers/result.hpp"

namespace opticsd {

Result<std::string> normalizeListenAddress(std::string_view address);

// True when the address can be reached only from this host.
bool isLoopbackListenAddress(std::string_view normalized);

// What to warn about when /metrics is reachable from other hosts with
// neither TLS nor basic auth (anyone on the network reads the fleet), or
// nothing. Said by check-config and at start.
std::optional<std::string> openMetricsWarning(std::string_view normalized_address, bool tls, bool basic_auth);

}  // namespace opticsd
