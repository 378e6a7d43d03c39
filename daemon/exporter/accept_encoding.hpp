#pragma once
// Whether an Accept-Encoding header (RFC 9110 12.5.3) lets us answer in gzip:
// `gzip` (or `x-gzip`, or `*`) listed with a quality above zero.

#include <string_view>

namespace opticsd {

bool acceptsGzip(std::string_view accept_encoding);

}  // namespace opticsd
