#include "daemon/config/listen_address.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

TEST(ListenAddress, AcceptsTheFormsOtherExportersUse) {
  EXPECT_EQ(normalizeListenAddress("127.0.0.1:9464").value(), "127.0.0.1:9464");
  EXPECT_EQ(normalizeListenAddress(":9464").value(), "0.0.0.0:9464");
  EXPECT_EQ(normalizeListenAddress("localhost:9464").value(), "127.0.0.1:9464");
  EXPECT_EQ(normalizeListenAddress("[::1]:9464").value(), "[::1]:9464");
  EXPECT_EQ(normalizeListenAddress("[::]:0").value(), "[::]:0");
}

TEST(ListenAddress, RefusesWhatCouldNotBeBoundWithTheReason) {
  EXPECT_NE(normalizeListenAddress("127.0.0.1:99999").error().message.find("0 to 65535"), std::string::npos);
  EXPECT_NE(normalizeListenAddress("127.0.0.1:").error().message.find("0 to 65535"), std::string::npos);
  EXPECT_NE(normalizeListenAddress("127.0.0.1:9x").error().message.find("0 to 65535"), std::string::npos);
  EXPECT_NE(normalizeListenAddress("9464").error().message.find("HOST:PORT"), std::string::npos);
  EXPECT_NE(normalizeListenAddress("metrics.example:9464").error().message.find("not an IP address"),
            std::string::npos);
  EXPECT_NE(normalizeListenAddress("::1:9464").error().message.find("brackets"), std::string::npos);
  EXPECT_FALSE(normalizeListenAddress("[nope]:9464"));
  EXPECT_FALSE(normalizeListenAddress("256.1.1.1:9464"));
}

TEST(ListenAddress, TellsLoopbackFromReachableAddresses) {
  EXPECT_TRUE(isLoopbackListenAddress("127.0.0.1:9464"));
  EXPECT_TRUE(isLoopbackListenAddress("[::1]:9464"));
  EXPECT_FALSE(isLoopbackListenAddress("0.0.0.0:9464"));
  EXPECT_FALSE(isLoopbackListenAddress("[::]:9464"));
  EXPECT_FALSE(isLoopbackListenAddress("10.0.0.1:9464"));
}

}  // namespace
}  // namespace opticsd

namespace opticsd {
namespace {

TEST(ListenAddress, AnEndpointOpenToTheNetworkWithoutTlsOrAuthIsWarnedAbout) {
  EXPECT_TRUE(openMetricsWarning("0.0.0.0:9464", false, false));
  EXPECT_TRUE(openMetricsWarning("10.0.0.1:9464", false, false));
  EXPECT_FALSE(openMetricsWarning("0.0.0.0:9464", true, false));
  EXPECT_FALSE(openMetricsWarning("0.0.0.0:9464", false, true));
  EXPECT_FALSE(openMetricsWarning("127.0.0.1:9464", false, false));
}

}  // namespace
}  // namespace opticsd
