#pragma once
// Turning a module's fixed-width ASCII fields into safe strings: padding is
// trimmed and any byte that is not printable ASCII is escaped as \xNN, so a
// corrupt or hostile EEPROM can never put control bytes into logs, labels or
// JSON. Writes into an existing string so a reused Sample keeps its capacity.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace opticsd::eeprom {

// out = value, skipping the copy when out already holds it (a reused Sample).
void setText(std::string& out, std::string_view value);

// Trims leading/trailing spaces and NULs, escapes the rest.
void assignText(std::string& out, const std::uint8_t* bytes, std::size_t length);

// Three OUI bytes as "00:1b:21".
void assignOui(std::string& out, const std::uint8_t* bytes);

// SFF-8472 / SFF-8636 / CMIS date code: 8 bytes YYMMDDLL (ASCII). Gives
// "20YY-MM-DD" when the first six are digits, otherwise the escaped text.
void assignDateCode(std::string& out, const std::uint8_t* bytes);

}  // namespace opticsd::eeprom
