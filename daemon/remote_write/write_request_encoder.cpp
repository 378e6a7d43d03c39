#include "daemon/remote_write/write_request_encoder.hpp"

#include <snappy.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <locale>
#include <sstream>

#include "daemon/exporter/sample_series.hpp"
#include "schemas/remote-write/remote_write.pb.h"

namespace opticsd {
namespace {

using exporter_detail::ExtraLabel;
using exporter_detail::Scope;
using Labels = std::vector<std::pair<std::string, std::string>>;

// One series with one sample. A series' own label wins over an external one
// of the same name, as in Prometheus; labels go out sorted by name.
void addSeries(remote_write::WriteRequest& request, Labels& labels, const std::map<std::string, std::string>& external,
               double value, std::int64_t timestamp_ms) {
  // (Not a structured binding: clang 14, the fuzz build's compiler, cannot capture one.)
  for (const auto& e : external) {
    const std::string& name = e.first;
    if (std::none_of(labels.begin(), labels.end(), [&](const auto& l) { return l.first == name; })) {
      labels.emplace_back(name, e.second);
    }
  }
  std::sort(labels.begin(), labels.end());
  remote_write::TimeSeries* ts = request.add_timeseries();
  for (auto& [name, v] : labels) {
    remote_write::Label* label = ts->add_labels();
    label->set_name(name);
    label->set_value(v);
  }
  remote_write::Sample* sample = ts->add_samples();
  sample->set_value(value);
  sample->set_timestamp(timestamp_ms);
}

std::string number(double value) {
  std::ostringstream text;
  text.imbue(std::locale::classic());
  text.precision(17);
  text << value;
  return text.str();
}

// A prometheus-cpp family as the series its text exposition would carry
// (histograms and summaries as _bucket/_sum/_count and quantiles).
void addFamily(remote_write::WriteRequest& request, const prometheus::MetricFamily& family,
               const std::map<std::string, std::string>& external, std::int64_t timestamp_ms) {
  for (const prometheus::ClientMetric& metric : family.metric) {
    auto add = [&](const std::string& suffix, double value, const char* extra_name = nullptr,
                   const std::string& extra_value = {}) {
      Labels labels;
      labels.emplace_back("__name__", family.name + suffix);
      for (const auto& l : metric.label) {
        if (!l.value.empty()) labels.emplace_back(l.name, l.value);
      }
      if (extra_name != nullptr) labels.emplace_back(extra_name, extra_value);
      addSeries(request, labels, external, value, timestamp_ms);
    };
    switch (family.type) {
      case prometheus::MetricType::Counter:
        add("", metric.counter.value);
        break;
      case prometheus::MetricType::Gauge:
        add("", metric.gauge.value);
        break;
      case prometheus::MetricType::Untyped:
        add("", metric.untyped.value);
        break;
      case prometheus::MetricType::Summary:
        for (const auto& q : metric.summary.quantile) add("", q.value, "quantile", number(q.quantile));
        add("_sum", metric.summary.sample_sum);
        add("_count", static_cast<double>(metric.summary.sample_count));
        break;
      case prometheus::MetricType::Histogram:
        for (const auto& b : metric.histogram.bucket) {
          add("_bucket", static_cast<double>(b.cumulative_count), "le",
              std::isinf(b.upper_bound) ? std::string("+Inf") : number(b.upper_bound));
        }
        add("_sum", metric.histogram.sample_sum);
        add("_count", static_cast<double>(metric.histogram.sample_count));
        break;
    }
  }
}

class WriteRequestSink {
 public:
  WriteRequestSink(remote_write::WriteRequest& request, const std::map<std::string, std::string>& external,
                   std::int64_t timestamp_ms)
      : request_(request), external_(external), timestamp_ms_(timestamp_ms) {}

  void beginModule(const std::string& target, const std::string& port) {
    target_ = target;
    port_ = port;
  }
  void beginLane(std::uint16_t number) { lane_ = std::to_string(number); }

  void series(std::size_t f, Scope scope, double value, std::span<const ExtraLabel> extra) {
    labels_.clear();
    labels_.emplace_back("__name__", exporter_detail::familySpecs()[f].name);
    labels_.emplace_back("target", target_);
    labels_.emplace_back("port", port_);
    if (scope == Scope::kLane) labels_.emplace_back("lane", lane_);
    // An empty value is no label at all in remote write (identity fields a module left blank).
    for (const ExtraLabel& l : extra) {
      if (!l.value.empty()) labels_.emplace_back(std::string(l.name), std::string(l.value));
    }
    addSeries(request_, labels_, external_, value, timestamp_ms_);
  }

 private:
  remote_write::WriteRequest& request_;
  const std::map<std::string, std::string>& external_;
  const std::int64_t timestamp_ms_;
  std::string target_, port_, lane_;
  Labels labels_;
};

EncodedWrite compressed(const remote_write::WriteRequest& request) {
  EncodedWrite out;
  out.samples = static_cast<std::uint64_t>(request.timeseries_size());
  std::string raw;
  request.SerializeToString(&raw);
  snappy::Compress(raw.data(), raw.size(), &out.body);
  return out;
}

std::int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

EncodedWrite encodeWriteRequest(const std::string& target, const std::vector<Sample>& samples,
                                const ExportPolicy* policy, const std::map<std::string, std::string>& external_labels,
                                const std::vector<prometheus::MetricFamily>& target_families) {
  // One timestamp per request: the poll's latest read (every series of a
  // series set must move forward in time, and one poll's reads are close).
  std::int64_t timestamp_ms = 0;
  for (const Sample& s : samples) timestamp_ms = std::max(timestamp_ms, s.timestamp_ms);
  if (timestamp_ms == 0) timestamp_ms = nowMs();

  remote_write::WriteRequest request;
  WriteRequestSink sink(request, external_labels, timestamp_ms);
  const auto shared = std::shared_ptr<const std::vector<Sample>>(&samples, [](const std::vector<Sample>*) {});
  exporter_detail::SeriesWalker<WriteRequestSink>(sink, SeriesSelection{policy, true, true}).walk({{target, shared}});
  for (const auto& family : target_families) addFamily(request, family, external_labels, timestamp_ms);
  EncodedWrite out = compressed(request);
  out.target = target;
  return out;
}

EncodedWrite encodeFamilies(const std::vector<prometheus::MetricFamily>& families,
                            const std::map<std::string, std::string>& external_labels) {
  remote_write::WriteRequest request;
  const std::int64_t timestamp_ms = nowMs();
  for (const auto& family : families) addFamily(request, family, external_labels, timestamp_ms);
  return compressed(request);
}

}  // namespace opticsd
