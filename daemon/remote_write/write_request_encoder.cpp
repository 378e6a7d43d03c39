#include "daemon/remote_write/write_request_encoder.hpp"

#include <snappy.h>

#include <algorithm>
#include <chrono>

#include "daemon/exporter/sample_series.hpp"
#include "schemas/remote-write/remote_write.pb.h"

namespace opticsd {
namespace {

using exporter_detail::ExtraLabel;
using exporter_detail::Scope;

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
    // A series' own label wins over an external one of the same name, as in Prometheus.
    // (Not a structured binding: clang 14, the fuzz build's compiler, cannot capture one.)
    for (const auto& external : external_) {
      const std::string& name = external.first;
      if (std::none_of(labels_.begin(), labels_.end(), [&](const auto& l) { return l.first == name; })) {
        labels_.emplace_back(name, external.second);
      }
    }
    std::sort(labels_.begin(), labels_.end());
    remote_write::TimeSeries* ts = request_.add_timeseries();
    for (auto& [name, v] : labels_) {
      remote_write::Label* label = ts->add_labels();
      label->set_name(name);
      label->set_value(v);
    }
    remote_write::Sample* sample = ts->add_samples();
    sample->set_value(value);
    sample->set_timestamp(timestamp_ms_);
  }

 private:
  remote_write::WriteRequest& request_;
  const std::map<std::string, std::string>& external_;
  const std::int64_t timestamp_ms_;
  std::string target_, port_, lane_;
  std::vector<std::pair<std::string, std::string>> labels_;
};

std::int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

EncodedWrite encodeWriteRequest(const std::string& target, const std::vector<Sample>& samples,
                                const ExportPolicy* policy, const std::map<std::string, std::string>& external_labels) {
  // One timestamp per request: the poll's latest read (every series of a
  // series set must move forward in time, and one poll's reads are close).
  std::int64_t timestamp_ms = 0;
  for (const Sample& s : samples) timestamp_ms = std::max(timestamp_ms, s.timestamp_ms);
  if (timestamp_ms == 0) timestamp_ms = nowMs();

  remote_write::WriteRequest request;
  WriteRequestSink sink(request, external_labels, timestamp_ms);
  const auto shared = std::shared_ptr<const std::vector<Sample>>(&samples, [](const std::vector<Sample>*) {});
  exporter_detail::SeriesWalker<WriteRequestSink>(sink, SeriesSelection{policy, true, true}).walk({{target, shared}});
  EncodedWrite out;
  out.samples = static_cast<std::uint64_t>(request.timeseries_size());
  std::string raw;
  request.SerializeToString(&raw);
  snappy::Compress(raw.data(), raw.size(), &out.body);
  return out;
}

}  // namespace opticsd
