#include "daemon/web/optic_page.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "daemon/web/html_escape.hpp"
#include "daemon/web/page_layout.hpp"
#include "daemon/web/svg_plot.hpp"

namespace opticsd::web {
namespace {

constexpr std::string_view kRanges[] = {"1h", "24h", "14d"};

std::string value(const std::optional<double>& v, int digits, std::string_view unit) {
  if (!v) return "<span class=\"muted\">not reported</span>";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, *v);
  return std::string(buf) + (unit.empty() ? "" : " " + std::string(unit));
}

std::string ber(const std::optional<double>& v) {
  return v ? formatValue(*v, true) : std::string("<span class=\"muted\">not reported</span>");
}

void measuredCell(std::string& out, const Measured& m, int digits, std::string_view unit) {
  out += "<td class=\"num\">" + value(m.value, digits, unit) + "</td><td>";
  if (!m.state.empty()) {
    out += "<span class=\"state-" + m.state + "\">" + m.state + "</span>";
    if (!m.margin_text.empty()) out += " <span class=\"muted\">" + htmlEscape(m.margin_text) + "</span>";
  } else if (m.value) {
    out += "<span class=\"muted\">no module thresholds</span>";
  }
  out += "</td>";
}

const std::vector<TimePoint>* seriesOf(const OpticStory& s, std::string_view key, int lane) {
  for (const auto& series : s.series) {
    if (series.key == key && series.lane == lane) return &series.points;
  }
  return nullptr;
}

// The port or a lane has a FEC tail now or in the range (a codeword histogram is read).
bool hasFecTail(const OpticStory& s) {
  if (s.fec_tail_symbols || s.fec_margin_symbols) return true;
  for (const auto& lane : s.lanes) {
    if (lane.fec_tail_symbols || lane.fec_margin_symbols) return true;
  }
  for (const auto& series : s.series) {
    if (series.key == "fec_tail_symbols" || series.key == "fec_margin_symbols") return true;
  }
  return false;
}

// "9 symbols (margin 6)": the tail with what is left to the code's limit.
std::string fecTailText(const std::optional<double>& tail, const std::optional<double>& margin) {
  if (!tail) return "<span class=\"muted\">not reported</span>";
  std::string out = value(tail, 0, "symbols");
  if (margin) {
    out += *margin <= 0 ? " <span class=\"state-alarm\">no margin left</span>"
                        : " <span class=\"muted\">(margin " + value(margin, 0, "") + ")</span>";
  }
  return out;
}

// The FEC tail panel of a plot (lane 0: the port's), when there is anything to draw.
void fecTailPanel(PlotSpec& spec, const OpticStory& s, int lane, const std::optional<double>& tail_now) {
  static const std::vector<TimePoint> kNone;
  const auto* tail = seriesOf(s, "fec_tail_symbols", lane);
  const auto* margin = seriesOf(s, "fec_margin_symbols", lane);
  if (!tail && !margin && !tail_now) return;
  PlotPanel p{"FEC tail and margin (symbols a codeword)",
              "symbols",
              false,
              {{"Tail", "tail", tail ? tail : &kNone}, {"Margin", "margin", margin ? margin : &kNone}},
              {}};
  if (s.fec_correctable_symbols) {
    p.levels.push_back({*s.fec_correctable_symbols,
                        "FEC correction limit " + value(s.fec_correctable_symbols, 0, "symbols"), "threshold alarm"});
  }
  spec.panels.push_back(std::move(p));
}

void thresholdLevels(std::vector<PlotLevel>& levels, const std::optional<Thresholds>& t, std::string_view what,
                     std::string_view unit, bool low_only = false) {
  if (!t) return;
  auto add = [&](const Reading& r, std::string_view name, std::string_view css) {
    if (r)
      levels.push_back(
          {*r, std::string(what) + " " + std::string(name) + " " + formatValue(*r, false) + " " + std::string(unit),
           "threshold " + std::string(css)});
  };
  add(t->low_warning, "low warning", "warning");
  add(t->low_alarm, "low alarm", "alarm");
  if (low_only) return;
  add(t->high_warning, "high warning", "warning");
  add(t->high_alarm, "high alarm", "alarm");
}

std::vector<PlotSpan> findingSpans(const OpticStory& s, int lane) {
  std::vector<PlotSpan> spans;
  for (const auto& f : s.findings) {
    if (f.finding.start_ms == 0) continue;  // no history: no time known
    if (lane != 0 && f.finding.lane != 0 && f.finding.lane != lane) continue;
    std::string label = f.finding.rule + " (" + std::string(toString(f.finding.severity)) + ")";
    if (!f.finding.detail.empty()) label += ": " + f.finding.detail;
    spans.push_back({f.finding.start_ms, f.finding.end_ms.value_or(s.now_ms), label,
                     "finding " + std::string(toString(f.finding.severity))});
  }
  return spans;
}

void lanePlot(std::string& out, const OpticStory& s, const LaneNow& lane) {
  static const std::vector<TimePoint> kNone;
  auto pts = [&](std::string_view key) {
    const auto* p = seriesOf(s, key, lane.lane);
    return p ? p : &kNone;
  };
  PlotSpec spec;
  spec.id = "lane-" + std::to_string(lane.lane);
  spec.title = "Lane " + std::to_string(lane.lane) + " over the last " + s.range_name;
  spec.css = "lane-plot";
  spec.data = " data-lane=\"" + std::to_string(lane.lane) + "\"";
  spec.from_ms = s.now_ms - s.range_ms;
  spec.to_ms = s.now_ms;
  PlotPanel power{"Rx and Tx power (dBm)",
                  "dBm",
                  false,
                  {{"Rx", "rx", pts("rx_power_dbm")}, {"Tx", "tx", pts("tx_power_dbm")}},
                  {}};
  thresholdLevels(power.levels, lane.rx_power_dbm.thresholds, "Rx", "dBm", true);
  thresholdLevels(power.levels, lane.tx_power_dbm.thresholds, "Tx", "dBm", true);
  if (lane.baseline_rx_dbm)
    power.levels.push_back(
        {*lane.baseline_rx_dbm, "Rx baseline " + formatValue(*lane.baseline_rx_dbm, false) + " dBm", "baseline"});
  if (lane.baseline_tx_dbm)
    power.levels.push_back(
        {*lane.baseline_tx_dbm, "Tx baseline " + formatValue(*lane.baseline_tx_dbm, false) + " dBm", "baseline"});
  spec.panels.push_back(std::move(power));
  PlotPanel bias{"Tx bias (mA)", "mA", false, {{"Bias", "bias", pts("tx_bias_milliamperes")}}, {}};
  thresholdLevels(bias.levels, lane.tx_bias_ma.thresholds, "Bias", "mA");
  if (lane.baseline_bias_ma)
    bias.levels.push_back(
        {*lane.baseline_bias_ma, "Bias baseline " + formatValue(*lane.baseline_bias_ma, false) + " mA", "baseline"});
  spec.panels.push_back(std::move(bias));
  if (!pts("pre_fec_ber_ratio")->empty() || lane.pre_fec_ber) {
    PlotPanel b{"Pre-FEC BER (log)", "", true, {{"BER", "ber", pts("pre_fec_ber_ratio")}}, {}};
    if (s.ber_warning)
      b.levels.push_back(
          {*s.ber_warning, "BER warning level " + formatValue(*s.ber_warning, true), "threshold warning"});
    if (s.ber_critical)
      b.levels.push_back(
          {*s.ber_critical, "BER critical level " + formatValue(*s.ber_critical, true), "threshold alarm"});
    spec.panels.push_back(std::move(b));
  }
  fecTailPanel(spec, s, lane.lane, lane.fec_tail_symbols);
  spec.spans = findingSpans(s, lane.lane);
  renderPlot(out, spec);
}

void modulePlot(std::string& out, const OpticStory& s) {
  static const std::vector<TimePoint> kNone;
  const auto* temp = seriesOf(s, "temperature_celsius", 0);
  const auto* port_ber = seriesOf(s, "pre_fec_ber_ratio", 0);
  PlotSpec spec;
  spec.id = "module";
  spec.title = "Module temperature and port pre-FEC BER" + std::string(hasFecTail(s) ? " and FEC tail" : "") +
               " over the last " + s.range_name;
  spec.css = "module-plot";
  spec.from_ms = s.now_ms - s.range_ms;
  spec.to_ms = s.now_ms;
  PlotPanel t{"Temperature (°C)", "°C", false, {{"Temperature", "temp", temp ? temp : &kNone}}, {}};
  thresholdLevels(t.levels, s.temperature_c.thresholds, "Temperature", "°C");
  spec.panels.push_back(std::move(t));
  if (port_ber || s.pre_fec_ber) {
    PlotPanel b{"Port pre-FEC BER (log)", "", true, {{"BER", "ber", port_ber ? port_ber : &kNone}}, {}};
    if (s.ber_warning)
      b.levels.push_back(
          {*s.ber_warning, "BER warning level " + formatValue(*s.ber_warning, true), "threshold warning"});
    if (s.ber_critical)
      b.levels.push_back(
          {*s.ber_critical, "BER critical level " + formatValue(*s.ber_critical, true), "threshold alarm"});
    spec.panels.push_back(std::move(b));
  }
  fecTailPanel(spec, s, 0, s.fec_tail_symbols);
  spec.spans = findingSpans(s, 0);
  renderPlot(out, spec);
}

void identitySection(std::string& out, const OpticStory& s) {
  out += "<section id=\"identity\"><h2>What it is</h2><dl class=\"identity\">";
  for (const auto& [label, v] : s.identity) {
    out += "<dt>" + htmlEscape(label) + "</dt><dd>" + htmlEscape(v) + "</dd>";
  }
  if (s.endpoint && !s.endpoint->empty()) {
    out += "<dt>Behind it</dt><dd>" + htmlEscape(s.endpoint->describe()) + "</dd>";
  }
  out += "<dt>Link</dt><dd>" +
         std::string(s.link_up ? (*s.link_up ? "up" : "<span class=\"state-alarm\">down</span>") : "not reported") +
         "</dd>";
  out += "<dt>Values from</dt><dd>" +
         (s.sampled_ms ? htmlEscape(utcText(*s.sampled_ms)) + " (" + ageText(*s.sampled_ms, s.now_ms) + ")" +
                             (s.stale ? " <span class=\"state-warning\">kept from an earlier poll: the latest "
                                        "polls failed</span>"
                                      : "") +
                             (s.live ? "" : " <span class=\"muted\">(last stored row; not polled now)</span>")
                       : std::string("not reported")) +
         "</dd></dl></section>";
}

void lanesSection(std::string& out, const OpticStory& s) {
  out +=
      "<section id=\"lanes\"><h2>Lanes now, against the module's own thresholds</h2><div class=\"scroll\"><table>"
      "<thead><tr><th>Lane</th><th>Rx power</th><th>margin</th><th>Tx power</th><th>margin</th><th>Tx bias</th>"
      "<th>margin</th><th>Pre-FEC BER</th>";
  const bool fec_tail = hasFecTail(s);
  if (fec_tail) out += "<th>FEC tail</th>";
  out += "<th>Flags</th></tr></thead><tbody>";
  for (const auto& lane : s.lanes) {
    out += "<tr data-lane=\"" + std::to_string(lane.lane) + "\"><td>" + std::to_string(lane.lane) + "</td>";
    measuredCell(out, lane.rx_power_dbm, 2, "dBm");
    measuredCell(out, lane.tx_power_dbm, 2, "dBm");
    measuredCell(out, lane.tx_bias_ma, 1, "mA");
    out += "<td class=\"num\">" + ber(lane.pre_fec_ber) + "</td>";
    if (fec_tail)
      out += "<td class=\"num fec-tail\">" + fecTailText(lane.fec_tail_symbols, lane.fec_margin_symbols) + "</td>";
    out += "<td>";
    for (const auto& f : lane.flags) out += "<span class=\"badge state-alarm\">" + htmlEscape(f) + "</span> ";
    out += "</td></tr>";
  }
  out += "</tbody></table></div><p>Module temperature " + value(s.temperature_c.value, 1, "°C");
  if (!s.temperature_c.margin_text.empty()) out += " (" + htmlEscape(s.temperature_c.margin_text) + ")";
  out += ", supply " + value(s.supply_v.value, 2, "V") + ", port pre-FEC BER " + ber(s.pre_fec_ber);
  if (s.ber_critical) out += " (the rules act at " + formatValue(*s.ber_critical, true) + ")";
  if (fec_tail) {
    out += ", <span id=\"fec-tail\">port FEC tail " + fecTailText(s.fec_tail_symbols, s.fec_margin_symbols);
    if (s.fec_correctable_symbols) out += " of the " + value(s.fec_correctable_symbols, 0, "") + " the code corrects";
    out += "</span>";
  }
  out += ".</p></section>";
}

void findingsSection(std::string& out, const OpticStory& s) {
  out += "<section id=\"findings\"><h2>Findings and what to do</h2>";
  if (s.findings.empty()) {
    out += "<p>No findings in the last " + htmlEscape(s.range_name) + ".</p></section>";
    return;
  }
  for (const auto& f : s.findings) {
    const auto& x = f.finding;
    const std::string sev(toString(x.severity));
    out += "<article class=\"finding\" data-rule=\"" + htmlEscape(x.rule) + "\"><h3><span class=\"sev-" + sev + "\">" +
           sev + "</span> ";
    appendEscaped(out, x.rule);
    if (x.lane != 0) out += " on lane " + std::to_string(x.lane);
    out += x.active() ? " — active" : " — cleared";
    out += "</h3><p>";
    if (x.start_ms != 0) {
      out += "Since " + htmlEscape(utcText(x.start_ms)) + " (" + ageText(x.start_ms, s.now_ms) + ")";
      if (x.end_ms) out += ", cleared " + htmlEscape(utcText(*x.end_ms));
      out += ". ";
    }
    if (!x.detail.empty()) {
      out += "Evidence: ";
      appendEscaped(out, x.detail);
      out += ".";
    }
    out += "</p><div class=\"action\"><strong>Next: ";
    appendEscaped(out, f.action.step);
    out += "</strong>";
    appendEscaped(out, f.action.why);
    out += "</div></article>";
  }
  out += "</section>";
}

void swapsSection(std::string& out, const OpticStory& s) {
  out += "<section id=\"swaps\"><h2>Modules at this port</h2>";
  if (s.swaps.empty()) {
    out += "<p class=\"muted\">No identity history" +
           std::string(s.history_error.empty() ? "" : " (history unavailable)") + ".</p>";
  } else {
    out +=
        "<div class=\"scroll\"><table><thead><tr><th>Serial</th><th>Vendor</th><th>Part</th><th>First seen</th>"
        "<th>Last seen</th></tr></thead><tbody>";
    for (const auto& i : s.swaps) {
      out += "<tr><td>" + htmlEscape(i.serial) + "</td><td>" + htmlEscape(i.vendor) + "</td><td>" + htmlEscape(i.part) +
             "</td><td>" + htmlEscape(utcText(i.first_seen_ms)) + "</td><td>" + htmlEscape(utcText(i.last_seen_ms)) +
             "</td></tr>";
    }
    out += "</tbody></table></div>";
    if (s.swaps.size() > 1) out += "<p>This port has held " + std::to_string(s.swaps.size()) + " modules.</p>";
  }
  if (!s.serial_elsewhere.empty()) {
    out += "<p>This serial was seen before at: ";
    for (const auto& seen : s.serial_elsewhere) {
      out += "<a href=\"" + htmlEscape(opticPath(seen.target, seen.port)) + "\">" + htmlEscape(seen.target) + " " +
             htmlEscape(seen.port) + "</a> (" + htmlEscape(utcText(seen.first_seen_ms)) + " to " +
             htmlEscape(utcText(seen.last_seen_ms)) + ") ";
    }
    out += "</p>";
  }
  out += "</section>";
}

void farEndSection(std::string& out, const OpticStory& s) {
  out += "<section id=\"far-end\"><h2>The other end of the link</h2>";
  if (!s.far_end) {
    out += "<p class=\"muted\">Not known: no topology entry or LLDP neighbour names a monitored far end.</p></section>";
    return;
  }
  const auto& f = *s.far_end;
  out += "<p>";
  if (!f.page_url.empty()) {
    out += "<a class=\"far-end\" href=\"" + htmlEscape(f.page_url) + "\">" + htmlEscape(f.target) + " " +
           htmlEscape(f.port) + "</a>";
  } else {
    out += htmlEscape(f.target) + " " + htmlEscape(f.port);
  }
  out += " <span class=\"muted\">(" + htmlEscape(f.where) + ")</span>";
  if (f.their_score) out += ", suspect score " + value(f.their_score, 2, "");
  out += ".</p>";
  if (!f.error.empty()) out += "<p class=\"note\">" + htmlEscape(f.error) + "</p>";
  if (!f.lanes.empty()) {
    out +=
        "<div class=\"scroll\"><table><thead><tr><th>Lane</th><th>Their Tx</th><th>Our Rx</th><th>Loss</th>"
        "<th>Our Tx</th><th>Their Rx</th><th>Loss</th></tr></thead><tbody>";
    for (const auto& l : f.lanes) {
      auto loss = [](const std::optional<double>& tx, const std::optional<double>& rx) {
        return tx && rx ? value(*tx - *rx, 2, "dB") : std::string("<span class=\"muted\">—</span>");
      };
      out += "<tr><td>" + std::to_string(l.lane) + "</td><td class=\"num\">" + value(l.their_tx_dbm, 2, "dBm") +
             "</td><td class=\"num\">" + value(l.our_rx_dbm, 2, "dBm") + "</td><td class=\"num\">" +
             loss(l.their_tx_dbm, l.our_rx_dbm) + "</td><td class=\"num\">" + value(l.our_tx_dbm, 2, "dBm") +
             "</td><td class=\"num\">" + value(l.their_rx_dbm, 2, "dBm") + "</td><td class=\"num\">" +
             loss(l.our_tx_dbm, l.their_rx_dbm) + "</td></tr>";
    }
    out += "</tbody></table></div>";
  }
  out += "</section>";
}

}  // namespace

std::string renderOpticPage(const OpticStory& s) {
  std::string out;
  out.reserve(64 * 1024);
  beginPage(out, s.target + " " + s.port);
  out += "<h1 id=\"optic\">";
  appendEscaped(out, s.target);
  out += " <span class=\"muted\">port</span> ";
  appendEscaped(out, s.port);
  out += "</h1><p class=\"summary\">Suspect score <span class=\"score\">" + value(s.score, 2, "") + "</span>";
  if (!s.reason.empty()) {
    out += ": ";
    appendEscaped(out, s.reason);
  }
  out += ".</p>";
  if (!s.live) {
    out += "<p class=\"note\">No live values: this instance does not serve a Sample for this port now.</p>";
  } else if (!s.module_present) {
    out += "<p class=\"note\">The port is empty: no module is plugged in.</p>";
  }
  if (!s.history_error.empty()) {
    out += "<p class=\"note error\" id=\"history-state\">History is unavailable (" + htmlEscape(s.history_error) +
           "): the live values are shown, without plots, finding times or swaps.</p>";
  } else if (!s.history_warning.empty()) {
    out +=
        "<p class=\"note\" id=\"history-state\">History may be incomplete: " + htmlEscape(s.history_warning) + "</p>";
  }
  if (!s.findings.empty()) {
    // Lead with what the suspect line above leads with: an active finding
    // before a cleared one, the most severe, and the finding naming the value
    // before the module's own alarm flag; the newest among equals.
    const auto lead = [](const FindingStory& f) {
      return std::tuple{f.finding.active(), f.finding.severity, f.finding.rule != "module_alarm"};
    };
    const auto& top =
        *std::max_element(s.findings.begin(), s.findings.end(),
                          [&](const FindingStory& a, const FindingStory& b) { return lead(a) < lead(b); });
    out += "<div class=\"action\" id=\"top-action\"><strong>Next: ";
    appendEscaped(out, top.action.step);
    out += "</strong>for " + htmlEscape(top.finding.rule) + (top.finding.active() ? "" : " (cleared)") + "</div>";
  }
  identitySection(out, s);
  lanesSection(out, s);
  findingsSection(out, s);
  out += "<section id=\"plots\"><h2>History</h2><p class=\"ranges\">Range: ";
  for (const auto r : kRanges) {
    out += "<a href=\"" + htmlEscape(opticPath(s.target, s.port)) + "&amp;range=" + std::string(r) + "\"" +
           (r == s.range_name ? " class=\"current\"" : "") + ">" + std::string(r) + "</a>";
  }
  out +=
      "<span class=\"muted\">Dashed lines: the module's thresholds; dotted: its learned baselines; shaded: "
      "findings.</span></p>";
  if (s.history_error.empty()) {
    out += "<div class=\"plots\">";
    for (const auto& lane : s.lanes) lanePlot(out, s, lane);
    modulePlot(out, s);
    out += "</div>";
  } else {
    out += "<p class=\"muted\">No plots without history.</p>";
  }
  out += "</section>";
  swapsSection(out, s);
  farEndSection(out, s);
  endPage(out);
  return out;
}

}  // namespace opticsd::web
