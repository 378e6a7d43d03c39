#include "daemon/remote_write/remote_write_config.hpp"

#include <regex>

namespace opticsd {
namespace {

constexpr std::string_view kScheme = "http://";

bool validLabelName(const std::string& name) {
  static const std::regex kName("[a-zA-Z_][a-zA-Z0-9_]*");
  return std::regex_match(name, kName) && !name.starts_with("__");
}

}  // namespace

RemoteWriteConfig readRemoteWriteConfig(OptionReader r) {
  RemoteWriteConfig out;
  out.url = r.requiredString("url");
  if (out.url.empty()) {
    // requiredString said so
  } else if (!out.url.starts_with(kScheme)) {
    r.error("url", "expected http://HOST:PORT/PATH (plain HTTP), got '" + out.url + "'");
  } else {
    std::string rest = out.url.substr(kScheme.size());
    const auto slash = rest.find('/');
    if (slash != std::string::npos) {
      out.path = rest.substr(slash);
      rest.resize(slash);
    }
    const auto colon = rest.rfind(':');
    if (colon != std::string::npos && rest.find(']') == std::string::npos) {
      out.port = rest.substr(colon + 1);
      rest.resize(colon);
    }
    out.host = rest;
    if (out.host.empty() || out.port.empty() || out.port.find_first_not_of("0123456789") != std::string::npos) {
      r.error("url", "expected http://HOST:PORT/PATH, got '" + out.url + "'");
    }
  }
  if (auto labels = r.raw("external_labels")) {
    if (!labels->IsMap()) {
      r.error("external_labels", "expected a mapping of label names to values, e.g. {cluster: fab-a}");
    } else {
      for (const auto& entry : *labels) {
        const std::string name = entry.first.Scalar();
        if (!validLabelName(name)) r.error("external_labels", "'" + name + "' is not a label name");
        if (!entry.second.IsScalar() || entry.second.Scalar().empty()) {
          r.error("external_labels", "'" + name + "' needs a non-empty value");
        } else {
          out.external_labels[name] = entry.second.Scalar();
        }
      }
    }
  }
  if (auto v = r.optionalInt("queue_samples", 1000, 1'000'000'000)) out.queue_samples = static_cast<std::uint64_t>(*v);
  if (auto v = r.optionalDuration("timeout")) out.timeout = *v;
  if (auto v = r.optionalDuration("max_backoff")) out.max_backoff = *v;
  if (out.max_backoff < out.min_backoff) r.error("max_backoff", "must be at least 100ms");
  r.rejectUnknownKeys();
  return out;
}

}  // namespace opticsd
