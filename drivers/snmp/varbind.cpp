#include "drivers/snmp/varbind.hpp"

#include <limits>

namespace opticsd::snmp {

std::string_view toString(VarType type) {
  switch (type) {
    case VarType::kInteger:
      return "INTEGER";
    case VarType::kOctetString:
      return "OCTET STRING";
    case VarType::kObjectId:
      return "OBJECT IDENTIFIER";
    case VarType::kIpAddress:
      return "IpAddress";
    case VarType::kCounter32:
      return "Counter32";
    case VarType::kGauge32:
      return "Gauge32";
    case VarType::kTimeTicks:
      return "TimeTicks";
    case VarType::kCounter64:
      return "Counter64";
    case VarType::kOpaque:
      return "Opaque";
    case VarType::kNull:
      return "NULL";
    case VarType::kNoSuchObject:
      return "noSuchObject";
    case VarType::kNoSuchInstance:
      return "noSuchInstance";
    case VarType::kEndOfMibView:
      return "endOfMibView";
  }
  return "unknown";
}

std::optional<std::int64_t> Varbind::asInteger() const {
  switch (type) {
    case VarType::kInteger:
      return integer;
    case VarType::kCounter32:
    case VarType::kGauge32:
    case VarType::kTimeTicks:
    case VarType::kCounter64:
      if (unsigned_value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
      return static_cast<std::int64_t>(unsigned_value);
    default:
      return std::nullopt;
  }
}

std::optional<std::uint64_t> Varbind::asCounter() const {
  switch (type) {
    case VarType::kCounter32:
    case VarType::kGauge32:
    case VarType::kCounter64:
      return unsigned_value;
    case VarType::kInteger:
      if (integer < 0) return std::nullopt;
      return static_cast<std::uint64_t>(integer);
    default:
      return std::nullopt;
  }
}

namespace {

// Replaces every byte that does not start a well-formed UTF-8 sequence
// (RFC 3629 section 4: no overlongs, no surrogates, at most U+10FFFF) with '?'.
void replaceInvalidUtf8(std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) {
      n = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    }
    bool ok = n > 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
      const unsigned char b = byte(i + k);
      ok = k == 1 ? (b >= lo && b <= hi) : (b & 0xC0) == 0x80;
    }
    if (!ok) {
      s[i] = '?';
      n = 1;
    }
    i += n;
  }
}

}  // namespace

std::optional<std::string> Varbind::asText() const {
  if (type != VarType::kOctetString) return std::nullopt;
  // DisplayString and SnmpAdminString are SIZE (0..255) (RFC 2579, RFC 3411):
  // longer text is an agent bug, and 64 KiB of it would reach std::regex
  // (whose backtracking recursion overflows the stack) and metric labels.
  std::string out = text.substr(0, kMaxTextBytes);
  while (!out.empty() && (out.back() == '\0' || out.back() == ' ')) out.pop_back();
  // Agents send Latin-1 and raw bytes; Samples carry UTF-8 only (JSON, labels).
  replaceInvalidUtf8(out);
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
