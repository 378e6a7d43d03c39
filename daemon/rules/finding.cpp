#include "daemon/rules/finding.hpp"

namespace opticsd {

std::string_view toString(Severity severity) {
  switch (severity) {
    case Severity::kNone:
      return "none";
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "none";
}

Result<Severity> parseSeverity(std::string_view text) {
  if (text == "info") return Severity::kInfo;
  if (text == "warning") return Severity::kWarning;
  if (text == "critical") return Severity::kCritical;
  return fail("expected info, warning or critical, got '" + std::string(text) + "'");
}

}  // namespace opticsd
