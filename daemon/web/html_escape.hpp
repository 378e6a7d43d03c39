#pragma once
// Text from devices (vendor names, serials, port names, profile text, gNMI
// leaves) is untrusted: a switch can send `<script>`, quotes or control bytes.
// Everything a page shows goes through these; nothing is written raw.

#include <string>
#include <string_view>

namespace opticsd::web {

// Appends `text` safe inside an HTML element or a quoted attribute: & < > " '
// as entities; control characters and bytes that are not UTF-8 as visible
// "\xNN" text, so a hostile value reads as what it is.
void appendEscaped(std::string& out, std::string_view text);
std::string htmlEscape(std::string_view text);

// `text` percent-encoded for one query-string value (RFC 3986 unreserved kept).
std::string urlComponent(std::string_view text);

// The text with control characters and non-UTF-8 bytes made visible as
// "\xNN" (for a terminal: no escape sequence from a device reaches it).
std::string printable(std::string_view text);

}  // namespace opticsd::web
