#include "tests/support/snmp/snmprec.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

namespace opticsd::snmp {
namespace {

template <typename T>
bool parseNumber(std::string_view text, T& out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

Result<std::string> fromHex(std::string_view hex) {
  std::string out;
  std::string digits;
  for (char c : hex) {
    if (c != ' ' && c != ':') digits += c;
  }
  if (digits.size() % 2) return fail("odd number of hex digits");
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    unsigned v = 0;
    auto [ptr, ec] = std::from_chars(digits.data() + i, digits.data() + i + 2, v, 16);
    if (ec != std::errc() || ptr != digits.data() + i + 2) return fail("bad hex digit");
    out += static_cast<char>(v);
  }
  return out;
}

}  // namespace

Result<std::vector<Varbind>> parseSnmprec(std::string_view text) {
  std::vector<Varbind> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    auto bar1 = line.find('|');
    auto bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
    if (bar2 == std::string_view::npos) return fail("line " + std::to_string(line_no) + ": expected OID|TAG|VALUE");
    auto oid = Oid::parse(line.substr(0, bar1));
    if (!oid) return fail("line " + std::to_string(line_no) + ": " + oid.error().message);
    std::string_view tag = line.substr(bar1 + 1, bar2 - bar1 - 1);
    std::string_view value = line.substr(bar2 + 1);
    Varbind vb;
    vb.oid = std::move(*oid);
    bool ok = true;
    if (tag == "2") {
      vb.type = VarType::kInteger;
      ok = parseNumber(value, vb.integer);
    } else if (tag == "4" || tag == "4x") {
      vb.type = VarType::kOctetString;
      if (tag == "4x") {
        auto bytes = fromHex(value);
        ok = bool(bytes);
        if (ok) vb.text = *bytes;
      } else {
        vb.text = std::string(value);
      }
    } else if (tag == "5") {
      vb.type = VarType::kNull;
    } else if (tag == "6") {
      vb.type = VarType::kObjectId;
      auto v = Oid::parse(value);
      ok = bool(v);
      if (ok) vb.oid_value = std::move(*v);
    } else if (tag == "64") {
      vb.type = VarType::kIpAddress;
      vb.text = std::string(value);
    } else if (tag == "65" || tag == "66" || tag == "67" || tag == "70") {
      vb.type = tag == "65"   ? VarType::kCounter32
                : tag == "66" ? VarType::kGauge32
                : tag == "67" ? VarType::kTimeTicks
                              : VarType::kCounter64;
      ok = parseNumber(value, vb.unsigned_value);
    } else {
      continue;  // tags opticsd never reads (Opaque, variation modules)
    }
    if (!ok) return fail("line " + std::to_string(line_no) + ": bad value for tag " + std::string(tag));
    out.push_back(std::move(vb));
  }
  return out;
}

Result<std::vector<Varbind>> readSnmprecFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = parseSnmprec(text.str());
  if (!parsed) return fail(path + ": " + parsed.error().message);
  return parsed;
}

}  // namespace opticsd::snmp
