#pragma once
// HTTP basic authentication (RFC 7617) for the /metrics endpoint.

#include <string>
#include <string_view>

namespace opticsd {

// True when `authorization` (the Authorization header value, possibly null)
// is "Basic base64(user:password)" with exactly these credentials. Compares
// in time independent of where a guess goes wrong. Pure, thread-safe.
bool basicAuthMatches(const char* authorization, const std::string& user, const std::string& password);

}  // namespace opticsd
