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

// `fec_hist=LOW-HIGH:COUNT[:LANE/LANE/...],...`: COUNT `-` when only lanes count.
bool parseHistogram(std::string_view text, std::vector<FecHistogramBin>& out) {
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto dash = item.find('-');
    const auto colon = item.find(':');
    if (dash == std::string_view::npos || colon == std::string_view::npos || dash > colon) return false;
    auto low = toU64(item.substr(0, dash));
    auto high = toU64(item.substr(dash + 1, colon - dash - 1));
    if (!low || !high || *low > *high || *high > 0xFFFF) return false;
    FecHistogramBin bin;
    bin.low = static_cast<std::uint16_t>(*low);
    bin.high = static_cast<std::uint16_t>(*high);
    std::string_view counts = item.substr(colon + 1);
    const auto lanes_at = counts.find(':');
    const std::string_view total = counts.substr(0, lanes_at);
    if (total != "-") {
      bin.codewords_total = toU64(total);
      if (!bin.codewords_total) return false;
    }
    if (lanes_at != std::string_view::npos) {
      std::string_view lanes = counts.substr(lanes_at + 1);
      while (true) {
        const auto slash = lanes.find('/');
        auto lane = toU64(lanes.substr(0, slash));
        if (!lane) return false;
        bin.lane_codewords_total.push_back(*lane);
        if (slash == std::string_view::npos) break;
        lanes.remove_prefix(slash + 1);
      }
      if (bin.lane_codewords_total.size() > 64) return false;
    }
    if (!bin.codewords_total && bin.lane_codewords_total.empty()) return false;
    out.push_back(std::move(bin));
    if (out.size() > 64) return false;
  }
  return !out.empty();
}

// `STATE[.SUBSTATE]`, the kernel's numbers (drivers/link_down_reason.hpp).
std::optional<LinkDownReason> parseReason(std::string_view text) {
  const auto dot = text.find('.');
  auto state = toU64(text.substr(0, dot));
  if (!state || *state > 0xFF) return std::nullopt;
  LinkDownReason reason{static_cast<std::uint8_t>(*state), std::nullopt};
  if (dot != std::string_view::npos) {
    auto sub = toU64(text.substr(dot + 1));
    if (!sub || *sub == 0 || *sub > 0xFF) return std::nullopt;
    reason.substate = static_cast<std::uint8_t>(*sub);
  }
  return reason;
}

std::string reasonText(const LinkDownReason& r) {
  return std::to_string(r.state) + (r.substate ? "." + std::to_string(*r.substate) : "");
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
      } else if (key == "fec_hist") {
        if (!step.fec.histogram.empty() || !parseHistogram(value, step.fec.histogram)) return bad();
      } else if (key == "fec_correctable_symbols") {
        auto parsed = toU64(value);
        if (!parsed || *parsed == 0 || *parsed > 0xFFFF) return bad();
        step.fec.correctable_symbols = static_cast<std::uint16_t>(*parsed);
      } else if (key == "down_reason" || key == "last_down_reason") {
        auto parsed = parseReason(value);
        if (!parsed) return bad();
        (key == "down_reason" ? step.link.down_reason : step.link.last_down_reason) = parsed;
      } else if (key == "busy") {
        if (value != "0" && value != "1") return bad();
        step.busy = value == "1";
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

std::string formatFecStep(const FecCounters& fec, const LinkState& link, bool busy) {
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
  if (!fec.histogram.empty()) {
    std::string bins;
    for (const auto& bin : fec.histogram) {
      if (!bins.empty()) bins += ',';
      bins += std::to_string(bin.low) + "-" + std::to_string(bin.high) + ":" +
              (bin.codewords_total ? std::to_string(*bin.codewords_total) : "-");
      for (std::size_t l = 0; l < bin.lane_codewords_total.size(); ++l) {
        bins += (l == 0 ? ":" : "/") + std::to_string(bin.lane_codewords_total[l]);
      }
    }
    put("fec_hist", bins);
  }
  if (fec.correctable_symbols) put("fec_correctable_symbols", std::to_string(*fec.correctable_symbols));
  if (link.speed_gbps) put("speed_gbps", number(*link.speed_gbps));
  if (link.lanes) put("lanes", std::to_string(*link.lanes));
  if (link.lane_line_rate_gbps) put("lane_line_rate_gbps", number(*link.lane_line_rate_gbps));
  if (link.up) put("up", *link.up ? "1" : "0");
  if (link.down_events_total) put("down_events", std::to_string(*link.down_events_total));
  if (link.down_reason) put("down_reason", reasonText(*link.down_reason));
  if (link.last_down_reason) put("last_down_reason", reasonText(*link.last_down_reason));
  if (busy) put("busy", "1");
  return line;
}

}  // namespace opticsd::replay
