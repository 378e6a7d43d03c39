#include "drivers/snmp/oid.hpp"

#include <charconv>

namespace opticsd::snmp {

Result<Oid> Oid::parse(std::string_view text) {
  if (!text.empty() && text.front() == '.') text.remove_prefix(1);
  if (text.empty()) return fail("empty OID");
  std::vector<std::uint32_t> arcs;
  while (!text.empty()) {
    std::uint32_t arc = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), arc);
    if (ec != std::errc() || ptr == text.data()) return fail("malformed OID '" + std::string(text) + "'");
    arcs.push_back(arc);
    if (arcs.size() > kMaxOidArcs) return fail("OID longer than 128 arcs");
    text.remove_prefix(static_cast<std::size_t>(ptr - text.data()));
    if (text.empty()) break;
    if (text.front() != '.' || text.size() == 1) return fail("malformed OID: unexpected '" + std::string(text) + "'");
    text.remove_prefix(1);
  }
  return Oid(std::move(arcs));
}

std::string Oid::toString() const {
  std::string out;
  out.reserve(arcs_.size() * 4);
  for (std::size_t i = 0; i < arcs_.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(arcs_[i]);
  }
  return out;
}

bool Oid::startsWith(const Oid& prefix) const {
  if (prefix.arcs_.size() > arcs_.size()) return false;
  for (std::size_t i = 0; i < prefix.arcs_.size(); ++i) {
    if (arcs_[i] != prefix.arcs_[i]) return false;
  }
  return true;
}

Oid Oid::child(std::uint32_t arc) const {
  Oid out = *this;
  out.arcs_.push_back(arc);
  return out;
}

Oid Oid::concat(std::span<const std::uint32_t> tail) const {
  Oid out = *this;
  out.arcs_.insert(out.arcs_.end(), tail.begin(), tail.end());
  return out;
}

}  // namespace opticsd::snmp
