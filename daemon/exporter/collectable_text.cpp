#include "daemon/exporter/collectable_text.hpp"

#include <prometheus/text_serializer.h>

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "daemon/exporter/target_collectable.hpp"

namespace opticsd {
namespace {

std::string serialized(prometheus::MetricFamily family) {
  std::vector<prometheus::MetricFamily> one;
  one.push_back(std::move(family));
  return prometheus::TextSerializer().Serialize(one);
}

// Its HELP/TYPE lines alone.
std::string header(const prometheus::MetricFamily& family) {
  return serialized(prometheus::MetricFamily{family.name, family.help, family.type, {}});
}

// Collect()'s family order, from the orders the targets gave them in (an
// edge from each family to the next in one target's list): none unless one
// order alone fits every target.
std::optional<std::vector<std::string>> onlyOrder(const std::vector<std::string>& names,
                                                  const std::set<std::pair<std::string, std::string>>& before) {
  std::map<std::string, std::size_t> incoming;
  for (const auto& name : names) incoming[name] = 0;
  for (const auto& edge : before) ++incoming[edge.second];
  std::vector<std::string> order;
  while (order.size() < names.size()) {
    std::vector<std::string> ready;
    for (const auto& [name, n] : incoming) {
      if (n == 0) ready.push_back(name);
    }
    if (ready.size() != 1) return std::nullopt;  // two could come first (or a cycle): not known
    order.push_back(ready.front());
    incoming.erase(ready.front());
    for (const auto& edge : before) {
      if (edge.first == ready.front()) --incoming[edge.second];
    }
  }
  return order;
}

}  // namespace

std::vector<std::string> collectableFamilyTexts(const prometheus::Collectable& collectable) {
  const auto* per_target = dynamic_cast<const TargetCollectable*>(&collectable);
  const auto targets = per_target != nullptr ? per_target->collectedTargets() : std::nullopt;
  const auto whole = [&collectable] {
    std::vector<std::string> out;
    for (auto& family : collectable.Collect()) out.push_back(serialized(std::move(family)));
    return out;
  };
  if (!targets || targets->empty()) return whole();
  std::map<std::string, std::string> texts;  // by family name: header, then the series target after target
  std::vector<std::string> names;            // as first seen
  std::set<std::pair<std::string, std::string>> before;
  for (const std::string& target : *targets) {
    std::vector<prometheus::MetricFamily> families = per_target->collectTarget(target);
    for (std::size_t i = 0; i < families.size(); ++i) {
      if (i + 1 < families.size()) before.emplace(families[i].name, families[i + 1].name);
      const std::string name = families[i].name;
      const std::string head = header(families[i]);
      std::string text = serialized(std::move(families[i]));
      const auto [it, first] = texts.try_emplace(name);
      if (first) {
        names.push_back(name);
        it->second = std::move(text);
      } else {
        it->second.append(text, head.size());  // its series only
      }
    }
  }
  const auto order = onlyOrder(names, before);
  if (!order) return whole();  // rare: the text is let go, Collect() decides
  std::vector<std::string> out;
  for (const auto& name : *order) out.push_back(std::move(texts[name]));
  return out;
}

}  // namespace opticsd
