#pragma once
// Test helpers: render families to text, fetch a URL over plain HTTP.

#include <prometheus/metric_family.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace opticsd::test {

std::string serialize(const std::vector<prometheus::MetricFamily>& families);

// Lines of `text` that start with `prefix` (series lines, not comments).
std::vector<std::string> linesStartingWith(const std::string& text, const std::string& prefix);

struct HttpResponse {
  int status = 0;
  std::string headers;
  std::string body;
};
// A minimal HTTP/1.0 GET over Boost.Asio; `extra_headers` end in "\r\n".
HttpResponse httpGet(std::uint16_t port, const std::string& path, const std::string& extra_headers = "");
// Sends `request` as is on a new connection and reads until the server closes it.
std::string httpExchange(std::uint16_t port, const std::string& request);
// The first response in `raw` (status, headers, the rest as body).
HttpResponse parseResponse(const std::string& raw);

}  // namespace opticsd::test

namespace opticsd::test {

// Series lines of an exposition as {"name{labels}" -> value}; comments skipped.
std::vector<std::pair<std::string, double>> parseSeries(const std::string& text);
// Value of one series, or nullopt when it is absent.
std::optional<double> valueOf(const std::string& text, const std::string& series);
bool isValidUtf8(const std::string& text);

}  // namespace opticsd::test
