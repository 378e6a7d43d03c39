#pragma once
// Vendor differences as data, as the SNMP profiles are: which paths a NOS
// serves, which rules turn them into Sample fields, and its value
// conventions. Adding a NOS is a row in vendor_variants.cpp (see README.md).

#include <span>
#include <string_view>

#include "drivers/gnmi/leaf_rules.hpp"

namespace opticsd::gnmi {

struct VendorVariant {
  std::string_view name;
  std::string_view summary;
  std::string_view origin;                            // subscription prefix origin ("" none)
  std::string_view target;                            // subscription prefix target (SONiC: "STATE_DB")
  std::span<const std::string_view> sample_paths;     // values: SAMPLE at the poll interval
  std::span<const std::string_view> on_change_paths;  // oper-status, presence, identity: ON_CHANGE
  std::span<const LeafRule> rules;
  int first_channel_index;  // the raw channel index of lane 1
  // OpenConfig targets report 0 (dBm) as the power of a dark lane while the
  // interface is down: read as the -40 dBm floor plus the no-light flag.
  bool zero_power_when_down_is_dark;
};

std::span<const VendorVariant> vendorVariants();
const VendorVariant* findVendorVariant(std::string_view name);

}  // namespace opticsd::gnmi
