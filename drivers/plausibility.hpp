#pragma once
// Drops values no real module can report (drivers/measurement.hpp gives each
// metric its physical range): a broken sensor scale or MIB must not become a
// 2e41 °C series, a page at 3 am, and a row in history. A dropped value is
// "not reported", with a line in Sample::issues saying what was seen. A
// threshold set whose levels are out of order (high alarm >= high warning >=
// low warning >= low alarm, levels not given aside) is dropped whole.

#include <cmath>
#include <cstddef>

#include "drivers/measurement.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// Whether a reading of `info`'s metric could be real: the one test every drop below applies.
inline bool plausible(double v, const MetricInfo& info) { return std::isfinite(v) && v >= info.min && v <= info.max; }

// Returns how many values of `sample` (module, lanes and thresholds) were
// outside their metric's range or not finite and were dropped.
std::size_t dropImplausibleValues(Sample& sample);

// The same, split: what the module measured this poll, and the limits it
// advertises (fixed per module, e.g. unused VDM threshold sets of 0xFFFF,
// so the same ones are dropped on every poll).
std::size_t dropImplausibleReadings(Sample& sample);
std::size_t dropImplausibleThresholds(Sample& sample);

}  // namespace opticsd
