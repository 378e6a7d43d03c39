#pragma once
// One variable binding as the session hands it to the profiles: a numeric
// OID and a typed value, independent of net-snmp's structures so that
// profiles and their tests never touch the C library.

#include <cstdint>
#include <optional>
#include <string>

#include "drivers/snmp/oid.hpp"

namespace opticsd::snmp {

// SMI types (RFC 2578) plus the SNMPv2 exceptions (RFC 3416 section 3).
enum class VarType : std::uint8_t {
  kInteger,
  kOctetString,
  kObjectId,
  kIpAddress,
  kCounter32,
  kGauge32,
  kTimeTicks,
  kCounter64,
  kOpaque,
  kNull,
  kNoSuchObject,
  kNoSuchInstance,
  kEndOfMibView,
};

std::string_view toString(VarType type);

struct Varbind {
  Oid oid;
  VarType type = VarType::kNull;
  std::int64_t integer = 0;  // kInteger (signed 32), Counter32/Gauge32/TimeTicks/Counter64 (unsigned, stored here too)
  std::uint64_t unsigned_value = 0;
  std::string text;  // kOctetString, kOpaque, kIpAddress (dotted)
  Oid oid_value;     // kObjectId

  bool isException() const {
    return type == VarType::kNoSuchObject || type == VarType::kNoSuchInstance || type == VarType::kEndOfMibView ||
           type == VarType::kNull;
  }
  // A signed integer from INTEGER/Integer32, or from an unsigned type that fits.
  std::optional<std::int64_t> asInteger() const;
  // An unsigned counter value from Counter32/Counter64/Gauge32 (or a non-negative INTEGER).
  std::optional<std::uint64_t> asCounter() const;
  // Text from an OCTET STRING: at most kMaxTextBytes, trailing NULs and
  // spaces trimmed, bytes that are not UTF-8 replaced by '?'.
  std::optional<std::string> asText() const;
  static constexpr std::size_t kMaxTextBytes = 255;

  static Varbind integerValue(Oid oid, std::int64_t v);
  static Varbind unsignedValue(Oid oid, VarType type, std::uint64_t v);
  static Varbind textValue(Oid oid, std::string v);
  static Varbind oidValue(Oid oid, Oid v);
};

}  // namespace opticsd::snmp
