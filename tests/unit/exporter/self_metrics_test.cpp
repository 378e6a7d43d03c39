#include "daemon/exporter/self_metrics.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "exposition.hpp"

namespace opticsd {
namespace {

using test::valueOf;
using ::testing::HasSubstr;
using ::testing::Not;

class SelfMetricsTest : public ::testing::Test {
 protected:
  std::string text() const { return test::serialize(registry_.Collect()); }
  prometheus::Registry registry_;
  SelfMetrics metrics_{registry_, "1.2.3"};
};

// prometheus-cpp sorts labels by name.
const std::string kLeaf = R"({driver="snmp",target="leaf-1"})";

TEST_F(SelfMetricsTest, PollsAreCountedTimedAndErrorsCounted) {
  metrics_.observePoll("leaf-1", "snmp", 0.2, true, 64);
  metrics_.observePoll("leaf-1", "snmp", 0.4, false, 0);
  metrics_.observePoll("leaf-1", "snmp", 3.0, true, 63);
  const std::string t = text();
  EXPECT_EQ(valueOf(t, "opticsd_poll_duration_seconds_count" + kLeaf), 3);
  EXPECT_DOUBLE_EQ(valueOf(t, "opticsd_poll_duration_seconds_sum" + kLeaf).value_or(0), 3.6);
  EXPECT_EQ(valueOf(t, R"(opticsd_poll_duration_seconds_bucket{driver="snmp",target="leaf-1",le="0.25"})"), 1);
  EXPECT_EQ(valueOf(t, R"(opticsd_poll_duration_seconds_bucket{driver="snmp",target="leaf-1",le="0.5"})"), 2);
  EXPECT_EQ(valueOf(t, "opticsd_poll_errors_total" + kLeaf), 1);
  EXPECT_EQ(valueOf(t, "opticsd_poll_samples" + kLeaf), 63);         // last successful poll
  EXPECT_EQ(valueOf(t, "opticsd_target_up" + kLeaf), std::nullopt);  // not set yet: no made-up 0
}

TEST_F(SelfMetricsTest, TargetUpAndRemoval) {
  metrics_.setTargetUp("leaf-1", "snmp", true);
  metrics_.setTargetUp("leaf-2", "snmp", false);
  metrics_.observePoll("leaf-2", "snmp", 1, false, 0);
  EXPECT_EQ(valueOf(text(), "opticsd_target_up" + kLeaf), 1);
  EXPECT_EQ(valueOf(text(), R"(opticsd_target_up{driver="snmp",target="leaf-2"})"), 0);

  metrics_.removeTarget("leaf-2");
  metrics_.removeTarget("unknown");
  const std::string t = text();
  EXPECT_THAT(t, Not(HasSubstr("leaf-2")));
  EXPECT_EQ(valueOf(t, "opticsd_target_up" + kLeaf), 1);
}

TEST_F(SelfMetricsTest, DriverChangeReplacesSeries) {
  metrics_.observePoll("leaf-1", "snmp", 0.1, false, 0);
  metrics_.observePoll("leaf-1", "sim", 0.1, true, 8);
  const std::string t = text();
  EXPECT_THAT(t, Not(HasSubstr(R"(driver="snmp")")));
  EXPECT_EQ(valueOf(t, R"(opticsd_poll_errors_total{driver="sim",target="leaf-1"})"), 0);
  EXPECT_EQ(valueOf(t, R"(opticsd_poll_samples{driver="sim",target="leaf-1"})"), 8);
}

TEST_F(SelfMetricsTest, StoreCountersFollowTotalsAndNeverGoBack) {
  metrics_.setStoreStats({.written_total = 10,
                          .dropped_total = 1,
                          .decimated_total = 90,
                          .write_errors_total = 0,
                          .queue_length = 3,
                          .lag_seconds = 1.5});
  metrics_.setStoreStats({.written_total = 25,
                          .dropped_total = 1,
                          .decimated_total = 225,
                          .write_errors_total = 2,
                          .queue_length = 0,
                          .lag_seconds = 0.25});
  metrics_.setStoreStats({.written_total = 5,
                          .dropped_total = 0,
                          .decimated_total = 0,
                          .write_errors_total = 2,
                          .queue_length = 1,
                          .lag_seconds = 0.5});
  const std::string t = text();
  EXPECT_EQ(valueOf(t, "opticsd_store_samples_written_total"), 25);
  EXPECT_EQ(valueOf(t, "opticsd_store_samples_dropped_total"), 1);
  EXPECT_EQ(valueOf(t, "opticsd_store_samples_decimated_total"), 225);
  EXPECT_EQ(valueOf(t, "opticsd_store_write_errors_total"), 2);
  EXPECT_EQ(valueOf(t, "opticsd_store_queue_length"), 1);
  EXPECT_EQ(valueOf(t, "opticsd_store_lag_seconds"), 0.5);
}

TEST_F(SelfMetricsTest, FindingsStoreUpOnlyOnceKnownAndCountersFollowTotals) {
  EXPECT_EQ(valueOf(text(), "opticsd_findings_store_up"), std::nullopt);  // storage off: not reported
  metrics_.setFindingsStoreStats({.up = true, .dropped_total = 0, .write_errors_total = 0});
  EXPECT_EQ(valueOf(text(), "opticsd_findings_store_up"), 1);
  metrics_.setFindingsStoreStats({.up = false, .dropped_total = 4, .write_errors_total = 3});
  const std::string t = text();
  EXPECT_EQ(valueOf(t, "opticsd_findings_store_up"), 0);
  EXPECT_EQ(valueOf(t, "opticsd_findings_store_events_dropped_total"), 4);
  EXPECT_EQ(valueOf(t, "opticsd_findings_store_write_errors_total"), 3);
}

TEST_F(SelfMetricsTest, BuildInfoAndConfigLoads) {
  EXPECT_EQ(valueOf(text(), R"(opticsd_build_info{version="1.2.3"})"), 1);
  metrics_.recordConfigLoad(true, 1700000000);
  metrics_.recordConfigLoad(false, 1700000100);
  const std::string t = text();
  EXPECT_EQ(valueOf(t, "opticsd_config_reload_success"), 0);
  EXPECT_EQ(valueOf(t, "opticsd_config_last_reload_timestamp_seconds"), 1700000000);
}

}  // namespace
}  // namespace opticsd
