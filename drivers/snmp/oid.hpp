#pragma once
// A numeric SNMP object identifier. opticsd only ever handles numeric OIDs;
// names live in the profiles' comments, never in the runtime (the
// snmp_exporter habit).

#include <compare>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/result.hpp"

namespace opticsd::snmp {

class Oid {
 public:
  Oid() = default;
  explicit Oid(std::vector<std::uint32_t> arcs) : arcs_(std::move(arcs)) {}
  Oid(std::initializer_list<std::uint32_t> arcs) : arcs_(arcs) {}

  // "1.3.6.1.2.1" or ".1.3.6.1.2.1"; at most 128 arcs (RFC 2578 section 3.5).
  static Result<Oid> parse(std::string_view text);

  std::string toString() const;
  const std::vector<std::uint32_t>& arcs() const { return arcs_; }
  std::size_t size() const { return arcs_.size(); }
  bool empty() const { return arcs_.empty(); }
  std::uint32_t operator[](std::size_t i) const { return arcs_[i]; }

  // True when `this` is `prefix` or lies below it.
  bool startsWith(const Oid& prefix) const;
  // The arcs after `prefix` (callers check startsWith first).
  std::span<const std::uint32_t> suffix(const Oid& prefix) const {
    return std::span<const std::uint32_t>(arcs_).subspan(prefix.size());
  }
  Oid child(std::uint32_t arc) const;
  Oid concat(std::span<const std::uint32_t> tail) const;

  auto operator<=>(const Oid& other) const = default;
  bool operator==(const Oid& other) const = default;

 private:
  std::vector<std::uint32_t> arcs_;
};

inline constexpr std::size_t kMaxOidArcs = 128;

}  // namespace opticsd::snmp
