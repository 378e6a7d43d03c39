#include "drivers/ethtool/interface_selector.hpp"

#include <gtest/gtest.h>

namespace opticsd::ethtool {
namespace {

const std::vector<std::string> kSystem = {"lo", "eth0", "enp65s0f0np0", "enp65s0f1np1", "eth2", "veth9"};

TEST(InterfaceSelector, AllByDefaultOrByWord) {
  EXPECT_EQ(selectInterfaces(kSystem, {}).selected, kSystem);
  EXPECT_EQ(selectInterfaces(kSystem, {"all"}).selected, kSystem);
}

TEST(InterfaceSelector, NamesAndGlobsInSystemOrder) {
  auto selection = selectInterfaces(kSystem, {"eth2", "enp65s0f*"});
  EXPECT_EQ(selection.selected, (std::vector<std::string>{"enp65s0f0np0", "enp65s0f1np1", "eth2"}));
  EXPECT_TRUE(selection.missing.empty());
}

TEST(InterfaceSelector, MissingExplicitNamesReported) {
  auto selection = selectInterfaces(kSystem, {"eth3", "ib*", "eth[01]"});
  EXPECT_EQ(selection.selected, (std::vector<std::string>{"eth0"}));
  EXPECT_EQ(selection.missing, (std::vector<std::string>{"eth3"}));  // a glob matching nothing is not an error
}

TEST(InterfaceSelector, SystemListHasLoopback) {
  const auto names = systemInterfaces();
  EXPECT_NE(std::find(names.begin(), names.end(), "lo"), names.end());
}

}  // namespace
}  // namespace opticsd::ethtool
