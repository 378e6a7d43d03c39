// A Collectable's whole-instance text written target by target is its
// Collect()'s text, byte for byte.
#include "daemon/exporter/collectable_text.hpp"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <map>

#include "daemon/exporter/target_collectable.hpp"
#include "daemon/exporter/target_freshness.hpp"

namespace opticsd {
namespace {

std::string joined(const std::vector<std::string>& texts) {
  std::string out;
  for (const auto& t : texts) out += t;
  return out;
}

std::string collectText(const prometheus::Collectable& c) {
  return prometheus::TextSerializer().Serialize(c.Collect());
}

// Families a, b and c (in that order), each target having some of them.
class Fleet : public prometheus::Collectable, public TargetCollectable {
 public:
  explicit Fleet(std::map<std::string, std::string> families_by_target, bool names_targets = true)
      : families_(std::move(families_by_target)), names_targets_(names_targets) {}

  std::vector<prometheus::MetricFamily> Collect() const override { return render(families_); }
  std::vector<prometheus::MetricFamily> collectTarget(std::string_view target) const override {
    std::map<std::string, std::string> one;
    if (const auto it = families_.find(std::string(target)); it != families_.end()) one.insert(*it);
    return render(one);
  }
  std::optional<std::vector<std::string>> collectedTargets() const override {
    if (!names_targets_) return std::nullopt;
    std::vector<std::string> names;
    for (const auto& entry : families_) names.push_back(entry.first);
    return names;
  }

 private:
  static std::vector<prometheus::MetricFamily> render(const std::map<std::string, std::string>& families) {
    std::vector<prometheus::MetricFamily> out;
    for (const char name : std::string("abc")) {
      prometheus::MetricFamily f{
          std::string("opticsd_") + name, name == 'b' ? "" : "help", prometheus::MetricType::Gauge, {}};
      for (const auto& [target, has] : families) {
        if (has.find(name) == std::string::npos) continue;
        for (int port = 1; port <= 2; ++port) {
          prometheus::ClientMetric m;
          m.label = {{"target", target}, {"port", std::to_string(port)}};
          m.gauge.value = 0.5 * port;
          f.metric.push_back(m);
        }
      }
      if (!f.metric.empty()) out.push_back(std::move(f));
    }
    return out;
  }

  std::map<std::string, std::string> families_;
  bool names_targets_;
};

TEST(CollectableText, TargetByTargetIsTheWholeCollectsText) {
  // Family a first appears with the second target, before the b already seen.
  const Fleet fleet({{"leaf-1", "b"}, {"leaf-2", "ac"}, {"leaf-3", "abc"}, {"leaf-4", "c"}});
  const auto texts = collectableFamilyTexts(fleet);
  EXPECT_EQ(texts.size(), 3u);  // one per family
  EXPECT_EQ(joined(texts), collectText(fleet));
  EXPECT_EQ(texts.front().rfind("# HELP opticsd_a help\n# TYPE opticsd_a gauge\n", 0), 0u) << texts.front();
}

TEST(CollectableText, WithoutItsTargetsNamedOrAKnownOrderOrWithNoneItIsCollectsText) {
  const Fleet unnamed({{"leaf-1", "ab"}, {"leaf-2", "c"}}, false);
  EXPECT_EQ(joined(collectableFamilyTexts(unnamed)), collectText(unnamed));
  // No target has both a and c: their order is not known, so Collect() decides.
  const Fleet apart({{"leaf-1", "a"}, {"leaf-2", "c"}});
  EXPECT_EQ(joined(collectableFamilyTexts(apart)), collectText(apart));
  const Fleet empty({});
  EXPECT_EQ(joined(collectableFamilyTexts(empty)), collectText(empty));
  EXPECT_TRUE(collectableFamilyTexts(empty).empty());
}

TEST(CollectableText, TargetFreshnessIsWrittenTargetByTargetTheSame) {
  TargetFreshness freshness;
  freshness.polledOk("spine-1", "snmp", 1'700'000'000'000);
  freshness.setStale("leaf-2", "sim", true);  // never polled: no last-success series
  freshness.polledOk("leaf-1", "sim", 1'700'000'030'000);
  ASSERT_EQ(freshness.collectedTargets()->size(), 3u);
  EXPECT_EQ(joined(collectableFamilyTexts(freshness)), collectText(freshness));
}

}  // namespace
}  // namespace opticsd
