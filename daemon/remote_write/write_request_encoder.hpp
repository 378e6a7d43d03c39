#pragma once
// One target's poll as a remote-write 1.0 WriteRequest: the same series as
// /metrics (sample_series.hpp, at the export detail level) plus its
// thresholds, each with one sample at the poll's time and the external
// labels, labels sorted by name as the protocol requires. The body is
// returned snappy-compressed, ready to POST.

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
};

EncodedWrite encodeWriteRequest(const std::string& target, const std::vector<Sample>& samples,
                                const ExportPolicy* policy, const std::map<std::string, std::string>& external_labels);

}  // namespace opticsd
