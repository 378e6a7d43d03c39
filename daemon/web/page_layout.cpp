#include "daemon/web/page_layout.hpp"

#include <cstdio>
#include <ctime>

#include "daemon/web/html_escape.hpp"

namespace opticsd::web {

void beginPage(std::string& out, std::string_view title) {
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<link rel=\"icon\" href=\"data:,\"><title>";
  appendEscaped(out, title);
  out += " · opticsd</title><style>";
  out += pageStyle();
  out +=
      "</style></head><body><header><a href=\"/\">opticsd</a><nav><a href=\"/\">Fleet</a>"
      "<a href=\"/triage\">Triage</a><a href=\"/metrics/self\">Self metrics</a></nav></header><main>";
}

void endPage(std::string& out) {
  out +=
      "<p class=\"muted\">Also as JSON: the same URL with <code>Accept: application/json</code>.</p>"
      "</main></body></html>\n";
}

std::string ageText(std::int64_t then_ms, std::int64_t now_ms) {
  const std::int64_t s = (now_ms - then_ms) / 1000;
  const std::int64_t a = s < 0 ? -s : s;
  std::string amount;
  if (a < 120) {
    amount = std::to_string(a) + " s";
  } else if (a < 7200) {
    amount = std::to_string(a / 60) + " min";
  } else if (a < 172800) {
    amount = std::to_string(a / 3600) + " h";
  } else {
    amount = std::to_string(a / 86400) + " d";
  }
  return s < 0 ? "in " + amount : amount + " ago";
}

std::string utcText(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

}  // namespace opticsd::web
