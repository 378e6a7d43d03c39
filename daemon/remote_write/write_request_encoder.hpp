#pragma once
// One target's poll as a remote-write 1.0 WriteRequest: the same series as
// /metrics (sample_series.hpp, at the export detail level) plus its
// thresholds, each with one sample at the poll's time and the external
// labels, labels sorted by name as the protocol requires, and the series
// other parts keep for that target (the rules engine's findings, suspect
// score, BER ratio and topology: target_collectable.hpp) at the same time.
// encodeFamilies() does the same for opticsd's own metrics (/metrics/self).
// Bodies are returned snappy-compressed, ready to POST.

#include <prometheus/metric_family.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

struct EncodedWrite {
  std::string body;           // snappy(protobuf WriteRequest)
  std::uint64_t samples = 0;  // how many samples it carries
  std::string target;         // whose poll ("" for opticsd's own metrics)
};

EncodedWrite encodeWriteRequest(const std::string& target, const std::vector<Sample>& samples,
                                const ExportPolicy* policy, const std::map<std::string, std::string>& external_labels,
                                const std::vector<prometheus::MetricFamily>& target_families = {});

// prometheus-cpp families (counters, gauges, histograms, summaries), each
// sample stamped now.
EncodedWrite encodeFamilies(const std::vector<prometheus::MetricFamily>& families,
                            const std::map<std::string, std::string>& external_labels);

}  // namespace opticsd
