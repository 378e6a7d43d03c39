#include "daemon/exporter/fec_bin_retention.hpp"

#include <algorithm>

namespace opticsd {

std::optional<std::vector<Sample>> withoutUnexportedFecBins(std::string_view target, const std::vector<Sample>& samples,
                                                            const ExportPolicy& policy) {
  const auto drops = [&](const Sample& s) {
    return !s.fec.histogram.empty() && policy.detailFor(target, s.port) != ExportDetail::kFull;
  };
  if (std::none_of(samples.begin(), samples.end(), drops)) return std::nullopt;
  std::vector<Sample> out;
  out.reserve(samples.size());
  for (const Sample& s : samples) {
    if (!drops(s)) {
      out.push_back(s);
      continue;
    }
    // The published Sample is shared and immutable (scrapes may be reading
    // it): copied, then the copy's bins freed.
    Sample& copy = out.emplace_back(s);
    std::vector<FecHistogramBin>().swap(copy.fec.histogram);
  }
  return out;
}

}  // namespace opticsd
