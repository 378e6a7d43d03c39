#include "drivers/gnmi/gnmi_path.hpp"

namespace opticsd::gnmi {

const std::string* PathElement::key(std::string_view key_name) const {
  for (const auto& [k, v] : keys) {
    if (k == key_name) return &v;
  }
  return nullptr;
}

bool sameNode(std::string_view a, std::string_view b) {
  const auto ca = a.find(':');
  const auto cb = b.find(':');
  if (ca == std::string_view::npos && cb == std::string_view::npos) return a == b;
  if (localName(a) != localName(b)) return false;
  return ca == std::string_view::npos || cb == std::string_view::npos || a.substr(0, ca) == b.substr(0, cb);
}

namespace {

void appendEscaped(std::string& out, std::string_view text, std::string_view special) {
  for (char c : text) {
    if (special.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
}

}  // namespace

std::string GnmiPath::toString() const {
  std::string out;
  if (!origin.empty()) out += origin + ":";
  if (elems.empty()) return out + "/";
  for (const auto& e : elems) {
    out += '/';
    appendEscaped(out, e.name, "/[]\\");
    for (const auto& [k, v] : e.keys) {
      out += '[';
      appendEscaped(out, k, "=]\\");
      out += '=';
      appendEscaped(out, v, "]\\");
      out += ']';
    }
  }
  return out;
}

Result<GnmiPath> parsePath(std::string_view text) {
  GnmiPath path;
  // An origin is a prefix before ":/" with no '/' or '[' in it.
  if (auto colon = text.find(":/");
      colon != std::string_view::npos && text.substr(0, colon).find_first_of("/[") == std::string_view::npos) {
    path.origin = std::string(text.substr(0, colon));
    text.remove_prefix(colon + 1);
  }
  std::size_t i = 0;
  const std::size_t n = text.size();
  auto at = [&](std::size_t pos) { return " at offset " + std::to_string(pos); };
  if (i < n && text[i] == '/') ++i;
  while (i < n) {
    PathElement elem;
    while (i < n && text[i] != '/' && text[i] != '[') {
      if (text[i] == ']') return fail("unexpected ']'" + at(i));
      if (text[i] == '\\' && i + 1 < n) ++i;
      elem.name += text[i++];
    }
    if (elem.name.empty()) return fail("empty path element" + at(i));
    while (i < n && text[i] == '[') {
      ++i;
      std::string key, value;
      while (i < n && text[i] != '=' && text[i] != ']') {
        if (text[i] == '\\' && i + 1 < n) ++i;
        key += text[i++];
      }
      if (i >= n || text[i] != '=') return fail("list key without '='" + at(i));
      if (key.empty()) return fail("empty list key name" + at(i));
      ++i;
      while (i < n && text[i] != ']') {
        if (text[i] == '\\' && i + 1 < n) ++i;
        value += text[i++];
      }
      if (i >= n) return fail("list key '" + key + "' without closing ']'" + at(i));
      ++i;
      elem.keys.emplace_back(std::move(key), std::move(value));
    }
    path.elems.push_back(std::move(elem));
    if (i < n) {
      if (text[i] != '/') return fail("expected '/' after ']'" + at(i));
      ++i;
      if (i == n) return fail("trailing '/'" + at(i));
    }
  }
  return path;
}

}  // namespace opticsd::gnmi
