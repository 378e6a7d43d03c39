#include "daemon/web/story_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "daemon/web/html_escape.hpp"
#include "daemon/web/page_layout.hpp"
#include "daemon/web/svg_plot.hpp"

namespace opticsd::web {
namespace {

std::string num(const std::optional<double>& v, int digits, std::string_view unit) {
  if (!v) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f%s%s", digits, *v, unit.empty() ? "" : " ", std::string(unit).c_str());
  return buf;
}

std::string measured(const Measured& m, int digits, std::string_view unit) {
  std::string out = num(m.value, digits, unit);
  if (!m.state.empty() && m.state != "ok") out += " [" + m.state + "]";
  return out;
}

void line(std::string& out, std::string_view text) {
  out += text;
  out += '\n';
}

}  // namespace

std::string storyText(const OpticStory& s) {
  std::string out;
  line(out, printable(s.target) + " " + printable(s.port));
  line(out, std::string(s.target.size() + s.port.size() + 1, '='));
  line(out, "Suspect score " + num(s.score, 2, "") + (s.reason.empty() ? "" : ": " + printable(s.reason)));
  if (s.endpoint && !s.endpoint->empty()) line(out, "Behind it: " + printable(s.endpoint->describe()));
  if (!s.history_error.empty()) line(out, "History unavailable: " + printable(s.history_error));
  if (!s.history_warning.empty()) line(out, "History may be incomplete: " + printable(s.history_warning));
  if (s.sampled_ms) {
    line(out, std::string(s.live ? "Values" : "Last stored values") + " from " + utcText(*s.sampled_ms) + " (" +
                  ageText(*s.sampled_ms, s.now_ms) + ")" + (s.stale ? ", kept: the latest polls failed" : ""));
  }
  out += '\n';
  for (const auto& [label, v] : s.identity) line(out, "  " + label + ": " + printable(v));
  out += "\nLane  Rx power           Tx power           Tx bias          Pre-FEC BER\n";
  for (const auto& l : s.lanes) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-5d %-18s %-18s %-16s %s", l.lane, measured(l.rx_power_dbm, 2, "dBm").c_str(),
                  measured(l.tx_power_dbm, 2, "dBm").c_str(), measured(l.tx_bias_ma, 1, "mA").c_str(),
                  l.pre_fec_ber ? formatValue(*l.pre_fec_ber, true).c_str() : "-");
    line(out, buf);
    for (const auto* m : {&l.rx_power_dbm, &l.tx_power_dbm, &l.tx_bias_ma}) {
      if (!m->state.empty() && m->state != "ok") line(out, "      " + m->margin_text);
    }
  }
  line(out, "Module temperature " + measured(s.temperature_c, 1, "C") + ", supply " + measured(s.supply_v, 2, "V") +
                ", port pre-FEC BER " + (s.pre_fec_ber ? formatValue(*s.pre_fec_ber, true) : std::string("-")));
  // The FEC tail (highest codeword error bin that grew), where a histogram is read.
  std::string tail;
  auto symbols = [](const std::optional<double>& v) { return v ? std::to_string(std::lround(*v)) : std::string("-"); };
  if (s.fec_tail_symbols) {
    tail = "port " + symbols(s.fec_tail_symbols) + " symbols, margin " + symbols(s.fec_margin_symbols);
    if (s.fec_correctable_symbols) tail += " of " + symbols(s.fec_correctable_symbols);
  }
  for (const auto& l : s.lanes) {
    if (l.fec_tail_symbols) {
      tail += (tail.empty() ? "" : "; ") + std::string("lane ") + std::to_string(l.lane) + " " +
              symbols(l.fec_tail_symbols) + " (margin " + symbols(l.fec_margin_symbols) + ")";
    }
  }
  if (!tail.empty()) line(out, "FEC tail: " + tail);

  out += "\nFindings (last " + s.range_name + ")\n";
  if (s.findings.empty()) line(out, "  none");
  for (const auto& f : s.findings) {
    const auto& x = f.finding;
    std::string head = "  " + std::string(toString(x.severity)) + " " + printable(x.rule);
    if (x.lane) head += " lane " + std::to_string(x.lane);
    head += x.active() ? ", active" : ", cleared";
    if (x.start_ms) head += ", since " + utcText(x.start_ms) + " (" + ageText(x.start_ms, s.now_ms) + ")";
    line(out, head);
    if (!x.detail.empty()) line(out, "    evidence: " + printable(x.detail));
    line(out, "    next: " + std::string(f.action.step));
    line(out, "      " + std::string(f.action.why));
  }
  if (!s.series.empty()) {
    out += "\nHistory (last " + s.range_name + "): lowest, highest, last\n";
    for (const auto& x : s.series) {
      if (x.points.empty()) continue;
      const bool log = x.key.find("ber") != std::string::npos;
      auto [lo, hi] = std::minmax_element(x.points.begin(), x.points.end(),
                                          [](const auto& a, const auto& b) { return a.value < b.value; });
      line(out, "  " + (x.lane ? "lane " + std::to_string(x.lane) + " " : std::string("module ")) + x.key + ": " +
                    formatValue(lo->value, log) + ", " + formatValue(hi->value, log) + ", " +
                    formatValue(x.points.back().value, log) + " (" + std::to_string(x.points.size()) + " points)");
    }
  }
  if (s.swaps.size() > 1) {
    out += "\nModules this port has held\n";
    for (const auto& i : s.swaps) {
      line(out, "  " + printable(i.serial) + " " + printable(i.vendor) + " " + printable(i.part) + ", " +
                    utcText(i.first_seen_ms) + " to " + utcText(i.last_seen_ms));
    }
  }
  for (const auto& seen : s.serial_elsewhere) {
    line(out, "Serial seen before at " + printable(seen.target) + " " + printable(seen.port) + " until " +
                  utcText(seen.last_seen_ms));
  }
  if (s.far_end) {
    const auto& f = *s.far_end;
    out += "\nFar end: " + printable(f.target) + " " + printable(f.port) + " (" + printable(f.where) + ")";
    if (!f.page_url.empty()) out += " " + printable(f.page_url);
    out += '\n';
    if (!f.error.empty()) line(out, "  " + printable(f.error));
    // Both directions: what reaches us of its light, and what reaches it of ours.
    auto direction = [](const char* tx, const std::optional<double>& t, const char* rx,
                        const std::optional<double>& r) {
      return std::string(tx) + " Tx " + num(t, 2, "dBm") + ", " + rx + " Rx " + num(r, 2, "dBm") +
             (t && r ? ", loss " + num(*t - *r, 2, "dB") : "");
    };
    for (const auto& l : f.lanes) {
      line(out, "  lane " + std::to_string(l.lane) + ": " + direction("their", l.their_tx_dbm, "our", l.our_rx_dbm) +
                    "; " + direction("our", l.our_tx_dbm, "their", l.their_rx_dbm));
    }
  }
  return out;
}

}  // namespace opticsd::web
