#pragma once
// A small HTTP(S) GET for one JSON document from another opticsd instance
// (the far end's page data): bounded in time and size, certificates checked
// against the system's CAs, no redirects. Blocking: call it off the polling
// thread (the pages run on the HTTP server's threads).

#include <chrono>
#include <string>

#include "drivers/result.hpp"

namespace opticsd::web {

struct FetchOptions {
  std::chrono::milliseconds timeout{1500};  // the whole exchange
  std::size_t max_bytes = 4 * 1024 * 1024;
  std::string accept = "application/json";
};

// The body of a 200 answer; anything else is an Error naming the URL.
Result<std::string> httpGet(const std::string& url, const FetchOptions& options = {});

}  // namespace opticsd::web
