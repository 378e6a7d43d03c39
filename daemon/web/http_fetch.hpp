#pragma once
// A small HTTP(S) GET for one JSON document from another opticsd instance
// (the far end's page data): bounded in time and size, certificates checked
// (against a CA file, else the system's CAs), optional basic auth, no
// redirects. Blocking: call it off the polling thread (the pages run on the
// HTTP server's threads, `opticsd explain` on its own).

#include <chrono>
#include <string>

#include "drivers/result.hpp"

namespace opticsd::web {

struct FetchOptions {
  // Connecting, the TLS handshake, sending and the whole answer together
  // (name resolution is bounded by the system's resolver).
  std::chrono::milliseconds timeout{1500};
  std::size_t max_bytes = 4 * 1024 * 1024;
  std::string accept = "application/json";
  std::string basic_auth_user;      // empty: no Authorization header
  std::string basic_auth_password;  // secret: never in an error or a log
  std::string tls_ca_file;          // https: the CA the server's certificate chains to; empty: system CAs
};

// The body of a 200 answer; anything else is an Error naming the URL (a 401
// says the credentials are missing or refused).
Result<std::string> httpGet(const std::string& url, const FetchOptions& options = {});

}  // namespace opticsd::web
