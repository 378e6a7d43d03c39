#include "drivers/gnmi/gnmi_path.hpp"

#include <gtest/gtest.h>

namespace opticsd::gnmi {
namespace {

TEST(GnmiPath, ParsesElementsKeysAndOrigin) {
  auto p = parsePath("openconfig:/components/component[name=Ethernet1/1]/transceiver/state/vendor");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->origin, "openconfig");
  ASSERT_EQ(p->elems.size(), 5u);
  EXPECT_EQ(p->elems[1].name, "component");
  ASSERT_NE(p->elems[1].key("name"), nullptr);
  EXPECT_EQ(*p->elems[1].key("name"), "Ethernet1/1");  // '/' inside a key value is not a separator
  EXPECT_EQ(p->elems[1].key("index"), nullptr);
  EXPECT_EQ(p->elems[4].name, "vendor");
}

TEST(GnmiPath, SeveralKeysAndEscapes) {
  auto p = parsePath(R"(/a[x=1][y=b\]c]/d)");
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_EQ(p->elems[0].keys.size(), 2u);
  EXPECT_EQ(*p->elems[0].key("y"), "b]c");
  EXPECT_EQ(p->toString(), R"(/a[x=1][y=b\]c]/d)");
}

TEST(GnmiPath, RoundTripsThroughText) {
  const std::string text = "/interfaces/interface[name=et-0/0/1]/state/oper-status";
  auto p = parsePath(text);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->toString(), text);
}

TEST(GnmiPath, RejectsMalformedPaths) {
  EXPECT_FALSE(parsePath("/a[name]/b"));
  EXPECT_FALSE(parsePath("/a[name=x/b"));
  EXPECT_FALSE(parsePath("/a//b"));
  EXPECT_FALSE(parsePath("/a/"));
  EXPECT_FALSE(parsePath("/a[=x]"));
  auto bad = parsePath("/a[name=x]b");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("offset"), std::string::npos);
}

}  // namespace
}  // namespace opticsd::gnmi
