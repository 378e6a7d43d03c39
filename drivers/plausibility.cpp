#include "drivers/plausibility.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace opticsd {
namespace {

std::string describe(const MetricInfo& info, double v, int lane, const char* what) {
  char text[160];
  std::snprintf(text, sizeof text, "%s%s %g is outside the possible range %g..%g, dropped",
                std::string(info.key).c_str(), what, v, info.min, info.max);
  std::string out = text;
  if (lane > 0) out = "lane " + std::to_string(lane) + " " + out;
  return out;
}

std::size_t dropValue(Reading& value, const MetricInfo& info, int lane, const char* what,
                      std::vector<std::string>& issues) {
  if (!value || plausible(*value, info)) return 0;
  issues.push_back(describe(info, *value, lane, what));
  value.reset();
  return 1;
}

bool allPlausible(const std::optional<Thresholds>& t, const MetricInfo& info) {
  if (!t) return true;
  for (const Reading& limit : {t->high_alarm, t->low_alarm, t->high_warning, t->low_warning}) {
    if (limit && !plausible(*limit, info)) return false;
  }
  return true;
}

// Every spec (SFF-8472, SFF-8636, CMIS, the vendor MIBs) orders a set as
// high alarm >= high warning >= low warning >= low alarm. Levels a device does
// not give are left out of the comparison; a set that breaks the order (columns
// read in the wrong order, a vendor's garbage) cannot say which limit is which.
bool inOrder(const Thresholds& t) {
  std::optional<double> below;
  for (const Reading& limit : {t.low_alarm, t.low_warning, t.high_warning, t.high_alarm}) {
    if (!limit) continue;
    if (below && *limit < *below) return false;
    below = *limit;
  }
  return true;
}

std::string describeOrder(const MetricInfo& info, const Thresholds& t) {
  auto text = [](const Reading& r) {
    if (!r) return std::string("-");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", *r);
    return std::string(buf);
  };
  return std::string(info.key) + " thresholds out of order (high alarm " + text(t.high_alarm) + ", high warning " +
         text(t.high_warning) + ", low warning " + text(t.low_warning) + ", low alarm " + text(t.low_alarm) +
         "), set dropped";
}

bool usable(const std::optional<Thresholds>& t, const MetricInfo& info) {
  return allPlausible(t, info) && (!t || inOrder(*t));
}

std::size_t dropThresholds(std::optional<Thresholds>& t, const MetricInfo& info, std::vector<std::string>& issues) {
  if (!t) return 0;
  std::size_t n = 0;
  for (Reading* limit : {&t->high_alarm, &t->low_alarm, &t->high_warning, &t->low_warning}) {
    n += dropValue(*limit, info, 0, " threshold", issues);
  }
  if (!inOrder(*t)) {
    issues.push_back(describeOrder(info, *t));
    for (Reading* limit : {&t->high_alarm, &t->low_alarm, &t->high_warning, &t->low_warning}) {
      if (*limit) ++n;
      limit->reset();
    }
  }
  if (!t->any()) t.reset();
  return n;
}

}  // namespace

std::size_t dropImplausibleReadings(Sample& sample) {
  std::size_t dropped = 0;
  for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
    dropped += dropValue(sample.module[static_cast<ModuleMetric>(m)], kModuleMetricInfo[m], 0, "", sample.issues);
  }
  for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
    for (Lane& lane : sample.lanes) {
      // find(): a lane stores only the metrics written, and reading must not add one.
      if (Reading* v = lane.values.find(static_cast<LaneMetric>(m))) {
        dropped += dropValue(*v, kLaneMetricInfo[m], lane.number, "", sample.issues);
      }
    }
  }
  return dropped;
}

std::size_t dropImplausibleThresholds(Sample& sample) {
  // Looked at through the shared table, written (cloned) only where a limit goes.
  std::size_t dropped = 0;
  for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
    const auto metric = static_cast<ModuleMetric>(m);
    if (!usable(sample.thresholds(metric), kModuleMetricInfo[m])) {
      dropped += dropThresholds(sample.mutableThresholds(metric), kModuleMetricInfo[m], sample.issues);
    }
  }
  for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
    const auto metric = static_cast<LaneMetric>(m);
    if (!usable(sample.thresholds(metric), kLaneMetricInfo[m])) {
      dropped += dropThresholds(sample.mutableThresholds(metric), kLaneMetricInfo[m], sample.issues);
    }
  }
  return dropped;
}

std::size_t dropImplausibleValues(Sample& sample) {
  return dropImplausibleReadings(sample) + dropImplausibleThresholds(sample);
}

}  // namespace opticsd
