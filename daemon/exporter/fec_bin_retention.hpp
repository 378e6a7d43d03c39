#pragma once
// Which FEC codeword histograms the exporter's cache keeps. The bins are
// series only at `full` detail; at the default level a port exports its FEC
// tail and margin (derived by the driver from the bins, carried on the
// Sample) and the bins would be the largest part of its retained Sample:
// 16 bins of 48 bytes a port, ~0.8 KB a module of a 64,000-module fleet.
// So the cache keeps them only where the export policy says full.

#include <optional>
#include <string_view>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// `samples` without the histogram bins of the ports `policy` does not export
// at full detail; nullopt when no port has bins to drop (share as is).
std::optional<std::vector<Sample>> withoutUnexportedFecBins(std::string_view target, const std::vector<Sample>& samples,
                                                            const ExportPolicy& policy);

}  // namespace opticsd
