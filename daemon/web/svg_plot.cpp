#include "daemon/web/svg_plot.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "daemon/web/html_escape.hpp"

namespace opticsd::web {
namespace {

constexpr double kWidth = 640;
constexpr double kLeft = 58;
constexpr double kRight = 10;
constexpr double kPanelHeight = 96;
constexpr double kPanelTitle = 18;
constexpr double kAxis = 18;
constexpr double kPlotWidth = kWidth - kLeft - kRight;

// A coordinate with one decimal ("%.1f"), without printf: a 14-day page
// draws ~100,000 of them, and printf's float formatting was a quarter of
// the page's CPU.
void appendNum(std::string& out, double v) {
  v = std::isfinite(v) ? std::clamp(v, -1e12, 1e12) : 0;
  const long long tenths = std::llround(v * 10);
  char buf[32];
  char* p = buf;
  if (tenths < 0) *p++ = '-';
  const unsigned long long a =
      tenths < 0 ? 0ULL - static_cast<unsigned long long>(tenths) : static_cast<unsigned long long>(tenths);
  p = std::to_chars(p, buf + sizeof buf - 2, a / 10).ptr;
  *p++ = '.';
  *p++ = static_cast<char>('0' + a % 10);
  out.append(buf, p);
}

std::string num(double v) {
  std::string out;
  appendNum(out, v);
  return out;
}

std::string ago(std::int64_t ms) {
  if (ms <= 0) return "now";
  const double hours = static_cast<double>(ms) / 3'600'000.0;
  char buf[32];
  if (hours >= 48) {
    std::snprintf(buf, sizeof buf, "%.0f d ago", hours / 24);
  } else if (hours >= 1) {
    std::snprintf(buf, sizeof buf, "%.0f h ago", hours);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f min ago", hours * 60);
  }
  return buf;
}

double axisValue(double v, bool log) {
  if (!log) return v;
  return std::log10(std::max(v, 1e-30));
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

// At most two points (the lowest and the highest) per pixel column: a
// 14-day series draws as fast as a 1-hour one and its peaks stay visible.
void appendPath(std::string& out, const std::vector<TimePoint>& points, bool log, std::int64_t from, std::int64_t to,
                double y0, const Range& range) {
  const double span_t = static_cast<double>(std::max<std::int64_t>(1, to - from));
  const double span_v = range.hi - range.lo;
  auto x_of = [&](std::int64_t t) { return kLeft + kPlotWidth * static_cast<double>(t - from) / span_t; };
  auto y_of = [&](double v) { return y0 + kPanelHeight - kPanelHeight * (axisValue(v, log) - range.lo) / span_v; };
  out += "<path d=\"";
  int column = -1;
  double col_min = 0, col_max = 0;
  bool first = true;
  auto flush = [&] {
    if (column < 0) return;
    const double x = kLeft + column;
    out += first ? 'M' : 'L';
    first = false;
    appendNum(out, x);
    out += ' ';
    appendNum(out, col_min);
    if (col_max != col_min) {
      out += 'L';
      appendNum(out, x);
      out += ' ';
      appendNum(out, col_max);
    }
  };
  for (const auto& p : points) {
    if (p.ts_ms < from || p.ts_ms > to) continue;
    if (log && p.value <= 0) continue;
    const int c = static_cast<int>(x_of(p.ts_ms) - kLeft);
    const double y = y_of(p.value);
    if (c != column) {
      flush();
      column = c;
      col_min = col_max = y;
    } else {
      col_min = std::min(col_min, y);
      col_max = std::max(col_max, y);
    }
  }
  flush();
  out += "\"/>";
}

void describe(std::string& desc, const PlotPanel& panel, std::int64_t from, std::int64_t to) {
  for (const auto& line : panel.lines) {
    Range r;
    std::optional<double> last;
    for (const auto& p : *line.points) {
      if (p.ts_ms < from || p.ts_ms > to) continue;
      r.add(p.value);
      last = p.value;
    }
    desc += panel.title + ", " + line.label + ": ";
    if (!last) {
      desc += "no stored values in this range. ";
      continue;
    }
    const std::string unit = panel.unit.empty() ? "" : " " + panel.unit;
    desc += "from " + formatValue(r.lo, panel.log) + " to " + formatValue(r.hi, panel.log) + unit + ", last " +
            formatValue(*last, panel.log) + unit + ". ";
  }
  for (const auto& level : panel.levels) desc += level.label + ". ";
}

}  // namespace

std::string formatValue(double v, bool log) {
  char buf[32];
  if (log) {
    std::snprintf(buf, sizeof buf, "%.1e", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f", v);
  }
  return buf;
}

void renderPlot(std::string& out, const PlotSpec& spec) {
  const double height = static_cast<double>(spec.panels.size()) * (kPanelHeight + kPanelTitle) + kAxis;
  std::string desc;
  for (const auto& panel : spec.panels) describe(desc, panel, spec.from_ms, spec.to_ms);
  for (const auto& span : spec.spans) desc += "Finding: " + span.label + ". ";

  out += "<figure class=\"plot\"><svg class=\"" + htmlEscape(spec.css) + "\" id=\"" + htmlEscape(spec.id) + "\"" +
         spec.data + " viewBox=\"0 0 " + num(kWidth) + ' ' + num(height) + "\" role=\"img\" aria-labelledby=\"" +
         htmlEscape(spec.id) + "-t " + htmlEscape(spec.id) + "-d\" xmlns=\"http://www.w3.org/2000/svg\">";
  out += "<title id=\"" + htmlEscape(spec.id) + "-t\">";
  appendEscaped(out, spec.title);
  out += "</title><desc id=\"" + htmlEscape(spec.id) + "-d\">";
  appendEscaped(out, desc);
  out += "</desc>";

  const double span_t = static_cast<double>(std::max<std::int64_t>(1, spec.to_ms - spec.from_ms));
  auto x_of = [&](std::int64_t t) {
    return kLeft + kPlotWidth * static_cast<double>(std::clamp(t, spec.from_ms, spec.to_ms) - spec.from_ms) / span_t;
  };
  double y0 = 0;
  for (const auto& panel : spec.panels) {
    out += "<g class=\"panel\"><text class=\"panel-title\" x=\"" + num(kLeft) + "\" y=\"" + num(y0 + 13) + "\">";
    appendEscaped(out, panel.title);
    out += "</text>";
    const double top = y0 + kPanelTitle;
    Range range;
    for (const auto& line : panel.lines) {
      for (const auto& p : *line.points) {
        if (p.ts_ms < spec.from_ms || p.ts_ms > spec.to_ms || (panel.log && p.value <= 0)) continue;
        range.add(axisValue(p.value, panel.log));
      }
    }
    for (const auto& level : panel.levels) {
      if (!panel.log || level.value > 0) range.add(axisValue(level.value, panel.log));
    }
    out += "<rect class=\"frame\" x=\"" + num(kLeft) + "\" y=\"" + num(top) + "\" width=\"" + num(kPlotWidth) +
           "\" height=\"" + num(kPanelHeight) + "\"/>";
    for (const auto& span : spec.spans) {
      const double x1 = x_of(span.from_ms), x2 = std::max(x_of(span.to_ms), x1 + 2);
      out += "<rect class=\"" + htmlEscape(span.css) + "\" x=\"" + num(x1) + "\" y=\"" + num(top) + "\" width=\"" +
             num(x2 - x1) + "\" height=\"" + num(kPanelHeight) + "\"><title>";
      appendEscaped(out, span.label);
      out += "</title></rect>";
    }
    if (range.empty()) {
      out += "<text class=\"empty\" x=\"" + num(kLeft + 8) + "\" y=\"" + num(top + kPanelHeight / 2) +
             "\">no stored values in this range</text></g>";
      y0 = top + kPanelHeight;
      continue;
    }
    // Some room above and below; a flat line gets a band around it.
    const double pad = std::max((range.hi - range.lo) * 0.08, panel.log ? 0.5 : 0.25);
    range.lo -= pad;
    range.hi += pad;
    auto y_of = [&](double v) {
      return top + kPanelHeight - kPanelHeight * (axisValue(v, panel.log) - range.lo) / (range.hi - range.lo);
    };
    for (int i = 0; i <= 2; ++i) {
      const double a = range.lo + (range.hi - range.lo) * i / 2.0;
      const double v = panel.log ? std::pow(10.0, a) : a;
      out += "<text class=\"tick\" x=\"" + num(kLeft - 4) + "\" y=\"" + num(y_of(v) + 4) + "\">" +
             formatValue(v, panel.log) + "</text>";
    }
    for (const auto& level : panel.levels) {
      if (panel.log && level.value <= 0) continue;
      const double y = y_of(level.value);
      out += "<line class=\"" + htmlEscape(level.css) + "\" x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft + kPlotWidth) +
             "\" y1=\"" + num(y) + "\" y2=\"" + num(y) + "\"><title>";
      appendEscaped(out, level.label);
      out += "</title></line>";
    }
    for (const auto& line : panel.lines) {
      out += "<g class=\"series " + htmlEscape(line.css) + "\"><title>";
      appendEscaped(out, line.label);
      out += "</title>";
      appendPath(out, *line.points, panel.log, spec.from_ms, spec.to_ms, top, range);
      out += "</g>";
    }
    out += "</g>";
    y0 = top + kPanelHeight;
  }
  for (int i = 0; i <= 2; ++i) {
    const std::int64_t t = spec.from_ms + (spec.to_ms - spec.from_ms) * i / 2;
    out += "<text class=\"time\" x=\"" + num(x_of(t)) + "\" y=\"" + num(y0 + 14) + "\" text-anchor=\"" +
           (i == 0   ? "start"
            : i == 1 ? "middle"
                     : "end") +
           "\">" + ago(spec.to_ms - t) + "</text>";
  }
  out += "</svg><figcaption><details><summary>As text</summary>";
  appendEscaped(out, desc);
  out += "</details></figcaption></figure>";
}

}  // namespace opticsd::web
