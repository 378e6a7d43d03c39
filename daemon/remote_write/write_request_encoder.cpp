#include "daemon/remote_write/write_request_encoder.hpp"

#include <snappy.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <locale>
#include <sstream>

#include "daemon/exporter/sample_series.hpp"
#include "daemon/remote_write/write_request_wire.hpp"

namespace opticsd {
namespace {

using exporter_detail::ExtraLabel;
using exporter_detail::Scope;

// One series' labels, kept between series so no series allocates.
class SeriesLabels {
 public:
  explicit SeriesLabels(const std::map<std::string, std::string>& external) : external_(external) {}

  void clear() { labels_.clear(); }
  // An empty value is no label at all in remote write (identity fields a module left blank).
  void add(std::string_view name, std::string_view value) {
    if (!value.empty()) labels_.emplace_back(name, value);
  }
  // A series' own label wins over an external one of the same name, as in
  // Prometheus; labels go out sorted by name.
  void write(WriteRequestWire& request, double value, std::int64_t timestamp_ms) {
    const std::size_t own = labels_.size();
    // (Not a structured binding: clang 14, the fuzz build's compiler, cannot capture one.)
    for (const auto& e : external_) {
      const std::string_view name = e.first;
      if (std::none_of(labels_.begin(), labels_.begin() + static_cast<std::ptrdiff_t>(own),
                       [&](const WireLabel& l) { return l.first == name; })) {
        add(name, e.second);
      }
    }
    std::sort(labels_.begin(), labels_.end());
    request.addSeries(labels_, value, timestamp_ms);
  }

 private:
  const std::map<std::string, std::string>& external_;
  std::vector<WireLabel> labels_;
};

std::string number(double value) {
  std::ostringstream text;
  text.imbue(std::locale::classic());
  text.precision(17);
  text << value;
  return text.str();
}

// A prometheus-cpp family as the series its text exposition would carry
// (histograms and summaries as _bucket/_sum/_count and quantiles).
void addFamily(WriteRequestWire& request, const prometheus::MetricFamily& family,
               const std::map<std::string, std::string>& external, std::int64_t timestamp_ms) {
  SeriesLabels labels(external);
  for (const prometheus::ClientMetric& metric : family.metric) {
    auto add = [&](const std::string& suffix, double value, const char* extra_name = nullptr,
                   const std::string& extra_value = {}) {
      const std::string name = family.name + suffix;
      labels.clear();
      labels.add("__name__", name);
      for (const auto& l : metric.label) labels.add(l.name, l.value);
      if (extra_name != nullptr) labels.add(extra_name, extra_value);
      labels.write(request, value, timestamp_ms);
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
  WriteRequestSink(WriteRequestWire& request, const std::map<std::string, std::string>& external,
                   std::int64_t timestamp_ms)
      : request_(request), labels_(external), timestamp_ms_(timestamp_ms) {}

  void beginModule(const std::string& target, const std::string& port) {
    target_ = target;
    port_ = port;
  }
  void beginLane(std::uint16_t number) {
    char buf[8];
    lane_.assign(buf, std::to_chars(buf, buf + sizeof buf, number).ptr);
  }

  void series(std::size_t f, Scope scope, double value, std::span<const ExtraLabel> extra) {
    labels_.clear();
    labels_.add("__name__", exporter_detail::familySpecs()[f].name);
    labels_.add("target", target_);
    labels_.add("port", port_);
    if (scope == Scope::kLane) labels_.add("lane", lane_);
    for (const ExtraLabel& l : extra) labels_.add(l.name, l.value);
    labels_.write(request_, value, timestamp_ms_);
  }

 private:
  WriteRequestWire& request_;
  SeriesLabels labels_;
  const std::int64_t timestamp_ms_;
  std::string target_, port_, lane_;
};

EncodedWrite compressed(const WriteRequestWire& request) {
  EncodedWrite out;
  out.samples = request.series();
  snappy::Compress(request.bytes().data(), request.bytes().size(), &out.body);
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

  WriteRequestWire request;
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
  WriteRequestWire request;
  const std::int64_t timestamp_ms = nowMs();
  for (const auto& family : families) addFamily(request, family, external_labels, timestamp_ms);
  return compressed(request);
}

}  // namespace opticsd
