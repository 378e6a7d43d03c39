#include "drivers/eeprom/dump_file.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string_view>
#include <tuple>

#include "drivers/eeprom/sff8024.hpp"

namespace opticsd::eeprom {
namespace {

constexpr std::string_view kMagic = "# opticsd module dump v1";

// ethtool `hex on` prints a linear image of at most ETH_MODULE_SFF_8636_MAX_LEN
// (640) bytes: A0h+A2h for SFF-8472, lower memory + pages 00h-03h otherwise.
// (Netlink `hex on` prints one page with window offsets 0x00-0xff.) An offset
// past 0x27f is therefore not ethtool output, and which page it would be is a
// guess: rejected rather than misplaced.
constexpr std::size_t kEthtoolLinearMax = 640;
// Bare hex and raw binary dumps may hold a longer linear image (CMIS pages up to FFh).
constexpr std::size_t kLinearMax = 256 + 255 * kPageSize;

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string_view stripComment(std::string_view line) {
  const auto hash = line.find('#');
  return trim(hash == std::string_view::npos ? line : line.substr(0, hash));
}

// Parses a hex number ("0x1f", "1f"); nullopt when not one.
std::optional<unsigned> parseHex(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.size() > 6) return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    const int d = hexDigit(c);
    if (d < 0) return std::nullopt;
    v = v * 16 + static_cast<unsigned>(d);
  }
  return v;
}

std::optional<unsigned> parseNumber(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return parseHex(s);
  if (s.empty() || s.size() > 6) return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

bool isText(std::span<const std::uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(),
                     [](std::uint8_t c) { return c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7f); });
}

std::string lineNote(std::size_t line, std::string_view what) {
  return "line " + std::to_string(line) + ": " + std::string(what);
}

// Splits text into lines, calling f(line_number, line).
template <typename F>
bool forEachLine(std::string_view text, F&& f) {
  std::size_t number = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    ++number;
    if (!f(number, line)) return false;
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return true;
}

// Places a linear dump (ethtool's legacy layout) into memory.
void placeLinear(const std::vector<std::uint8_t>& data, const std::vector<bool>& have, DumpParse& out) {
  if (data.empty() || !have[0]) {
    out.notes.emplace_back("byte 0 (identifier) missing: layout assumed SFF-8636/CMIS");
  }
  const std::uint8_t identifier = data.empty() ? 0 : data[0];
  const bool sfp = familyFromIdentifier(identifier) == ModuleFamily::kSff8472;
  auto writeRun = [&](std::size_t from, std::size_t to, std::uint8_t i2c, std::uint8_t page, std::size_t window) {
    // Writes only the bytes that were present, in contiguous runs.
    std::size_t i = from;
    while (i < to) {
      if (!have[i]) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < to && have[j]) ++j;
      out.memory.write(i2c, 0, page, window + (i - from), std::span<const std::uint8_t>(data.data() + i, j - i));
      i = j;
    }
  };
  const std::size_t n = data.size();
  if (sfp) {
    writeRun(0, std::min<std::size_t>(n, 256), kI2cAddressA0, 0, 0);
    if (n > 256) writeRun(256, std::min<std::size_t>(n, 512), kI2cAddressA2, 0, 0);
    if (n > 512) out.notes.emplace_back("bytes past 512 ignored (SFF-8472 has A0h and A2h only)");
    if (n < 512) out.notes.emplace_back("dump shorter than 512 bytes: A2h diagnostics incomplete or missing");
    return;
  }
  writeRun(0, std::min<std::size_t>(n, 256), kI2cAddressA0, 0, 0);
  for (std::size_t start = 256, page = 1; start < n && page < 256; start += 128, ++page) {
    writeRun(start, std::min(n, start + 128), kI2cAddressA0, static_cast<std::uint8_t>(page), 128);
  }
  if (n > kLinearMax) out.notes.emplace_back("bytes past upper page FFh (linear offset 0x8000) ignored");
  if (n % 128 != 0) out.notes.emplace_back("dump length is not a multiple of 128: last page truncated");
}

// "[i2c=0x50 bank=0 page=0x11]" (line starts with '['): the section's address.
Result<PageKey> parsePageHeader(std::size_t number, std::string_view line) {
  if (line.back() != ']') return fail(lineNote(number, "page header must end with ']'"));
  PageKey key;
  bool seen_page = false;
  std::string_view body = line.substr(1, line.size() - 2);
  while (!(body = trim(body)).empty()) {
    const auto space = body.find_first_of(" \t");
    const std::string_view item = body.substr(0, space);
    body = space == std::string_view::npos ? std::string_view{} : body.substr(space);
    const auto eq = item.find('=');
    const auto value = eq == std::string_view::npos ? std::nullopt : parseNumber(item.substr(eq + 1));
    const std::string_view name = item.substr(0, eq);
    if (!value || *value > 255) {
      return fail(lineNote(number, "page header items are i2c=N bank=N page=N (numbers 0-255)"));
    }
    if (name == "i2c") {
      key.i2c_address = static_cast<std::uint8_t>(*value);
    } else if (name == "bank") {
      key.bank = static_cast<std::uint8_t>(*value);
    } else if (name == "page") {
      key.page = static_cast<std::uint8_t>(*value);
      seen_page = true;
    } else {
      return fail(lineNote(number, "unknown page header item '" + std::string(name) + "'"));
    }
  }
  if (!seen_page) return fail(lineNote(number, "page header needs page=N"));
  return key;
}

// "0x80: 11 22 -- ..." in the section `page`: its bytes go into memory ("--"
// was never read), a line of other than 16 bytes is noted.
Result<void> parseDataLine(std::size_t number, std::string_view line, const PageKey& page, DumpParse& out) {
  const auto colon = line.find(':');
  const auto offset = colon == std::string_view::npos ? std::nullopt : parseHex(trim(line.substr(0, colon)));
  if (!offset || *offset > 255) {
    return fail(lineNote(number, "data line must start with a window offset 0x00-0xff and ':'"));
  }
  std::string_view rest = line.substr(colon + 1);
  std::size_t at = *offset;
  std::size_t count = 0;
  // Bytes are collected into runs and written once per run (one page lookup each).
  std::uint8_t run[256];
  std::size_t run_start = at;
  std::size_t run_length = 0;
  auto flush = [&] {
    if (run_length > 0) {
      out.memory.write(page.i2c_address, page.bank, page.page, run_start,
                       std::span<const std::uint8_t>(run, run_length));
    }
    run_length = 0;
  };
  while (!(rest = trim(rest)).empty()) {
    const auto space = rest.find_first_of(" \t");
    const std::string_view token = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space);
    if (at > 255) return fail(lineNote(number, "bytes run past window offset 0xff"));
    if (token != "--") {
      const auto v = token.size() == 2 ? parseHex(token) : std::nullopt;
      if (!v) return fail(lineNote(number, "byte '" + std::string(token) + "' is not two hex digits or --"));
      if (run_length == 0) run_start = at;
      run[run_length++] = static_cast<std::uint8_t>(*v);
    } else {
      flush();
    }
    ++at;
    ++count;
  }
  flush();
  if (count != 16) out.notes.push_back(lineNote(number, "short line (" + std::to_string(count) + " bytes)"));
  return {};
}

Result<DumpParse> parsePageDump(std::string_view text) {
  DumpParse out;
  out.format = "page-dump";
  std::optional<PageKey> current;  // i2c, bank, page of the section being read
  std::string error;
  const bool ok = forEachLine(text, [&](std::size_t number, std::string_view raw) {
    const std::string_view line = stripComment(raw);
    if (line.empty()) return true;
    if (line.front() == '[') {
      auto key = parsePageHeader(number, line);
      if (!key) {
        error = key.error().message;
        return false;
      }
      current = *key;
      return true;
    }
    if (!current) {
      error = lineNote(number, "data before the first [i2c=.. bank=.. page=..] header");
      return false;
    }
    if (auto data = parseDataLine(number, line, *current, out); !data) {
      error = data.error().message;
      return false;
    }
    return true;
  });
  if (!ok) return fail(error);
  if (out.memory.empty()) return fail("page dump holds no bytes");
  return out;
}

// ethtool `hex on` output ("0x0000:\t\t03 04 ...") or a bare hex string.
Result<DumpParse> parseHexText(std::string_view text, bool with_offsets) {
  DumpParse out;
  out.format = with_offsets ? "ethtool-hex" : "hex";
  std::vector<std::uint8_t> data;
  std::vector<bool> have;
  std::string error;
  std::size_t next = 0;
  const bool ok = forEachLine(text, [&](std::size_t number, std::string_view raw) {
    std::string_view line = stripComment(raw);
    if (line.empty() || line.starts_with("Offset") || line.starts_with("------")) return true;
    if (with_offsets) {
      const auto colon = line.find(':');
      const auto offset = colon == std::string_view::npos ? std::nullopt : parseHex(trim(line.substr(0, colon)));
      if (!offset) {
        error = lineNote(number, "expected 'OFFSET: bytes' as ethtool hex output prints it");
        return false;
      }
      if (*offset >= kEthtoolLinearMax) {
        char buf[128];
        std::snprintf(buf, sizeof buf,
                      "offset 0x%04x is past 0x027f, the end of the linear image ethtool prints; "
                      "use the page-addressed format for other pages",
                      *offset);
        error = lineNote(number, buf);
        return false;
      }
      if (*offset != next) out.notes.push_back(lineNote(number, "offset jumps; bytes in between are missing"));
      next = *offset;
      line = line.substr(colon + 1);
    }
    int high = -1;
    for (char c : line) {
      if (c == ' ' || c == '\t' || c == '\r') {
        if (with_offsets && high >= 0) {
          error = lineNote(number, "odd number of hex digits in a byte");
          return false;
        }
        continue;
      }
      const int d = hexDigit(c);
      if (d < 0) {
        error = lineNote(number, std::string("unexpected character '") + c + "'");
        return false;
      }
      if (high < 0) {
        high = d;
        continue;
      }
      if (with_offsets && next >= kEthtoolLinearMax) {
        error = lineNote(number, "bytes run past offset 0x027f, the end of the linear image ethtool prints");
        return false;
      }
      if (next >= 65536) {
        error = "dump larger than 64 KiB";
        return false;
      }
      if (data.size() <= next) {
        data.resize(next + 1, 0);
        have.resize(next + 1, false);
      }
      data[next] = static_cast<std::uint8_t>(high * 16 + d);
      have[next] = true;
      ++next;
      high = -1;
    }
    if (high >= 0) out.notes.push_back(lineNote(number, "trailing half byte ignored"));
    return true;
  });
  if (!ok) return fail(error);
  if (data.empty()) return fail("no bytes found in the dump");
  placeLinear(data, have, out);
  if (out.memory.empty()) return fail("no byte of the dump falls in an addressable page");
  return out;
}

bool looksLikePageDump(std::string_view text) {
  bool found = false;
  forEachLine(text, [&](std::size_t, std::string_view raw) {
    const std::string_view line = trim(raw);
    if (line.starts_with(kMagic) || line.starts_with("[i2c=") || line.starts_with("[page=")) {
      found = true;
      return false;
    }
    return true;
  });
  return found;
}

bool looksLikeEthtoolHex(std::string_view text) {
  bool found = false;
  forEachLine(text, [&](std::size_t, std::string_view raw) {
    const std::string_view line = stripComment(raw);
    if (line.empty() || line.starts_with("Offset") || line.starts_with("------")) return true;
    found = line.find(':') != std::string_view::npos;
    return false;
  });
  return found;
}

}  // namespace

Result<DumpParse> parseDumpFileDetailed(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return fail("empty dump");
  if (isText(bytes)) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (looksLikePageDump(text)) return parsePageDump(text);
    return parseHexText(text, looksLikeEthtoolHex(text));
  }
  DumpParse out;
  out.format = "raw";
  const std::size_t n = std::min<std::size_t>(bytes.size(), 65536);
  if (n < bytes.size()) out.notes.emplace_back("raw dump larger than 64 KiB: the rest ignored");
  std::vector<std::uint8_t> data(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<bool> have(n, true);
  placeLinear(data, have, out);
  return out;
}

Result<ModuleMemory> parseDumpFile(std::span<const std::uint8_t> bytes) {
  auto parsed = parseDumpFileDetailed(bytes);
  if (!parsed) return tl::unexpected(parsed.error());
  return std::move(parsed->memory);
}

std::string writePageDump(const ModuleMemory& memory) {
  // Sections sorted by (i2c, bank, page); lower memory goes with page 0 of bank 0.
  struct Section {
    std::uint8_t i2c, bank, page;
    bool operator<(const Section& o) const { return std::tie(i2c, bank, page) < std::tie(o.i2c, o.bank, o.page); }
    bool operator==(const Section& o) const { return i2c == o.i2c && bank == o.bank && page == o.page; }
  };
  std::vector<Section> sections;
  for (const auto& p : memory.pages()) sections.push_back({p.key.i2c_address, p.key.bank, p.key.page});
  std::sort(sections.begin(), sections.end());
  sections.erase(std::unique(sections.begin(), sections.end()), sections.end());

  std::string out(kMagic);
  out +=
      "\n# Page-addressed module memory (schemas/module-dump.md). Offsets are window offsets:\n"
      "# 0x00-0x7f lower memory, 0x80-0xff the upper page named in the header. -- = not read.\n";
  char buf[64];
  auto writeHalf = [&](const PageKey& key, std::size_t base) {
    const std::bitset<kPageSize>* valid = nullptr;
    const auto* bytes = memory.find(key, &valid);
    if (bytes == nullptr) return;
    for (std::size_t row = 0; row < kPageSize; row += 16) {
      bool any = false;
      for (std::size_t i = row; i < row + 16; ++i) any = any || valid->test(i);
      if (!any) continue;
      std::snprintf(buf, sizeof buf, "0x%02zx:", base + row);
      out += buf;
      for (std::size_t i = row; i < row + 16; ++i) {
        if (valid->test(i)) {
          std::snprintf(buf, sizeof buf, " %02x", (*bytes)[i]);
          out += buf;
        } else {
          out += " --";
        }
      }
      out += '\n';
    }
  };
  for (const auto& s : sections) {
    std::snprintf(buf, sizeof buf, "[i2c=0x%02x bank=%u page=0x%02x]\n", s.i2c, s.bank, s.page);
    out += buf;
    if (s.bank == 0 && s.page == 0) writeHalf(PageKey{s.i2c, 0, 0, false}, 0);
    writeHalf(PageKey{s.i2c, s.bank, s.page, true}, 128);
  }
  return out;
}

}  // namespace opticsd::eeprom
