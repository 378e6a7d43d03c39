#pragma once
// How much of each module /metrics carries: the series budget.
//
// `default` is what the shipped dashboards and alert rules use, at most about
// 50 series per 8-lane module: per-lane Rx/Tx power, bias and pre-FEC BER;
// module temperature, Vcc, laser temperature and pre-FEC BER; the port's FEC
// counters, link state and link-down count; presence and identity; flags,
// loss-of-signal style statuses and a data path that is not activated only
// while they are raised (like Prometheus's own ALERTS). `full` adds every
// other value (VDM min/max/avg, SNR, coherent line values, ...), every status
// as 0/1, every lane's data-path state, per-lane FEC counters and link speed.
//
// Thresholds are never on /metrics at either level: they change only when a
// module is swapped, so they are served on /metrics/thresholds for a slow
// scrape job (see deploy/prometheus/).
//
// Value type; immutable once built, shared between scrapes by shared_ptr.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/options/option_reader.hpp"

namespace opticsd {

enum class ExportDetail { kDefault, kFull };

class ExportPolicy {
 public:
  ExportPolicy() = default;
  explicit ExportPolicy(ExportDetail instance) : instance_(instance) {}

  // `detail` for every port of `target`, or only for `ports` when not empty.
  void setTarget(const std::string& target, ExportDetail detail, const std::vector<std::string>& ports);

  ExportDetail detailFor(std::string_view target, std::string_view port) const;

  bool operator==(const ExportPolicy&) const = default;

 private:
  struct TargetRule {
    std::optional<ExportDetail> all_ports;
    std::map<std::string, ExportDetail, std::less<>> ports;
    bool operator==(const TargetRule&) const = default;
  };
  ExportDetail instance_ = ExportDetail::kDefault;
  std::map<std::string, TargetRule, std::less<>> targets_;
};

// Which of a snapshot's series to write. The default, everything at full
// detail, is what the unit tests and benchmarks compare.
struct SeriesSelection {
  const ExportPolicy* policy = nullptr;  // null: every module at full detail
  bool values = true;                    // the /metrics series
  bool thresholds = true;                // the /metrics/thresholds series
};

// Reads an `export:` mapping: {detail: default|full} and, on a target, an
// optional `ports: [NAME, ...]` that limits it to those ports. Problems go to
// the reader's issues, naming the key.
struct ExportSetting {
  std::optional<ExportDetail> detail;
  std::vector<std::string> ports;
};
ExportSetting readExportSetting(OptionReader r, bool allow_ports);

}  // namespace opticsd
