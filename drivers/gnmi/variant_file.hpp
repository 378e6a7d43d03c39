#pragma once
// A gNMI vendor variant as data: a YAML file (schemas/gnmi-variants/README.md)
// that names the subscription, the origins, the channel numbering and the
// rules, so a NOS the shipped variants miss needs no rebuild. `extends:` a
// shipped variant starts from its rules and paths; the file's own rules are
// tried first. Rules name where a value lands by the metric catalogue's keys
// (drivers/measurement.hpp), the vocabulary the SNMP profiles use.
//
// A LoadedVariant owns every string its VendorVariant views; it is immutable
// after loading and shared (shared_ptr) by the options that use it.

#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/gnmi/vendor_variants.hpp"
#include "drivers/result.hpp"

namespace opticsd::gnmi {

struct LoadedVariant {
  VendorVariant variant{};
  std::deque<std::string> text;  // owns what variant and rules view (a deque never moves its strings)
  std::vector<std::string_view> sample_paths, on_change_paths, origins;
  std::vector<std::string_view> sample_path_targets, on_change_path_targets;  // parallel to the paths
  std::vector<LeafRule> rules;
};

// Resolves an `extends:` name to a loaded variant (null: unknown).
using VariantLookup = std::function<const VendorVariant*(std::string_view name)>;

// Parses a variant file's text; errors name `file:line:col`. `extends:` and
// the shipped names are looked up with findVendorVariant.
Result<std::shared_ptr<const LoadedVariant>> parseVariantFile(std::string_view yaml, const std::string& file);
// The same for a shipped file: its name may be a shipped one, `extends:` is
// resolved by `lookup` (the shipped set while it loads).
Result<std::shared_ptr<const LoadedVariant>> parseShippedVariantFile(std::string_view yaml, const std::string& file,
                                                                     const VariantLookup& lookup);
Result<std::shared_ptr<const LoadedVariant>> loadVariantFile(const std::string& path);

// One variant file of a set: its text and where it came from.
struct VariantSource {
  std::string label;      // errors and logs name it: a path, or a shipped file
  std::string file_name;  // "openconfig.yaml": `extends: openconfig` finds it
  std::string text;
};

// Variant files loaded together, as the shipped ones and a user's directory
// are: `extends:` names another file of the set (NAME.yaml, loaded first) or
// else what `fallback` finds; each file's `name:` must be its file name.
// variants[i] is null where sources[i] failed (its error is in errors).
struct VariantSet {
  std::vector<std::string> labels;
  std::vector<std::shared_ptr<const LoadedVariant>> variants;
  std::vector<std::string> errors;
  const VendorVariant* find(std::string_view name) const;
};
VariantSet loadVariantSet(std::span<const VariantSource> sources, const VariantLookup& fallback);

// The *.yaml files of a user's variant directories, by file name; a later
// directory's file replaces an earlier one's of the same name.
Result<std::vector<VariantSource>> readVariantDirectories(std::span<const std::string> dirs);

}  // namespace opticsd::gnmi
