#pragma once
// HTTP basic authentication (RFC 7617): the /metrics endpoint's check, and
// the header opticsd sends as a client (remote write, other instances' pages).

#include <string>
#include <string_view>

namespace opticsd {

// True when `authorization` (the Authorization header value; empty when the
// request has none) is "Basic base64(user:password)" with exactly these credentials. Compares
// in time independent of where a guess goes wrong. Pure, thread-safe.
bool basicAuthMatches(std::string_view authorization, const std::string& user, const std::string& password);

// The Authorization header value a client sends: "Basic base64(user:password)".
// Carries the secret: never log it.
std::string basicAuthorization(const std::string& user, const std::string& password);

}  // namespace opticsd
