#pragma once
// A remote-write 1.0 WriteRequest (schemas/remote-write/remote_write.proto)
// written straight into its protobuf wire bytes, one series at a time: no
// message objects and no allocation per label, which were most of the cost of
// building the generated messages (tests/bench/remote_write). The bytes are
// what the generated code serializes for the same request (proto3: a zero
// value or timestamp and an empty string are left out), so any receiver's
// parser reads them.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace opticsd {

using WireLabel = std::pair<std::string_view, std::string_view>;  // name, value

class WriteRequestWire {
 public:
  // One TimeSeries with one Sample; `labels` in the order they go out
  // (sorted by name, as the protocol requires).
  void addSeries(std::span<const WireLabel> labels, double value, std::int64_t timestamp_ms);

  std::uint64_t series() const { return series_; }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
  std::uint64_t series_ = 0;
};

}  // namespace opticsd
