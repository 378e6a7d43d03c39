#pragma once
// Text that comes from the outside (SNMP octet strings, EEPROM bytes, LLDP
// names) ends up in metric labels, logs and terminals. Valid UTF-8 is not
// enough there: a right-to-left override (U+202E) or a zero-width space makes
// "leaf-7" display as something else on a dashboard or in `journalctl`
// ("Trojan Source", CVE-2021-42574). These are the shared checks; the
// exporter and the logger each escape in their own syntax.

#include <cstddef>
#include <string_view>

namespace opticsd {

// Length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no
// overlongs, no surrogates, nothing above U+10FFFF), or 0 when it is invalid.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i);

// The code point of a valid sequence of length n at s[i].
char32_t utf8CodePoint(std::string_view s, std::size_t i, std::size_t n);

// Code points that change how other text displays, or do not display at all:
// C0 controls and DEL, C1 controls, the bidirectional embeddings, overrides,
// isolates and marks, zero-width and invisible formatting characters, the
// line and paragraph separators, and the byte-order mark.
bool isHiddenOrControl(char32_t c);

}  // namespace opticsd
