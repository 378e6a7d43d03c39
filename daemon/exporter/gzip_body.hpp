#pragma once
// gzip (RFC 1952) through zlib, for scrapers that send Accept-Encoding: gzip
// (Prometheus always does). Prometheus text shrinks about tenfold; the
// compression level is zlib's fastest, so a large scrape costs little CPU.

#include <memory>
#include <string>
#include <string_view>

#include "daemon/exporter/http_server.hpp"

namespace opticsd {

// Streamed: compresses each part `plain` produces as it is sent, so a large
// body is never whole in memory, compressed or not.
std::unique_ptr<HttpBodySource> gzipBody(std::unique_ptr<HttpBodySource> plain);

// A whole text at once (for a buffer rendered once and served many times).
std::string gzipped(std::string_view plain);

}  // namespace opticsd
