#pragma once
// A FindingSink that remembers every call, for tests.

#include <map>
#include <string>
#include <vector>

#include "daemon/rules/finding_sink.hpp"

namespace opticsd::test {

class RecordingSink : public FindingSink {
 public:
  void record(const Finding& f) override { records.push_back(f); }
  void replaceSuspects(const std::string& target, std::vector<Suspect> s) override { suspects[target] = std::move(s); }

  // The first raise of `rule` on `port`, if any.
  const Finding* firstRaise(const std::string& port, const std::string& rule) const {
    for (const auto& f : records) {
      if (f.port == port && f.rule == rule && f.active()) return &f;
    }
    return nullptr;
  }
  std::size_t raises() const {
    std::size_t n = 0;
    for (const auto& f : records) n += f.active() ? 1 : 0;
    return n;
  }

  std::vector<Finding> records;
  std::map<std::string, std::vector<Suspect>> suspects;
};

}  // namespace opticsd::test
