#include "exposition.hpp"

#include <prometheus/text_serializer.h>

#include <boost/asio.hpp>
#include <sstream>

namespace opticsd::test {

std::string serialize(const std::vector<prometheus::MetricFamily>& families) {
  return prometheus::TextSerializer().Serialize(families);
}

std::vector<std::string> linesStartingWith(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  }
  return out;
}

std::string httpExchange(std::uint16_t port, const std::string& request) {
  namespace asio = boost::asio;
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  socket.connect({asio::ip::make_address("127.0.0.1"), port});
  boost::system::error_code ec;
  asio::write(socket, asio::buffer(request), ec);  // a server may answer and close before reading it all
  std::string raw;
  asio::read(socket, asio::dynamic_buffer(raw), ec);
  return raw;
}

HttpResponse parseResponse(const std::string& raw) {
  HttpResponse r;
  const auto head_end = raw.find("\r\n\r\n");
  if (head_end == std::string::npos) return r;
  r.headers = raw.substr(0, head_end);
  r.body = raw.substr(head_end + 4);
  if (r.headers.rfind("HTTP/1.", 0) == 0 && r.headers.size() > 12) r.status = std::stoi(r.headers.substr(9, 3));
  return r;
}

HttpResponse httpGet(std::uint16_t port, const std::string& path, const std::string& extra_headers) {
  // HTTP/1.0: the server closes when done.
  return parseResponse(httpExchange(port, "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n" + extra_headers + "\r\n"));
}

}  // namespace opticsd::test

namespace opticsd::test {

std::vector<std::pair<std::string, double>> parseSeries(const std::string& text) {
  std::vector<std::pair<std::string, double>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    if (space == std::string::npos) continue;
    out.emplace_back(line.substr(0, space), std::stod(line.substr(space + 1)));
  }
  return out;
}

std::optional<double> valueOf(const std::string& text, const std::string& series) {
  for (const auto& [name, value] : parseSeries(text)) {
    if (name == series) return value;
  }
  return std::nullopt;
}

bool isValidUtf8(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > text.size() || (n == 2 && b < 0xC2)) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

}  // namespace opticsd::test
