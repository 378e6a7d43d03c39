#pragma once
// The latest Samples as prometheus-cpp metric families. Not what /metrics
// serves (exposition_text.hpp writes the same series straight to text): kept
// as the tests' oracle that the direct writer's bytes match prometheus-cpp's.
//
// Naming (the names alert rules and dashboards use; listed in README.md beside this file):
//   opticsd_module_<key>{target,port}               module values, keys from drivers/measurement.hpp
//                                                   (milli-unit keys exported in the base unit, as promtool
//                                                   requires: tx_bias_milliamperes -> tx_bias_amperes)
//   opticsd_lane_<key>{target,port,lane}            lane values
//   opticsd_module_threshold_<key>{target,port,level}, opticsd_lane_threshold_<key>{target,port,level}
//   opticsd_module_alarm_flag{target,port,metric,level}, opticsd_lane_alarm_flag{target,port,lane,metric,level}
//   opticsd_lane_<status>{target,port,lane}         rx_los, tx_los, rx_lol, tx_lol, tx_fault, tx/rx_no_light
//   opticsd_lane_data_path_state{target,port,lane}  CMIS data path state code
//   opticsd_fec_corrected_blocks_total, opticsd_fec_uncorrectable_blocks_total,
//   opticsd_fec_corrected_bit_errors_total{target,port}, opticsd_lane_fec_corrected_bit_errors_total{...,lane}
//   opticsd_link_up, opticsd_link_down_events_total, opticsd_link_speed_bytes_per_second
//   opticsd_module_present{target,port}, opticsd_module_info{target,port,family,...} 1
// A value that is not reported has no series (never 0, never NaN); a
// non-finite value is treated as not reported.
//
// Thread-safety: Collect() may run on several scrape threads at once; it
// holds no lock while rendering (it works on a LatestSamples snapshot).

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <memory>
#include <vector>

#include "daemon/exporter/latest_samples.hpp"

namespace opticsd {

class SampleCollector : public prometheus::Collectable {
 public:
  explicit SampleCollector(std::shared_ptr<const LatestSamples> samples);

  std::vector<prometheus::MetricFamily> Collect() const override;

  // The rendering itself, pure: families with no series are left out.
  static std::vector<prometheus::MetricFamily> render(const LatestSamples::Snapshot& snapshot);

 private:
  std::shared_ptr<const LatestSamples> samples_;
};

}  // namespace opticsd
