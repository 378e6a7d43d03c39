// A candidate rules file for `opticsd backtest --rules`: read like the
// config's rules section; every error names file:line:col.
#include "daemon/backtest/candidate_rules.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/unit/backtest/sim_fleet_history.hpp"

namespace opticsd {
namespace {

std::filesystem::path write(const test::TempFile& f, const std::string& text) {
  std::ofstream(f.path()) << text;
  return f.path();
}

TEST(CandidateRules, ReadsTheRulesSectionWithShadowModes) {
  test::TempFile f("candidate.yaml");
  auto set = loadCandidateRules(write(f,
                                      "rules:\n"
                                      "  rules:\n"
                                      "    - name: rx_power_low\n"
                                      "      warn_below: -8\n"
                                      "    - name: ber_early\n"
                                      "      type: threshold\n"
                                      "      metric: pre_fec_ber_ratio\n"
                                      "      warn_above: 1e-7\n"
                                      "      mode: shadow\n"));
  ASSERT_TRUE(set) << set.error().message;
  ASSERT_NE(set->find("ber_early"), nullptr);
  EXPECT_TRUE(set->find("ber_early")->shadow);
  ASSERT_NE(set->find("rx_power_low"), nullptr);  // the shipped rules are kept
  EXPECT_EQ(set->find("rx_power_low")->base.warn_below, -8);
}

TEST(CandidateRules, AnErrorNamesFileLineAndColumn) {
  test::TempFile f("candidate.yaml");
  auto set = loadCandidateRules(write(f,
                                      "rules:\n"
                                      "  rules:\n"
                                      "    - name: ber_early\n"
                                      "      type: threshold\n"
                                      "      metric: pre_fec_ber_ratio\n"
                                      "      warn_above: lots\n"));
  ASSERT_FALSE(set);
  EXPECT_NE(set.error().message.find(f.path().string() + ":6:"), std::string::npos) << set.error().message;
  EXPECT_NE(set.error().message.find("warn_above"), std::string::npos) << set.error().message;
}

TEST(CandidateRules, SyntaxErrorsAndMissingSectionsToo) {
  test::TempFile f("candidate.yaml");
  auto bad = loadCandidateRules(write(f, "rules:\n  rules: [\n    - name: x\n"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(f.path().string() + ":"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("YAML syntax error"), std::string::npos) << bad.error().message;
  auto none = loadCandidateRules(write(f, "poll: {interval: 30s}\n"));
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find(":1:1: expected a top-level `rules:`"), std::string::npos)
      << none.error().message;
  EXPECT_FALSE(loadCandidateRules("/nonexistent/candidate.yaml"));
}

}  // namespace
}  // namespace opticsd
