#include "daemon/exporter/exposition_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "daemon/exporter/sample_series.hpp"

namespace opticsd {
namespace {

using exporter_detail::ExtraLabel;
using exporter_detail::familySpecs;
using exporter_detail::Scope;

void appendEscaped(std::string& out, std::string_view value) {
  for (const char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
}

constexpr int kValueDigits = 15;

// 15 significant digits (DBL_DIG: every decimal of 15 digits survives a trip
// through a double), where prometheus-cpp writes 16: a value converted from a
// module's units (100 uV steps to volts, mA to A) then prints as its short
// decimal (3.2931), not the conversion's binary rounding (3.293100000000001).
// The values themselves carry their module's precision (drivers/units.hpp).
void appendValue(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
  } else if (std::isinf(v)) {
    out += v < 0 ? "-Inf" : "+Inf";
  } else if (v == std::trunc(v) && std::fabs(v) < 9e18 && !(v == 0 && std::signbit(v))) {
    // Integers (flags, counters, states: most series) print exactly, never
    // rounded to 15 digits (a counter past 1e15 keeps its last increment), and
    // faster through the integer path; every such double fits a long long.
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v)).ptr);
  } else {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, kValueDigits);
    out.append(buf, r.ptr);
  }
}

// One string per family, appended to in a single pass over the Samples.
class TextSink {
 public:
  TextSink(std::size_t first, std::size_t end)
      : specs_(familySpecs()), bodies_(specs_.size()), first_(first), end_(std::min(end, specs_.size())) {}

  void beginModule(const std::string& target, const std::string& port) {
    module_.assign("{target=\"");
    appendEscaped(module_, target);
    module_ += "\",port=\"";
    appendEscaped(module_, port);
    module_ += '"';
  }
  void beginLane(std::uint16_t number) {
    lane_.assign(module_);
    lane_ += ",lane=\"";
    char buf[8];
    lane_.append(buf, std::to_chars(buf, buf + sizeof buf, number).ptr);
    lane_ += '"';
  }
  void series(std::size_t f, Scope scope, double value, std::span<const ExtraLabel> extra) {
    if (f < first_ || f >= end_) return;  // another slice's family
    std::string& out = bodies_[f];
    out += specs_[f].name;
    out += scope == Scope::kLane ? lane_ : module_;
    for (const ExtraLabel& l : extra) {
      out += ',';
      out += l.name;
      out += "=\"";
      appendEscaped(out, l.value);
      out += '"';
    }
    out += "} ";
    appendValue(out, value);
    out += '\n';
  }

  // Moves each family out as two parts, its HELP/TYPE lines and its series,
  // so the exposition is never copied into one buffer.
  void finish(std::vector<std::string>& parts) {
    for (std::size_t f = 0; f < bodies_.size(); ++f) {
      if (bodies_[f].empty()) continue;
      parts.push_back(sampleFamilyHeader(f));
      parts.push_back(std::move(bodies_[f]));
    }
  }

  std::vector<std::string> takeBodies() { return std::move(bodies_); }

 private:
  const std::vector<exporter_detail::FamilySpec>& specs_;
  std::vector<std::string> bodies_;
  std::string module_;
  std::string lane_;
  std::size_t first_;
  std::size_t end_;
};

// Counts the series of each family; writes nothing.
class CountSink {
 public:
  explicit CountSink(std::size_t families) : counts_(families) {}
  void beginModule(const std::string& /*target*/, const std::string& /*port*/) {}
  void beginLane(std::uint16_t /*number*/) {}
  void series(std::size_t f, Scope /*scope*/, double /*value*/, std::span<const ExtraLabel> /*extra*/) { ++counts_[f]; }
  std::vector<std::size_t> takeCounts() { return std::move(counts_); }

 private:
  std::vector<std::size_t> counts_;
};

}  // namespace

std::size_t sampleFamilyCount() { return familySpecs().size(); }

std::string sampleFamilyHeader(std::size_t family) {
  const auto& spec = familySpecs().at(family);
  std::string head = "# HELP ";
  head += spec.name;
  head += ' ';
  head += spec.help;
  head += "\n# TYPE ";
  head += spec.name;
  head += spec.type == prometheus::MetricType::Counter ? " counter\n" : " gauge\n";
  return head;
}

std::vector<std::string> sampleFamilyBodies(const LatestSamples::Snapshot& snapshot, const SeriesSelection& selection,
                                            std::size_t first_family, std::size_t end_family) {
  TextSink sink(first_family, end_family);
  exporter_detail::SeriesWalker<TextSink>(sink, selection).walk(snapshot);
  return sink.takeBodies();
}

std::vector<std::size_t> sampleFamilySeriesCounts(const LatestSamples::Snapshot& snapshot,
                                                  const SeriesSelection& selection) {
  CountSink sink(sampleFamilyCount());
  exporter_detail::SeriesWalker<CountSink>(sink, selection).walk(snapshot);
  return sink.takeCounts();
}

void appendSampleExpositionParts(const LatestSamples::Snapshot& snapshot, std::vector<std::string>& parts,
                                 std::size_t first_family, std::size_t end_family, const SeriesSelection& selection) {
  TextSink sink(first_family, end_family);
  exporter_detail::SeriesWalker<TextSink>(sink, selection).walk(snapshot);
  sink.finish(parts);
}

void appendJoined(const std::vector<std::string>& parts, std::string& out) {
  std::size_t total = out.size();
  for (const auto& p : parts) total += p.size();
  out.reserve(total);
  for (const auto& p : parts) out += p;
}

void appendSampleExposition(const LatestSamples::Snapshot& snapshot, std::string& out,
                            const SeriesSelection& selection) {
  std::vector<std::string> parts;
  appendSampleExpositionParts(snapshot, parts, 0, SIZE_MAX, selection);
  appendJoined(parts, out);
}

}  // namespace opticsd
