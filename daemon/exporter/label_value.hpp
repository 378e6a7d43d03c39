#pragma once
// Label values must be valid UTF-8 in the exposition, but module identity
// strings come straight from EEPROM bytes or SNMP octet strings and can hold
// anything. This makes any byte string safe to use as a label value.

#include <cstddef>
#include <string>
#include <string_view>

namespace opticsd {

// Longest label value we export; a 64 KiB sysDescr must not bloat every scrape.
inline constexpr std::size_t kMaxLabelValueBytes = 256;

// Returns `raw` unchanged when it is printable, valid UTF-8 and short enough.
// Otherwise each byte that is not part of a valid UTF-8 sequence (RFC 3629:
// no overlongs, no surrogates, nothing above U+10FFFF), and each C0 control
// or DEL, becomes the four characters `\xHH`; each valid character that is
// invisible or changes text direction (U+202E, U+200B, C1, ...: see
// drivers/untrusted_text.hpp) becomes `\uXXXX`. The operator can still see
// what was there. The result is cut at
// kMaxLabelValueBytes on a character boundary. Pure, thread-safe.
std::string sanitizeLabelValue(std::string_view raw);

}  // namespace opticsd
