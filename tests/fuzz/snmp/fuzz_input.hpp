#pragma once
// Turns fuzzer bytes into a set of varbinds: OIDs mostly under the tables the
// shipped profiles read (so the decoder's row logic is reached), arbitrary
// types, values and index arcs.

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "drivers/snmp/varbind.hpp"

namespace opticsd::snmp::fuzz {

class Bytes {
 public:
  explicit Bytes(std::span<const std::uint8_t> data) : data_(data) {}
  bool empty() const { return pos_ >= data_.size(); }
  std::uint8_t u8() { return empty() ? 0 : data_[pos_++]; }
  std::uint64_t u64(std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | u8();
    return v;
  }
  std::string text(std::size_t max) {
    std::size_t n = std::min<std::size_t>(u8() % (max + 1), data_.size() - std::min(pos_, data_.size()));
    std::string out(reinterpret_cast<const char*>(data_.data()) + pos_, n);
    pos_ += n;
    return out;
  }

 private:
  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
};

// Table entries of the shipped profiles and the standard MIBs the decoder reads.
inline const std::vector<Oid>& tablePrefixes() {
  static const std::vector<Oid> prefixes = {
      {1, 3, 6, 1, 2, 1, 99, 1, 1, 1},              // entPhySensorEntry (RFC 3433)
      {1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1},           // entPhysicalEntry
      {1, 3, 6, 1, 2, 1, 47, 1, 3, 2, 1, 2},        // entAliasMappingIdentifier
      {1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 1},           // ifName
      {1, 3, 6, 1, 2, 1, 2, 2, 1},                  // ifEntry
      {1, 3, 6, 1, 4, 1, 30065, 3, 12, 1, 1, 1},    // aristaEntSensorThresholdEntry
      {1, 3, 6, 1, 4, 1, 30065, 3, 37, 1, 1},       // aristaPhyIntfEntry
      {1, 3, 6, 1, 4, 1, 9, 9, 91, 1, 1, 1, 1},     // entSensorValueEntry (CISCO)
      {1, 3, 6, 1, 4, 1, 9, 9, 91, 1, 2, 1, 1},     // entSensorThresholdEntry (CISCO)
      {1, 3, 6, 1, 4, 1, 2636, 3, 60, 1, 1, 1, 1},  // jnxDomCurrentEntry
      {1, 3, 6, 1, 4, 1, 2636, 3, 60, 1, 2, 1, 1},  // jnxDomModuleLaneEntry
      {1, 0, 8802, 1, 1, 2, 1, 4, 1, 1},            // lldpRemEntry
      {1, 3, 6, 1, 2, 1, 1},                        // system
  };
  return prefixes;
}

inline Varbind nextVarbind(Bytes& in) {
  Varbind vb;
  const auto& prefixes = tablePrefixes();
  std::uint8_t pick = in.u8();
  std::vector<std::uint32_t> arcs;
  if (pick < 0xF0) arcs = prefixes[pick % prefixes.size()].arcs();
  std::size_t extra = in.u8() % 6;
  for (std::size_t i = 0; i < extra; ++i) {
    std::uint8_t kind = in.u8();
    // Mostly small column numbers and Arista-style entity indexes; sometimes anything.
    arcs.push_back(kind < 0x80   ? kind % 16
                   : kind < 0xC0 ? 100300000u + static_cast<std::uint32_t>(in.u64(2))
                                 : static_cast<std::uint32_t>(in.u64(4)));
  }
  if (arcs.size() > kMaxOidArcs) arcs.resize(kMaxOidArcs);
  vb.oid = Oid(std::move(arcs));
  switch (in.u8() % 13) {
    case 0:
    case 1:
    case 2:
      vb.type = VarType::kInteger;
      vb.integer = static_cast<std::int32_t>(in.u64(4));
      break;
    case 3:
    case 4:
      vb.type = VarType::kOctetString;
      vb.text = in.text(48);
      break;
    case 5:
      vb.type = VarType::kObjectId;
      vb.oid_value = Oid({1, 3, 6, 1, 4, 1, 30065, static_cast<std::uint32_t>(in.u8())});
      break;
    case 6:
      vb.type = VarType::kCounter32;
      vb.unsigned_value = in.u64(4);
      break;
    case 7:
      vb.type = VarType::kGauge32;
      vb.unsigned_value = in.u64(4);
      break;
    case 8:
      vb.type = VarType::kCounter64;
      vb.unsigned_value = in.u64(8);
      break;
    case 9:
      vb.type = VarType::kTimeTicks;
      vb.unsigned_value = in.u64(4);
      break;
    case 10:
      vb.type = VarType::kIpAddress;
      vb.text = in.text(15);
      break;
    case 11:
      vb.type = VarType::kOpaque;
      vb.text = in.text(8);
      break;
    default:
      vb.type = static_cast<VarType>(static_cast<std::uint8_t>(VarType::kNull) + in.u8() % 4);
      break;
  }
  return vb;
}

inline std::vector<Varbind> varbindsFrom(std::span<const std::uint8_t> data, std::size_t max = 512) {
  Bytes in(data);
  std::vector<Varbind> out;
  while (!in.empty() && out.size() < max) out.push_back(nextVarbind(in));
  return out;
}

}  // namespace opticsd::snmp::fuzz
