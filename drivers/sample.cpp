#include "drivers/sample.hpp"

namespace opticsd {

std::string_view toString(ModuleFamily family) {
  switch (family) {
    case ModuleFamily::kSff8472:
      return "sff8472";
    case ModuleFamily::kSff8636:
      return "sff8636";
    case ModuleFamily::kCmis:
      return "cmis";
    case ModuleFamily::kUnknown:
      break;
  }
  return "unknown";
}

std::string_view toString(Modulation modulation) {
  switch (modulation) {
    case Modulation::kNrz:
      return "nrz";
    case Modulation::kPam4:
      return "pam4";
    case Modulation::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace opticsd
