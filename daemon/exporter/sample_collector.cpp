#include "daemon/exporter/sample_collector.hpp"

#include <utility>

#include "daemon/exporter/sample_series.hpp"

namespace opticsd {
namespace {

using exporter_detail::ExtraLabel;
using exporter_detail::Scope;
using prometheus::ClientMetric;
using prometheus::MetricFamily;
using Labels = std::vector<ClientMetric::Label>;

// Builds prometheus-cpp ClientMetrics; label vectors are built once per
// module and lane and copied per series.
class MetricSink {
 public:
  explicit MetricSink(std::vector<MetricFamily>& families) : families_(families) {}

  void beginModule(const std::string& target, const std::string& port) {
    module_.clear();
    module_.push_back({"target", target});
    module_.push_back({"port", port});
  }
  void beginLane(std::uint16_t number) {
    lane_.assign(module_.begin(), module_.end());
    lane_.push_back({"lane", std::to_string(number)});
  }
  void series(std::size_t f, Scope scope, double value, std::span<const ExtraLabel> extra) {
    const Labels& base = scope == Scope::kLane ? lane_ : module_;
    MetricFamily& family = families_[f];
    ClientMetric& m = family.metric.emplace_back();
    m.label.reserve(base.size() + extra.size());
    m.label.insert(m.label.end(), base.begin(), base.end());
    for (const ExtraLabel& l : extra) m.label.push_back({std::string(l.name), std::string(l.value)});
    if (family.type == prometheus::MetricType::Counter) {
      m.counter.value = value;
    } else {
      m.gauge.value = value;
    }
  }

 private:
  std::vector<MetricFamily>& families_;
  Labels module_;
  Labels lane_;
};

}  // namespace

SampleCollector::SampleCollector(std::shared_ptr<const LatestSamples> samples) : samples_(std::move(samples)) {}

std::vector<prometheus::MetricFamily> SampleCollector::Collect() const { return render(samples_->snapshot()); }

std::vector<prometheus::MetricFamily> SampleCollector::render(const LatestSamples::Snapshot& snapshot) {
  std::vector<MetricFamily> families;
  families.reserve(exporter_detail::kFamilyCount);
  for (const auto& spec : exporter_detail::familySpecs()) {
    MetricFamily& f = families.emplace_back();
    f.name = spec.name;
    f.help = spec.help;
    f.type = spec.type;
  }
  MetricSink sink(families);
  exporter_detail::SeriesWalker<MetricSink>(sink).walk(snapshot);
  std::erase_if(families, [](const MetricFamily& f) { return f.metric.empty(); });
  return families;
}

}  // namespace opticsd
