#pragma once
// Loads a tests/fixtures/eeprom/<name>/module.dump through the real dump parser.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "drivers/eeprom/decoder.hpp"
#include "drivers/eeprom/dump_file.hpp"

namespace opticsd::eeprom::test {

inline std::vector<std::uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline ModuleMemory loadFixture(const std::string& name) {
  const auto bytes = readFile(std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/eeprom/" + name + "/module.dump");
  EXPECT_FALSE(bytes.empty()) << name;
  auto memory = parseDumpFile(bytes);
  EXPECT_TRUE(memory.has_value()) << name << ": " << (memory ? "" : memory.error().message);
  return memory ? *memory : ModuleMemory{};
}

inline Sample decodeFixture(const std::string& name) {
  Sample sample;
  decodeModule(loadFixture(name), sample);
  return sample;
}

inline double lane(const Sample& s, std::size_t number, LaneMetric m) {
  return s.lanes.at(number - 1).values[m].value_or(-999.0);
}

inline AlarmFlags laneFlags(const Sample& s, std::size_t number, LaneMetric m) {
  return s.lanes.at(number - 1).flags[static_cast<std::size_t>(m)].value_or(AlarmFlags{});
}

}  // namespace opticsd::eeprom::test
