// Edge cases: F16 corners, unknown and erased modules, truncated memory, reuse.
#include <gtest/gtest.h>

#include <cmath>

#include "drivers/eeprom/cmis_vdm.hpp"
#include "drivers/eeprom/decode_common.hpp"
#include "drivers/eeprom/decoder.hpp"
#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

ModuleMemory filled(std::uint8_t identifier, std::uint8_t fill, std::initializer_list<std::uint8_t> pages) {
  ModuleMemory m;
  std::array<std::uint8_t, 256> window{};
  window.fill(fill);
  window[0] = identifier;
  m.write(kI2cAddressA0, 0, 0, 0, window);
  for (std::uint8_t page : pages) m.write(kI2cAddressA0, 0, page, 128, std::span(window).subspan(128));
  m.write(kI2cAddressA2, 0, 0, 0, std::span(window));
  return m;
}

void expectAllFinite(const Sample& s) {
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (auto v = s.module[static_cast<ModuleMetric>(i)]) {
      EXPECT_TRUE(std::isfinite(*v)) << info(static_cast<ModuleMetric>(i)).key;
    }
  }
  for (const auto& lane : s.lanes) {
    for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
      if (auto v = lane.values[static_cast<LaneMetric>(i)]) {
        EXPECT_TRUE(std::isfinite(*v)) << info(static_cast<LaneMetric>(i)).key;
      }
    }
  }
}

TEST(VdmF16, CornerValues) {
  EXPECT_EQ(decodeF16(0x0000), 0.0);
  EXPECT_DOUBLE_EQ(decodeF16(0xFFFF), 2047e7);             // m = 2047, e = 31 -> 2047 x 10^7
  EXPECT_DOUBLE_EQ(decodeF16(0x07FF), 2047e-24);           // e = 0
  EXPECT_DOUBLE_EQ(decodeF16(0xF800), 0.0);                // mantissa 0, any exponent
  EXPECT_DOUBLE_EQ(decodeF16((24u << 11) | 1u), 1.0);      // e = 24 -> 10^0
  EXPECT_DOUBLE_EQ(decodeF16((19u << 11) | 24u), 2.4e-4);  // typical PAM4 BER
  EXPECT_DOUBLE_EQ(decodeF16((12u << 11) | 1u), 1e-12);    // the NRZ alert level
}

TEST(VdmTypes, KnownAndUnknown) {
  ASSERT_NE(vdmTypeInfo(15), nullptr);
  EXPECT_EQ(vdmTypeInfo(15)->encoding, VdmEncoding::kF16);
  EXPECT_EQ(vdmTypeInfo(4)->encoding, VdmEncoding::kS16);
  EXPECT_EQ(vdmTypeInfo(0), nullptr);
  EXPECT_EQ(vdmTypeInfo(25), nullptr);
  EXPECT_EQ(vdmTypeInfo(0xFF), nullptr);
}

TEST(Identification, UnknownTypeIsNamedNotGuessed) {
  for (std::uint8_t id : {std::uint8_t{0x00}, std::uint8_t{0x06}, std::uint8_t{0xFF}}) {
    Sample s;
    decodeModule(filled(id, 0x00, {0}), s);
    ASSERT_EQ(s.issues.size(), 1u);
    char want[40];
    std::snprintf(want, sizeof want, "unsupported module type 0x%02x", id);
    EXPECT_EQ(s.issues[0], want);
    EXPECT_EQ(s.identity().family, ModuleFamily::kUnknown);
    EXPECT_EQ(s.identity().sff8024_identifier, id);
    EXPECT_TRUE(s.lanes.empty());
  }
}

TEST(Identification, EmptyMemorySaysWhatIsMissing) {
  Sample s;
  decodeModule(ModuleMemory{}, s);
  ASSERT_EQ(s.issues.size(), 1u);
  EXPECT_NE(s.issues[0].find("identifier"), std::string::npos);
  EXPECT_TRUE(advertisedPages(ModuleMemory{}).empty());
}

TEST(Identification, InitialPagesAreLowerAndPage00) {
  const std::vector<PageRequest> want = {{0x50, 0, 0, 0, 128}, {0x50, 0, 0, 128, 128}};
  EXPECT_EQ(initialPages(), want);
}

// Every family over all-zero and all-0xFF pages: no crash, nothing NaN/inf,
// text escaped, -40 dBm floor for zero power.
TEST(ErasedPages, AllZeroAndAllFfDecodeSafely) {
  for (std::uint8_t id : {std::uint8_t{0x03}, std::uint8_t{0x11}, std::uint8_t{0x18}}) {
    for (std::uint8_t fill : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
      SCOPED_TRACE(::testing::Message() << "id " << int(id) << " fill " << int(fill));
      const ModuleMemory m = filled(id, fill, {0, 1, 2, 3, 0x11, 0x20, 0x24, 0x28, 0x2C, 0x2F});
      Sample s;
      decodeModule(m, s);
      expectAllFinite(s);
      EXPECT_NE(s.identity().family, ModuleFamily::kUnknown);
      for (char c : s.identity().vendor) EXPECT_TRUE(c >= 0x20 && c < 0x7f);
      if (fill == 0xFF) {
        EXPECT_EQ(s.identity().vendor.substr(0, 4), "\\xff");
      }
      for (const auto& lane : s.lanes) {
        if (auto rx = lane.values[LaneMetric::kRxPowerDbm]; rx && fill == 0x00) {
          EXPECT_DOUBLE_EQ(*rx, -40.0);
          EXPECT_EQ(lane.status.rx_no_light, true);
        }
      }
    }
  }
}

TEST(Truncated, SfpWithoutA2SaysSoAndKeepsIdentity) {
  ModuleMemory full = loadFixture("synthetic-sfp-internal-cal");
  ModuleMemory a0_only;
  for (const auto& p : full.pages()) {
    if (p.key.i2c_address == kI2cAddressA0) a0_only.write(kI2cAddressA0, 0, 0, p.key.upper ? 128 : 0, p.bytes);
  }
  Sample s;
  decodeModule(a0_only, s);
  EXPECT_EQ(s.identity().part_number, "SFP-10G-SR");
  ASSERT_EQ(s.issues.size(), 1u);
  EXPECT_NE(s.issues[0].find("A2h"), std::string::npos);
  EXPECT_FALSE(s.module[ModuleMetric::kTemperatureCelsius]);
  const auto wanted = advertisedPages(a0_only);
  const std::vector<PageRequest> want = {{0x51, 0, 0, 0, 128}, {0x51, 0, 0, 128, 128}};
  EXPECT_EQ(wanted, want);
}

TEST(Truncated, HalfReadPageKeepsWhatWasRead) {
  ModuleMemory full = loadFixture("synthetic-qsfp28-sr4");
  ModuleMemory part;
  const auto* lower = full.find(PageKey{0x50, 0, 0, false});
  ASSERT_NE(lower, nullptr);
  part.write(0x50, 0, 0, 0, std::span(*lower).first(40));  // up to Rx power lane 3, no bias
  Sample s;
  decodeModule(part, s);
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], 41.25);
  EXPECT_NEAR(*s.lanes[0].values[LaneMetric::kRxPowerDbm], 0.0, 1e-3);
  EXPECT_FALSE(s.lanes[3].values[LaneMetric::kRxPowerDbm]);  // bytes 40-41 not read
  EXPECT_FALSE(s.lanes[0].values[LaneMetric::kTxBiasMilliamperes]);
  EXPECT_FALSE(s.issues.empty());  // page 00h (and 03h) missing are reported
}

TEST(Reuse, SecondDecodeLeavesNothingBehind) {
  Sample s;
  s.target = "sw1";
  s.port = "Ethernet1";
  decodeModule(loadFixture("synthetic-cmis-400g-dr4"), s);
  ASSERT_EQ(s.lanes.size(), 4u);
  ASSERT_FALSE(s.identity().applications.empty());
  decodeModule(loadFixture("synthetic-sfp-no-ddm"), s);
  EXPECT_EQ(s.target, "sw1");
  EXPECT_EQ(s.port, "Ethernet1");
  EXPECT_EQ(s.lanes.size(), 1u);
  EXPECT_TRUE(s.module.empty());
  EXPECT_TRUE(s.identity().firmware_version.empty());
  EXPECT_TRUE(s.identity().applications.empty());
  EXPECT_TRUE(s.identity().data_paths.empty());
  EXPECT_FALSE(s.thresholds(LaneMetric::kPreFecBerRatio));
  EXPECT_FALSE(s.module_flags[0]);
}

// The decoders' inline log2 against glibc: every raw power value, and doubles across the range.
TEST(Units, FastLog2MatchesLibm) {
  double worst = 0;
  for (int raw = 2; raw <= 65535; ++raw) worst = std::max(worst, std::abs(log2Normal(raw) - std::log2(raw)));
  for (double x = 1e-300; x < 1e300; x *= 1.0137) worst = std::max(worst, std::abs(log2Normal(x) - std::log2(x)));
  EXPECT_LT(worst, 1e-12);
}

// The register table the CMIS and SFF-8636 decoders read gives, for every
// 16-bit value, exactly what the log path gives (the SFF-8472 external
// calibration, whose powers are not integers, keeps the log path).
TEST(Units, PowerRegisterTableEqualsTheLogPathForEveryRegister) {
  int differ = 0;
  for (int raw = 0; raw <= 65535; ++raw) {
    Lane by_table;
    Lane by_log;
    setLanePowerRegister(by_table, LaneMetric::kRxPowerDbm, static_cast<std::uint16_t>(raw));
    setLanePower(by_log, LaneMetric::kRxPowerDbm, raw);
    const double a = by_table.values[LaneMetric::kRxPowerDbm].value_or(1e9);
    const double b = by_log.values[LaneMetric::kRxPowerDbm].value_or(-1e9);
    if (a != b || by_table.status.rx_no_light != by_log.status.rx_no_light) ++differ;
  }
  EXPECT_EQ(differ, 0);
}

TEST(Units, TenthMicrowattsFollowTheFloorRule) {
  for (double units : {0.0, -3.0, 0.5, 1.0, 1.5, 2.0, 10.0, 5000.0, 10000.0, 31623.0, 65535.0}) {
    const OpticalPower want = opticalPowerFromMilliwatts(units * 1e-4);
    const OpticalPower got = opticalPowerFromTenthMicrowatts(units);
    EXPECT_EQ(got.no_light, want.no_light) << units;
    EXPECT_NEAR(got.dbm, want.dbm, 1e-11) << units;
  }
  EXPECT_TRUE(opticalPowerFromTenthMicrowatts(std::nan("")).no_light);
  EXPECT_TRUE(opticalPowerFromTenthMicrowatts(HUGE_VAL).no_light);
  EXPECT_NEAR(powerDbmFromRaw(10000), 0.0, 1e-12);  // 1 mW
}

// A textual image of every decoded field, so two Samples compare field by field with a readable diff.
std::string describe(const Sample& s) {
  std::string out;
  auto opt = [&](const char* name, const auto& v) {
    out += name;
    out += v ? "=" + std::to_string(static_cast<double>(*v)) : std::string("=none");
    out += "\n";
  };
  auto thresholds = [&](const std::optional<Thresholds>& t) {
    if (!t) return out += "-\n", void();
    opt(" ha", t->high_alarm), opt(" la", t->low_alarm), opt(" hw", t->high_warning), opt(" lw", t->low_warning);
  };
  auto flags = [&](const std::optional<AlarmFlags>& f) {
    out += !f ? "-"
              : (std::string(f->high_alarm ? "A" : "a") + (f->low_alarm ? "L" : "l") + (f->high_warning ? "W" : "w") +
                 (f->low_warning ? "V" : "v"));
    out += "\n";
  };
  const ModuleIdentity& id = s.identity();
  out += std::string(toString(id.family)) + "|" + id.form_factor + "|" + id.media + "|" + id.vendor + "|" +
         id.vendor_oui + "|" + id.part_number + "|" + id.revision + "|" + id.serial + "|" + id.date_code + "|" +
         id.connector + "|" + id.firmware_version + "|" + id.spec_revision + "|" +
         std::string(toString(id.modulation)) + "\n";
  opt("id", id.sff8024_identifier), opt("wl", id.wavelength_nm), opt("len", id.cable_length_m);
  opt("pc", id.power_class), opt("maxp", id.max_power_watts), opt("rate", id.lane_rate_gbps);
  opt("ddm", id.has_diagnostics), opt("passive", id.passive_copper);
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    opt("module", s.module[static_cast<ModuleMetric>(i)]);
    thresholds(s.shared_thresholds->module[i]);
    flags(s.module_flags[i]);
  }
  for (const auto& t : s.shared_thresholds->lane) thresholds(t);
  for (const auto& lane : s.lanes) {
    out += "lane " + std::to_string(lane.number) + "\n";
    for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
      opt(" v", lane.values[static_cast<LaneMetric>(i)]);
      flags(lane.flags[i]);
    }
    const LaneStatus& st = lane.status;
    opt(" rxlos", st.rx_los), opt(" txlos", st.tx_los), opt(" rxlol", st.rx_lol), opt(" txlol", st.tx_lol);
    opt(" fault", st.tx_fault), opt(" txdark", st.tx_no_light), opt(" rxdark", st.rx_no_light);
    opt(" dp", st.data_path_state);
  }
  for (const auto& issue : s.issues) out += "issue " + issue + "\n";
  return out;
}

// Decoding module B into a Sample that held module A gives what a fresh Sample gets, for every pair.
TEST(Reuse, EveryPairOfModulesDecodesAsIfFresh) {
  std::vector<std::pair<std::string, ModuleMemory>> modules;
  for (const char* name :
       {"synthetic-sfp-internal-cal", "synthetic-sfp-external-cal", "synthetic-sfp-no-ddm", "synthetic-qsfp28-sr4",
        "synthetic-qsfp28-flat", "synthetic-cmis-400g-dr4", "synthetic-cmis-osfp-2banks", "synthetic-cmis-flat-dac"}) {
    modules.emplace_back(name, loadFixture(name));
  }
  modules.emplace_back("empty", ModuleMemory{});
  modules.emplace_back("unknown type", filled(0x7e, 0x41, {0}));
  modules.emplace_back("qsfp28 all 0xff", filled(0x11, 0xff, {0, 3}));
  ModuleMemory lower_only;  // lower memory only: the identity fields are missing, not left over
  lower_only.write(kI2cAddressA0, 0, 0, 0,
                   std::span(loadFixture("synthetic-cmis-400g-dr4").find({0x50, 0, 0, false})->data(), 128));
  modules.emplace_back("cmis lower only", lower_only);
  for (const auto& [first_name, first] : modules) {
    for (const auto& [second_name, second] : modules) {
      Sample fresh;
      decodeModule(second, fresh);
      Sample reused;
      decodeModule(first, reused);
      decodeModule(second, reused);
      EXPECT_EQ(describe(reused), describe(fresh)) << first_name << " then " << second_name;
    }
  }
}

}  // namespace
}  // namespace opticsd::eeprom::test

namespace opticsd::eeprom::test {
namespace {

// The identity fields `decode` shows besides (ethtool -m's), from the fixtures' bytes.
TEST(DecodeFields, Sff8472RateEncodingAndLinkLengths) {
  ModuleMemory m = loadFixture("synthetic-sfp-internal-cal");
  const std::uint8_t bytes[] = {0x06, 0x67, 0x00, 2, 100, 30, 0, 0, 40};  // bytes 11-19
  m.write(kI2cAddressA0, 0, 0, 11, bytes);
  Sample s;
  decodeModule(m, s);
  EXPECT_EQ(s.identity().encoding, "64B/66B");                                      // byte 11 = 06h (SFF-8472)
  EXPECT_NEAR(s.identity().nominal_signalling_rate_gbaud.value_or(0), 10.3, 1e-9);  // 103 x 100 MBd
  EXPECT_DOUBLE_EQ(s.identity().link_lengths.smf_m.value_or(0), 10000.0);           // byte 15 = 100 x 100 m
  EXPECT_DOUBLE_EQ(s.identity().link_lengths.om2_m.value_or(0), 300.0);             // byte 16 = 30 x 10 m
  EXPECT_FALSE(s.identity().link_lengths.om1_m);                                    // 0: not given
  EXPECT_FALSE(s.identity().link_lengths.om4_m);
  EXPECT_DOUBLE_EQ(s.identity().link_lengths.om3_m.value_or(0), 400.0);  // byte 19 = 40 x 10 m
  EXPECT_TRUE(s.identity().hardware_revision.empty());                   // CMIS only
}

TEST(DecodeFields, Sff8636EncodingRateAndTechnology) {
  const Sample s = decodeFixture("synthetic-qsfp28-sr4");
  EXPECT_EQ(s.identity().encoding, "64B/66B");  // byte 139 = 05h in SFF-8636's reading
  EXPECT_NEAR(s.identity().nominal_signalling_rate_gbaud.value_or(0), 25.75, 1e-9);  // FFh: byte 222 = 103 x 250 MBd
  EXPECT_EQ(s.identity().media_technology, "850 nm VCSEL");                          // byte 147 bits 7-4 = 0
  EXPECT_FALSE(s.identity().link_lengths.smf_m);
}

TEST(DecodeFields, CmisHardwareRevisionTechnologyLengthsAndVdmFlag) {
  ModuleMemory m = loadFixture("synthetic-cmis-400g-dr4");
  const std::uint8_t hw[] = {3, 1, 0x4A, 0, 50};  // page 01h 130-131 hardware 3.1, 132 SMF 01b|10 -> 10 km, 134 OM4
  m.write(kI2cAddressA0, 0, 0x01, 130, hw);
  Sample s;
  decodeModule(m, s);
  EXPECT_EQ(s.identity().hardware_revision, "3.1");
  EXPECT_EQ(s.identity().media_technology, "1310 nm EML");  // byte 212 = 06h
  EXPECT_DOUBLE_EQ(s.identity().link_lengths.smf_m.value_or(0), 10000.0);
  EXPECT_FALSE(s.identity().link_lengths.om5_m);  // byte 133 = 0
  EXPECT_EQ(s.identity().vdm_supported, true);    // page 01h byte 142 bit 6
  EXPECT_FALSE(s.identity().nominal_signalling_rate_gbaud);
  EXPECT_EQ(decodeFixture("synthetic-cmis-osfp-2banks").identity().vdm_supported, false);
}

}  // namespace
}  // namespace opticsd::eeprom::test
