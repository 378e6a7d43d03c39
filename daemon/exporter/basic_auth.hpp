#pragma once
// HTTP basic authentication (RFC 7617) for the /metrics endpoint.

#include <string>
#include <string_view>

namespace opticsd {

// True when `authorization` (the Authorization header value; empty when the
// request has none) is "Basic base64(user:password)" with exactly these credentials. Compares
// in time independent of where a guess goes wrong. Pure, thread-safe.
bool basicAuthMatches(std::string_view authorization, const std::string& user, const std::string& password);

}  // namespace opticsd
