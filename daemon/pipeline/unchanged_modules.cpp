#include "daemon/pipeline/unchanged_modules.hpp"

#include <algorithm>

namespace opticsd {

void shareUnchangedModules(std::vector<Sample>& fresh, const std::vector<Sample>& previous) {
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    Sample& now = fresh[i];
    // A poll lists its ports in the same order as the last one, nearly always.
    auto before =
        i < previous.size() && previous[i].port == now.port
            ? previous.begin() + static_cast<std::ptrdiff_t>(i)
            : std::find_if(previous.begin(), previous.end(), [&](const Sample& old) { return old.port == now.port; });
    if (before == previous.end()) continue;
    now.shared_identity.shareIfEqual(before->shared_identity);
    now.shared_thresholds.shareIfEqual(before->shared_thresholds);
  }
}

}  // namespace opticsd
