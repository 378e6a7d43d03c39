#include "drivers/snmp/varbind.hpp"

#include <limits>

namespace opticsd::snmp {

std::string_view toString(VarType type) {
  switch (type) {
    case VarType::kInteger: return "INTEGER";
    case VarType::kOctetString: return "OCTET STRING";
    case VarType::kObjectId: return "OBJECT IDENTIFIER";
    case VarType::kIpAddress: return "IpAddress";
    case VarType::kCounter32: return "Counter32";
    case VarType::kGauge32: return "Gauge32";
    case VarType::kTimeTicks: return "TimeTicks";
    case VarType::kCounter64: return "Counter64";
    case VarType::kOpaque: return "Opaque";
    case VarType::kNull: return "NULL";
    case VarType::kNoSuchObject: return "noSuchObject";
    case VarType::kNoSuchInstance: return "noSuchInstance";
    case VarType::kEndOfMibView: return "endOfMibView";
  }
  return "unknown";
}

std::optional<std::int64_t> Varbind::asInteger() const {
  switch (type) {
    case VarType::kInteger: return integer;
    case VarType::kCounter32:
    case VarType::kGauge32:
    case VarType::kTimeTicks:
    case VarType::kCounter64:
      if (unsigned_value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
      return static_cast<std::int64_t>(unsigned_value);
    default: return std::nullopt;
  }
}

std::optional<std::uint64_t> Varbind::asCounter() const {
  switch (type) {
    case VarType::kCounter32:
    case VarType::kGauge32:
    case VarType::kCounter64: return unsigned_value;
    case VarType::kInteger:
      if (integer < 0) return std::nullopt;
      return static_cast<std::uint64_t>(integer);
    default: return std::nullopt;
  }
}

std::optional<std::string> Varbind::asText() const {
  if (type != VarType::kOctetString) return std::nullopt;
  std::string out = text;
  while (!out.empty() && (out.back() == '\0' || out.back() == ' ')) out.pop_back();
  return out;
}

Varbind Varbind::integerValue(Oid oid, std::int64_t v) {
  Varbind vb;
  vb.oid = std::move(oid);
  vb.type = VarType::kInteger;
  vb.integer = v;
  return vb;
}

Varbind Varbind::unsignedValue(Oid oid, VarType type, std::uint64_t v) {
  Varbind vb;
  vb.oid = std::move(oid);
  vb.type = type;
  vb.unsigned_value = v;
  return vb;
}

Varbind Varbind::textValue(Oid oid, std::string v) {
  Varbind vb;
  vb.oid = std::move(oid);
  vb.type = VarType::kOctetString;
  vb.text = std::move(v);
  return vb;
}

Varbind Varbind::oidValue(Oid oid, Oid v) {
  Varbind vb;
  vb.oid = std::move(oid);
  vb.type = VarType::kObjectId;
  vb.oid_value = std::move(v);
  return vb;
}

}  // namespace opticsd::snmp
