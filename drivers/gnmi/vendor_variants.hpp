#pragma once
// Vendor differences as data, as the SNMP profiles are: which paths a NOS
// serves, which rules turn them into Sample fields, and its value
// conventions. The shipped variants are YAML files (schemas/gnmi-variants)
// compiled in as text and loaded by variant_file's loader on first use;
// adding a NOS is a file, no rebuild (schemas/gnmi-variants/README.md).

#include <span>
#include <string>
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
  // The prefix target of each path above, where a path names its own (index
  // for index; empty: every path has `target`). A gNMI Subscribe has one
  // prefix, so each distinct target is a Subscribe call of its own: SONiC's
  // server reads one Redis DB per call (STATE_DB optics, COUNTERS_DB FEC bins).
  std::span<const std::string_view> sample_path_targets;
  std::span<const std::string_view> on_change_path_targets;
  std::span<const LeafRule> rules;
  // The gNMI origins its model is served under, in received paths and
  // prefixes (gNMI specification 0.10 section 2.7): "" (unset), the model's
  // origin ("openconfig"), "rfc7951" (module-qualified names), or a NOS's own.
  std::span<const std::string_view> origins;
  // The raw channel index of lane 1 where the device's own numbering does not
  // say (detect_channel_base), or always (not detected).
  int first_channel_index;
  // Decide 0- or 1-based channels per device from the indexes it sends
  // (TelemetryState::channelBase); false where the rules fix the lane number.
  bool detect_channel_base;
  // OpenConfig targets report 0 (dBm) as the power of a dark lane while the
  // interface is down: read as the -40 dBm floor plus the no-light flag.
  bool zero_power_when_down_is_dark;
};

// The shipped variants, loaded once (thread-safe); a shipped file that fails
// to load is left out and its error kept in shippedVariantErrors().
std::span<const VendorVariant> vendorVariants();
const VendorVariant* findVendorVariant(std::string_view name);
std::span<const std::string> shippedVariantErrors();

// The shipped files' texts (generated from schemas/gnmi-variants at build time).
struct EmbeddedVariantFile {
  std::string_view file_name;
  std::string_view text;
};
std::span<const EmbeddedVariantFile> embeddedVariantFiles();

}  // namespace opticsd::gnmi
