#include "drivers/ethtool/link_monitor.hpp"

#include <gtest/gtest.h>

namespace opticsd::ethtool {
namespace {

LinkEvent event(const std::string& name, bool running) {
  LinkEvent e;
  e.name = name;
  e.running = running;
  return e;
}

TEST(LinkMonitor, CountsEveryDownTransition) {
  LinkMonitor monitor;
  monitor.apply(event("eth2", true));
  for (int flap = 0; flap < 3; ++flap) {
    monitor.apply(event("eth2", false));
    monitor.apply(event("eth2", false));  // repeated "down" (another attribute changed) is not a new transition
    monitor.apply(event("eth2", true));
  }
  EXPECT_EQ(monitor.downEvents("eth2"), 3u);
  EXPECT_EQ(monitor.downEvents("eth3"), 0u);
}

TEST(LinkMonitor, FirstDownCountsOnlyWhenKnownUp) {
  LinkMonitor monitor;
  monitor.apply(event("eth2", false));  // state unknown before: not a transition
  EXPECT_EQ(monitor.downEvents("eth2"), 0u);
  monitor.seed("eth3", true);  // a poll saw it up
  monitor.apply(event("eth3", false));
  EXPECT_EQ(monitor.downEvents("eth3"), 1u);
  monitor.seed("eth3", true);  // seeding never overrides what notifications said
  monitor.apply(event("eth3", false));
  EXPECT_EQ(monitor.downEvents("eth3"), 1u);
}

TEST(LinkMonitor, DeletedLinkForgotten) {
  LinkMonitor monitor;
  monitor.apply(event("veth0", true));
  monitor.apply(event("veth0", false));
  auto gone = event("veth0", false);
  gone.deleted = true;
  monitor.apply(gone);
  EXPECT_EQ(monitor.downEvents("veth0"), 0u);
}

}  // namespace
}  // namespace opticsd::ethtool
