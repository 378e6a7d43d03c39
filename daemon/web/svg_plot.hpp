#pragma once
// Server-rendered SVG time plots: stacked panels on one time axis, with
// horizontal levels (thresholds, baselines) and spans (findings) drawn in,
// and a text alternative (<title>, <desc>) that says what the lines show.
// No script, no external reference; every label is escaped.

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/web/optic_story.hpp"

namespace opticsd::web {

struct PlotLevel {
  double value = 0;
  std::string label;  // "low warning -10.0 dBm"
  std::string css;    // "threshold warning", "threshold alarm", "baseline"
};

struct PlotLine {
  std::string label;  // "Rx"
  std::string css;    // "rx", "tx" ...
  const std::vector<TimePoint>* points = nullptr;
};

struct PlotPanel {
  std::string title;  // "Rx/Tx power (dBm)"
  std::string unit;   // "dBm"
  bool log = false;   // log10 axis (BER)
  std::vector<PlotLine> lines;
  std::vector<PlotLevel> levels;
};

struct PlotSpan {
  std::int64_t from_ms = 0;
  std::int64_t to_ms = 0;
  std::string label;
  std::string css;  // "finding warning" ...
};

struct PlotSpec {
  std::string id;     // element id, unique on the page
  std::string title;  // "Lane 3"
  std::string css;    // class of the <svg>
  std::string data;   // extra attributes, already escaped: ` data-lane="3"`
  std::int64_t from_ms = 0;
  std::int64_t to_ms = 0;
  std::vector<PlotPanel> panels;
  std::vector<PlotSpan> spans;
};

// Appends the <svg> element.
void renderPlot(std::string& out, const PlotSpec& spec);

// A number as a page shows it: "1.2e-05" for BER, "-3.41" for power.
std::string formatValue(double v, bool log);

}  // namespace opticsd::web
