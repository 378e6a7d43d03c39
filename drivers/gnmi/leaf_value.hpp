#pragma once
// One leaf's value as a target sent it, reduced to what the mapping needs: a
// number, a text, a boolean or a list of numbers (a leaf-list such as an
// interface's physical channels). Built from a gNMI TypedValue by the
// notification decoder; kept free of protobuf so mapping tests need none.

#include <cstdint>
#include <string>
#include <vector>

namespace opticsd::gnmi {

struct LeafValue {
  // kCount: an unsigned integer kept exact (counters beyond 2^53).
  enum class Kind : unsigned char { kNumber, kCount, kText, kBool, kNumberList };
  Kind kind = Kind::kNumber;
  double number = 0;
  std::uint64_t count = 0;
  bool flag = false;
  std::string text;
  std::vector<double> numbers;

  static LeafValue ofNumber(double v) { return LeafValue{Kind::kNumber, v, 0, false, {}, {}}; }
  static LeafValue ofCount(std::uint64_t v) {
    return LeafValue{Kind::kCount, static_cast<double>(v), v, false, {}, {}};
  }
  static LeafValue ofText(std::string v) { return LeafValue{Kind::kText, 0, 0, false, std::move(v), {}}; }
  static LeafValue ofBool(bool v) { return LeafValue{Kind::kBool, 0, 0, v, {}, {}}; }
  static LeafValue ofNumbers(std::vector<double> v) {
    return LeafValue{Kind::kNumberList, 0, 0, false, {}, std::move(v)};
  }
};

}  // namespace opticsd::gnmi
