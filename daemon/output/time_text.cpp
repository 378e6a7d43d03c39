#include "daemon/output/time_text.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>

#include "drivers/options/duration.hpp"

namespace opticsd {
namespace {

// Reads exactly `digits` decimal digits at `pos`.
bool readNumber(std::string_view text, std::size_t& pos, int digits, int& out) {
  if (pos + static_cast<std::size_t>(digits) > text.size()) return false;
  out = 0;
  for (int i = 0; i < digits; ++i) {
    const char c = text[pos++];
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

bool expect(std::string_view text, std::size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

std::string formatRfc3339Ms(std::int64_t unix_ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> t{milliseconds(unix_ms)};
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<milliseconds> hms{t - day};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()), static_cast<int>(hms.subseconds().count()));
  return buf;
}

Result<std::int64_t> parseRfc3339(std::string_view text) {
  using namespace std::chrono;
  const auto bad = [&] {
    return fail("invalid time '" + std::string(text) +
                "' (expected RFC 3339 like 2024-05-01T12:00:00Z, or a duration like 1h)");
  };
  std::size_t pos = 0;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (!readNumber(text, pos, 4, y) || !expect(text, pos, '-') || !readNumber(text, pos, 2, mo) ||
      !expect(text, pos, '-') || !readNumber(text, pos, 2, d)) {
    return bad();
  }
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ')) return bad();
  ++pos;
  if (!readNumber(text, pos, 2, h) || !expect(text, pos, ':') || !readNumber(text, pos, 2, mi) ||
      !expect(text, pos, ':') || !readNumber(text, pos, 2, s)) {
    return bad();
  }
  std::int64_t ms = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
      if (digits < 3) ms = ms * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return bad();
    for (int i = digits; i < 3; ++i) ms *= 10;
  }
  std::int64_t offset_minutes = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int oh = 0, om = 0;
    if (!readNumber(text, pos, 2, oh) || !expect(text, pos, ':') || !readNumber(text, pos, 2, om) || oh > 23 ||
        om > 59) {
      return bad();
    }
    offset_minutes = sign * (oh * 60 + om);
  } else {
    return bad();  // a time without a zone is ambiguous
  }
  if (pos != text.size()) return bad();
  const year_month_day ymd{year(y), month(static_cast<unsigned>(mo)), day(static_cast<unsigned>(d))};
  if (!ymd.ok() || h > 23 || mi > 59 || s > 60) return bad();
  const auto t = sys_days(ymd) + hours(h) + minutes(mi) + seconds(s) + milliseconds(ms) - minutes(offset_minutes);
  return duration_cast<milliseconds>(t.time_since_epoch()).count();
}

Result<std::int64_t> parseTimeBound(std::string_view text, std::int64_t now_ms) {
  if (text == "now") return now_ms;
  if (text.size() >= 10 && text[4] == '-') return parseRfc3339(text);
  auto d = parseDuration(text);
  if (!d) {
    return fail("invalid time '" + std::string(text) +
                "' (expected RFC 3339 like 2024-05-01T12:00:00Z, a duration back from now like 1h or 30m, or now)");
  }
  return now_ms - d->count();
}

}  // namespace opticsd
