#pragma once
// A Sample as JSON: the machine-readable output of `opticsd decode --json`
// and `opticsd poll-once`. Metric keys are the catalogue keys of
// drivers/measurement.hpp; a value that was not reported is absent (never
// 0, null or NaN), so consumers can tell "not reported" from a reading.
// Pure function; safe from any thread.

#include <nlohmann/json.hpp>

#include "drivers/sample.hpp"

namespace opticsd {

nlohmann::json sampleToJson(const Sample& sample);

}  // namespace opticsd
