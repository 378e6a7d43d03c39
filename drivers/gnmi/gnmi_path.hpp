#pragma once
// A gNMI path as opticsd handles it: element names with their list keys, in
// the string form of the gNMI path conventions ("/a/b[k=v]/c"). Pure: no
// protobuf here, so the mapping and its tests need no generated code.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "drivers/result.hpp"

namespace opticsd::gnmi {

struct PathElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> keys;  // in the order given

  // The value of list key `key`, or null when the element has no such key.
  const std::string* key(std::string_view key_name) const;
};

struct GnmiPath {
  std::string origin;  // "" or "openconfig", a NOS's native model name ...
  std::vector<PathElement> elems;

  // "/a/b[k=v]/c", with ']' '[' '\' '=' and '/' escaped as the convention says.
  std::string toString() const;
};

// An element name without its RFC 7951 module qualifier:
// "openconfig-platform:components" -> "components". YANG identifiers hold no
// ':', so what precedes the first one is the module (RFC 7951 section 4).
inline std::string_view localName(std::string_view name) {
  const auto colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

// Whether two element names are the same node as the gNMI path conventions
// and RFC 7951 compare them: the local names are equal and, where both carry
// a module qualifier, so are the modules (RFC 7951 qualifies the first element
// and each one whose module changes, so an unqualified name inherits).
bool sameNode(std::string_view a, std::string_view b);

// Parses "/a/b[k=v][k2=v2]/c" or "origin:/a/b". Key values may hold '/'
// and escaped "\]"; a missing ']' or '=' is an error naming the offset.
Result<GnmiPath> parsePath(std::string_view text);

}  // namespace opticsd::gnmi
