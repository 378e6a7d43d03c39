// VDM errored-frames statistics (CMIS VDM types 17, 19, 21: minimum, maximum
// and average over the module's interval, media input) reach their own lane
// values. The 400G DR4 fixture carries type 23 (current) on lane 1 at 3e-8;
// each test retypes that descriptor in place and expects the same value
// under the statistic's metric, and nothing under the current one.
#include <gtest/gtest.h>

#include <utility>

#include "drivers/eeprom/cmis_vdm.hpp"
#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

constexpr std::uint8_t kCurrentMediaInput = 23;

// The descriptor slot of group 0 (page 20h) whose observable type is `type_id`.
int slotOf(const ModuleMemory& memory, std::uint8_t type_id) {
  const std::uint8_t* descriptors = detail::fullPage(memory, 0, kVdmDescriptorPage);
  if (descriptors == nullptr) return -1;
  for (int slot = 0; slot < 64; ++slot) {
    if (descriptors[2 * slot + 1] == type_id) return slot;
  }
  return -1;
}

TEST(ErroredFramesStats, MinimumMaximumAndAverageReachTheirOwnLaneValues) {
  for (const auto& [type_id, metric] : {std::pair{std::uint8_t{17}, LaneMetric::kErroredFramesMinRatio},
                                        std::pair{std::uint8_t{19}, LaneMetric::kErroredFramesMaxRatio},
                                        std::pair{std::uint8_t{21}, LaneMetric::kErroredFramesAvgRatio}}) {
    ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
    const int slot = slotOf(memory, kCurrentMediaInput);
    ASSERT_GE(slot, 0) << "the fixture has no errored-frames observable";
    const std::uint8_t retyped[] = {type_id};
    memory.write(kI2cAddressA0, 0, kVdmDescriptorPage, 128 + 2 * static_cast<std::size_t>(slot) + 1, retyped);
    Sample s;
    decodeModule(memory, s);
    EXPECT_NEAR(lane(s, 1, metric), 3e-8, 1e-20) << "type " << int{type_id};
    EXPECT_FALSE(s.lanes[0].values[LaneMetric::kErroredFramesRatio]) << "type " << int{type_id};
  }
}

}  // namespace
}  // namespace opticsd::eeprom::test
