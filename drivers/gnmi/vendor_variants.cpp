#include "drivers/gnmi/vendor_variants.hpp"

#include <memory>
#include <vector>

#include "drivers/gnmi/variant_file.hpp"

namespace opticsd::gnmi {
namespace {

// The shipped variant files, parsed once by the user files' loader. A file's
// `extends:` names another shipped file (name.yaml), loaded first.
class ShippedVariants {
 public:
  ShippedVariants() {
    const auto files = embeddedVariantFiles();
    loaded_.resize(files.size());
    state_.assign(files.size(), State::kNotLoaded);
    for (std::size_t i = 0; i < files.size(); ++i) load(i);
    for (const auto& v : loaded_) {
      if (v) variants_.push_back(v->variant);
    }
  }
  std::span<const VendorVariant> variants() const { return variants_; }
  std::span<const std::string> errors() const { return errors_; }

 private:
  enum class State { kNotLoaded, kLoading, kLoaded };

  const VendorVariant* load(std::size_t i) {
    const auto files = embeddedVariantFiles();
    if (state_[i] == State::kLoading) return nullptr;  // an extends: cycle
    if (state_[i] == State::kNotLoaded) {
      state_[i] = State::kLoading;
      const std::string file = "schemas/gnmi-variants/" + std::string(files[i].file_name) + " (built in)";
      auto parsed = parseShippedVariantFile(files[i].text, file, [&](std::string_view name) { return byName(name); });
      if (!parsed) {
        errors_.push_back(parsed.error().message);
      } else if (std::string((*parsed)->variant.name) + ".yaml" != files[i].file_name) {
        errors_.push_back(file + ": name '" + std::string((*parsed)->variant.name) + "' is not the file's name");
      } else {
        loaded_[i] = *parsed;
      }
      state_[i] = State::kLoaded;
    }
    return loaded_[i] ? &loaded_[i]->variant : nullptr;
  }
  const VendorVariant* byName(std::string_view name) {
    const auto files = embeddedVariantFiles();
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (files[i].file_name == std::string(name) + ".yaml") return load(i);
    }
    return nullptr;
  }

  std::vector<std::shared_ptr<const LoadedVariant>> loaded_;
  std::vector<State> state_;
  std::vector<VendorVariant> variants_;  // copies whose views point into loaded_
  std::vector<std::string> errors_;
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
