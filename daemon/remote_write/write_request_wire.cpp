#include "daemon/remote_write/write_request_wire.hpp"

#include <bit>

namespace opticsd {
namespace {

// Field keys: field number << 3 | wire type (0 varint, 1 fixed64, 2 length-delimited).
constexpr char kRequestTimeseries = (1 << 3) | 2;
constexpr char kSeriesLabels = (1 << 3) | 2;
constexpr char kSeriesSamples = (2 << 3) | 2;
constexpr char kLabelName = (1 << 3) | 2;
constexpr char kLabelValue = (2 << 3) | 2;
constexpr char kSampleValue = (1 << 3) | 1;
constexpr char kSampleTimestamp = (2 << 3) | 0;

std::size_t varintSize(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

void putVarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

std::size_t stringFieldSize(std::string_view s) { return s.empty() ? 0 : 1 + varintSize(s.size()) + s.size(); }

void putStringField(std::string& out, char key, std::string_view s) {
  if (s.empty()) return;
  out += key;
  putVarint(out, s.size());
  out += s;
}

std::size_t labelSize(const WireLabel& l) { return stringFieldSize(l.first) + stringFieldSize(l.second); }

}  // namespace

void WriteRequestWire::addSeries(std::span<const WireLabel> labels, double value, std::int64_t timestamp_ms) {
  const auto value_bits = std::bit_cast<std::uint64_t>(value);
  // int64 is a varint of its two's complement (10 bytes when negative).
  const auto timestamp_bits = static_cast<std::uint64_t>(timestamp_ms);
  const std::size_t sample_size =
      (value_bits != 0 ? 1 + 8 : 0) + (timestamp_bits != 0 ? 1 + varintSize(timestamp_bits) : 0);
  std::size_t series_size = 1 + varintSize(sample_size) + sample_size;
  for (const WireLabel& l : labels) {
    const std::size_t n = labelSize(l);
    series_size += 1 + varintSize(n) + n;
  }
  bytes_ += kRequestTimeseries;
  putVarint(bytes_, series_size);
  for (const WireLabel& l : labels) {
    bytes_ += kSeriesLabels;
    putVarint(bytes_, labelSize(l));
    putStringField(bytes_, kLabelName, l.first);
    putStringField(bytes_, kLabelValue, l.second);
  }
  bytes_ += kSeriesSamples;
  putVarint(bytes_, sample_size);
  if (value_bits != 0) {
    bytes_ += kSampleValue;
    char little_endian[8];
    for (int i = 0; i < 8; ++i) little_endian[i] = static_cast<char>((value_bits >> (8 * i)) & 0xff);
    bytes_.append(little_endian, sizeof little_endian);
  }
  if (timestamp_bits != 0) {
    bytes_ += kSampleTimestamp;
    putVarint(bytes_, timestamp_bits);
  }
  ++series_;
}

}  // namespace opticsd
