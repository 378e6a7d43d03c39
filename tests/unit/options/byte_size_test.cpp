#include "drivers/options/byte_size.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

TEST(ByteSize, DecimalAndBinaryUnits) {
  EXPECT_EQ(*parseByteSize("4096"), 4096u);
  EXPECT_EQ(*parseByteSize("12B"), 12u);
  EXPECT_EQ(*parseByteSize("500MB"), 500'000'000u);
  EXPECT_EQ(*parseByteSize("2kB"), 2000u);
  EXPECT_EQ(*parseByteSize("20GiB"), 20ULL << 30);
  EXPECT_EQ(*parseByteSize("1 TiB"), 1ULL << 40);
  EXPECT_EQ(*parseByteSize("0"), 0u);
}

TEST(ByteSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "GiB", "-5MB", "1.5GB", "10mb", "10 G", "10GiBs", "99999999999999999999"}) {
    auto r = parseByteSize(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find(std::string("'") + bad + "'"), std::string::npos) << r.error().message;
  }
  EXPECT_FALSE(parseByteSize("20000000TiB")) << "overflow must be refused";
}

}  // namespace
}  // namespace opticsd
