#include "daemon/exporter/export_detail.hpp"

namespace opticsd {

void ExportPolicy::setTarget(const std::string& target, ExportDetail detail, const std::vector<std::string>& ports) {
  TargetRule& rule = targets_[target];
  if (ports.empty()) {
    rule.all_ports = detail;
    return;
  }
  for (const auto& port : ports) rule.ports[port] = detail;
}

ExportDetail ExportPolicy::detailFor(std::string_view target, std::string_view port) const {
  const auto t = targets_.find(target);
  if (t == targets_.end()) return instance_;
  if (const auto p = t->second.ports.find(port); p != t->second.ports.end()) return p->second;
  return t->second.all_ports.value_or(instance_);
}

ExportSetting readExportSetting(OptionReader r, bool allow_ports) {
  ExportSetting out;
  if (auto v = r.optionalString("detail")) {
    if (*v == "default") {
      out.detail = ExportDetail::kDefault;
    } else if (*v == "full") {
      out.detail = ExportDetail::kFull;
    } else {
      r.error("detail", "expected default or full, got '" + *v + "'");
    }
  }
  if (allow_ports && r.has("ports")) {
    out.ports = r.stringList("ports");
    if (out.ports.empty()) r.error("ports", "expected one or more port names, e.g. [Ethernet3, Ethernet4]");
  }
  if (!out.ports.empty() && !out.detail) r.error("", "ports needs a detail for them");
  r.rejectUnknownKeys();
  return out;
}

}  // namespace opticsd
