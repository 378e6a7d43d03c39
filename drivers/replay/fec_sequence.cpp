#include "drivers/replay/fec_sequence.hpp"

#include <charconv>
#include <cstdint>
#include <cstdio>

namespace opticsd::replay {
namespace {

std::optional<std::uint64_t> toU64(std::string_view text) {
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> toDouble(std::string_view text) {
  double value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty() || !(value >= 0) || value > 1e7) return std::nullopt;
  return value;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.10g", value);
  return text;
}

}  // namespace

Result<std::vector<FecStep>> parseFecSequence(std::string_view text) {
  std::vector<FecStep> steps;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    ++line_number;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    FecStep step;
    bool any = false;
    while (!line.empty()) {
      const auto start = line.find_first_not_of(" \t\r");
      if (start == std::string_view::npos) break;
      line.remove_prefix(start);
      const auto end = line.find_first_of(" \t\r");
      const std::string_view token = line.substr(0, end);
      line = end == std::string_view::npos ? std::string_view{} : line.substr(end);
      const auto eq = token.find('=');
      const auto where = "line " + std::to_string(line_number) + ": ";
      if (eq == std::string_view::npos) return fail(where + "expected key=value, got '" + std::string(token) + "'");
      const auto key = token.substr(0, eq);
      const auto value = token.substr(eq + 1);
      auto bad = [&] { return fail(where + "bad value for " + std::string(key) + ": '" + std::string(value) + "'"); };
      any = true;
      if (key == "corrected_bits" || key == "corrected_blocks" || key == "uncorrectable_blocks" ||
          key == "bits_per_block" || key == "down_events") {
        auto parsed = toU64(value);
        if (!parsed) return bad();
        if (key == "corrected_bits") step.fec.corrected_bits_total = parsed;
        if (key == "corrected_blocks") step.fec.corrected_blocks_total = parsed;
        if (key == "uncorrectable_blocks") step.fec.uncorrectable_blocks_total = parsed;
        if (key == "bits_per_block") step.fec.bits_per_block = parsed;
        if (key == "down_events") step.link.down_events_total = parsed;
      } else if (key == "lane_corrected_bits") {
        std::string_view rest = value;
        while (true) {
          const auto comma = rest.find(',');
          const auto item = rest.substr(0, comma);
          if (item == "-") {
            step.fec.lane_corrected_bits_total.emplace_back();
          } else if (auto parsed = toU64(item)) {
            step.fec.lane_corrected_bits_total.emplace_back(*parsed);
          } else {
            return bad();
          }
          if (comma == std::string_view::npos) break;
          rest.remove_prefix(comma + 1);
        }
        if (step.fec.lane_corrected_bits_total.size() > 64) return bad();
      } else if (key == "speed_gbps" || key == "lane_line_rate_gbps") {
        auto parsed = toDouble(value);
        if (!parsed || *parsed == 0) return bad();
        (key == "speed_gbps" ? step.link.speed_gbps : step.link.lane_line_rate_gbps) = parsed;
      } else if (key == "lanes") {
        auto parsed = toU64(value);
        if (!parsed || *parsed == 0 || *parsed > 64) return bad();
        step.link.lanes = static_cast<std::uint16_t>(*parsed);
      } else if (key == "time_ms") {
        auto parsed = toU64(value);
        if (!parsed || *parsed > static_cast<std::uint64_t>(INT64_MAX)) return bad();
        if (!steps.empty() && steps.back().time_ms && static_cast<std::int64_t>(*parsed) < *steps.back().time_ms) {
          return fail(where + "time_ms " + std::string(value) + " is before the previous step's");
        }
        step.time_ms = static_cast<std::int64_t>(*parsed);
      } else if (key == "up") {
        if (value != "0" && value != "1") return bad();
        step.link.up = value == "1";
      } else {
        return fail(where + "unknown key '" + std::string(key) + "'");
      }
    }
    if (any) steps.push_back(std::move(step));
  }
  return steps;
}

std::string formatFecStep(const FecCounters& fec, const LinkState& link) {
  std::string line;
  auto put = [&](std::string_view key, const std::string& value) {
    if (!line.empty()) line += ' ';
    line += key;
    line += '=';
    line += value;
  };
  if (fec.corrected_bits_total) put("corrected_bits", std::to_string(*fec.corrected_bits_total));
  if (fec.corrected_blocks_total) put("corrected_blocks", std::to_string(*fec.corrected_blocks_total));
  if (fec.uncorrectable_blocks_total) put("uncorrectable_blocks", std::to_string(*fec.uncorrectable_blocks_total));
  if (!fec.lane_corrected_bits_total.empty()) {
    std::string lanes;
    for (const auto& lane : fec.lane_corrected_bits_total) {
      if (!lanes.empty()) lanes += ',';
      lanes += lane ? std::to_string(*lane) : "-";
    }
    put("lane_corrected_bits", lanes);
  }
  if (fec.bits_per_block) put("bits_per_block", std::to_string(*fec.bits_per_block));
  if (link.speed_gbps) put("speed_gbps", number(*link.speed_gbps));
  if (link.lanes) put("lanes", std::to_string(*link.lanes));
  if (link.lane_line_rate_gbps) put("lane_line_rate_gbps", number(*link.lane_line_rate_gbps));
  if (link.up) put("up", *link.up ? "1" : "0");
  if (link.down_events_total) put("down_events", std::to_string(*link.down_events_total));
  return line;
}

}  // namespace opticsd::replay
