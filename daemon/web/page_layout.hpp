#pragma once
// The frame every page shares: doctype, the embedded stylesheet (no other
// request is made), a header with the way back to the fleet, and the end.
// The CSS is a C++ string in the binary (page_style.cpp).

#include <cstdint>
#include <string>
#include <string_view>

namespace opticsd::web {

// The stylesheet, embedded.
std::string_view pageStyle();

// Appends the document's head and the top of its body; `title` is escaped.
void beginPage(std::string& out, std::string_view title);
void endPage(std::string& out);

// "3 min ago" / "in 2 h" for a time relative to now; "12 s ago".
std::string ageText(std::int64_t then_ms, std::int64_t now_ms);
// "2026-12-06 05:31:07 UTC".
std::string utcText(std::int64_t ms);

}  // namespace opticsd::web
