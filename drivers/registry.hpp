#pragma once
// The one explicit table of drivers (in the manner of chrony's refclock table
// and lldpd's protos[]): adding a driver is its folder plus one row here.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "drivers/driver.hpp"
#include "drivers/options/option_reader.hpp"

namespace boost::asio {
class io_context;
}

namespace opticsd {

// What a driver factory gets. `options` is the target's own config mapping;
// the factory reads its keys from it and reports problems there. With a null
// `io` the factory only validates (check-config) and must not start anything.
struct DriverContext {
  std::string target_name;
  boost::asio::io_context* io = nullptr;
};

using DriverFactory = std::unique_ptr<Driver> (*)(const DriverContext& context, OptionReader& options);

struct DriverEntry {
  std::string_view name;
  std::string_view summary;
  DriverFactory create;  // returns null when the options are invalid (reported in `options`)
};

std::span<const DriverEntry> driverRegistry();
const DriverEntry* findDriver(std::string_view name);

}  // namespace opticsd
