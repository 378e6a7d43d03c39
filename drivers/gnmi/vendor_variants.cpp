#include "drivers/gnmi/vendor_variants.hpp"

#include <vector>

#include "drivers/gnmi/variant_file.hpp"

namespace opticsd::gnmi {
namespace {

// The shipped variant files, loaded once as a set by the user files' loader
// (a shipped file's `extends:` names another shipped file).
class ShippedVariants {
 public:
  ShippedVariants() {
    std::vector<VariantSource> sources;
    for (const auto& f : embeddedVariantFiles()) {
      sources.push_back({"schemas/gnmi-variants/" + std::string(f.file_name) + " (built in)", std::string(f.file_name),
                         std::string(f.text)});
    }
    set_ = loadVariantSet(sources, nullptr);
    for (const auto& v : set_.variants) {
      if (v) variants_.push_back(v->variant);
    }
  }
  std::span<const VendorVariant> variants() const { return variants_; }
  std::span<const std::string> errors() const { return set_.errors; }

 private:
  VariantSet set_;
  std::vector<VendorVariant> variants_;  // copies whose views point into set_
};

const ShippedVariants& shipped() {
  static const ShippedVariants instance;
  return instance;
}

}  // namespace

std::span<const VendorVariant> vendorVariants() { return shipped().variants(); }

const VendorVariant* findVendorVariant(std::string_view name) {
  for (const auto& v : shipped().variants()) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

std::span<const std::string> shippedVariantErrors() { return shipped().errors(); }

}  // namespace opticsd::gnmi
