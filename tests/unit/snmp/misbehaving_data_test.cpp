// Agent data no switch should send, at the decoder and mock-session seams:
// out-of-range scale and precision values, 64 KiB strings (sysDescr,
// entPhysicalDescr, serial numbers) and strings that are not UTF-8. Each is
// a per-row issue or a cleaned string; the good rows of the poll survive.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <cmath>
#include <limits>

#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/profile_decoder.hpp"
#include "drivers/snmp/snmp_driver.hpp"
#include "test_support.hpp"
#include "tests/support/snmp/mock_session.hpp"

namespace opticsd::snmp {
namespace {

using testing::shippedProfile;

const Oid kSensor{1, 3, 6, 1, 2, 1, 99, 1, 1, 1};
const Oid kPhysical{1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1};
// arista-eos.snmprec: Ethernet1 TX power (watts, milli, precision 4) and its lane/transceiver.
constexpr std::uint32_t kTxPower = 100301212;
constexpr std::uint32_t kRxPower = 100301213;
constexpr std::uint32_t kXcvr = 100301100;

std::vector<Varbind> aristaRows() {
  auto rows = readSnmprecFile(testing::fixturePath("arista-eos.snmprec"));
  EXPECT_TRUE(rows);
  return rows ? *rows : std::vector<Varbind>{};
}

void set(std::vector<Varbind>& rows, const Oid& oid, Varbind value) {
  value.oid = oid;
  for (auto& vb : rows) {
    if (vb.oid == oid) {
      vb = std::move(value);
      return;
    }
  }
  rows.push_back(std::move(value));
}

bool isValidUtf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

bool anyErrorContains(const PollResult& r, const std::string& text) {
  for (const auto& e : r.errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

const Sample* findPort(const PollResult& r, const std::string& port) {
  for (const auto& s : r.samples) {
    if (s.port == port) return &s;
  }
  return nullptr;
}

TEST(MisbehavingData, OutOfRangeScalesAndPrecisionsAreRowIssuesNeverInfOrNan) {
  const std::int64_t bad_scales[] = {
      0, -1, 18, 99, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
  const std::int64_t bad_precisions[] = {-9, 10, std::numeric_limits<std::int32_t>::min(),
                                         std::numeric_limits<std::int32_t>::max()};
  auto check = [&](const std::vector<Varbind>& rows, const std::string& what) {
    auto r = decode(shippedProfile("arista-eos"), VarbindStore(rows), "sw", 0);
    const Sample* s = findPort(r, "Ethernet1");
    ASSERT_NE(s, nullptr) << what;
    ASSERT_FALSE(s->lanes.empty()) << what;
    EXPECT_FALSE(s->lanes[0].values[LaneMetric::kTxPowerDbm]) << what << ": the bad row must not be reported";
    EXPECT_TRUE(s->lanes[0].values[LaneMetric::kRxPowerDbm]) << what << ": the good row of the same lane survives";
    EXPECT_TRUE(s->module[ModuleMetric::kTemperatureCelsius]) << what;
    EXPECT_FALSE(r.errors.empty()) << what << ": the bad row must be reported as an issue";
    for (const auto& sample : r.samples) {
      for (const auto& lane : sample.lanes) {
        for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
          const auto& v = lane.values[static_cast<LaneMetric>(m)];
          if (v) {
            EXPECT_TRUE(std::isfinite(*v)) << what;
          }
        }
      }
    }
  };
  for (auto scale : bad_scales) {
    auto rows = aristaRows();
    set(rows, kSensor.child(2).child(kTxPower), Varbind::integerValue({}, scale));
    check(rows, "scale " + std::to_string(scale));
  }
  for (auto precision : bad_precisions) {
    auto rows = aristaRows();
    set(rows, kSensor.child(3).child(kTxPower), Varbind::integerValue({}, precision));
    check(rows, "precision " + std::to_string(precision));
  }
  // In range but extreme: yotta watts of the largest Integer32 is a finite (absurd) dBm, not inf.
  auto rows = aristaRows();
  set(rows, kSensor.child(2).child(kRxPower), Varbind::integerValue({}, 17));
  set(rows, kSensor.child(3).child(kRxPower), Varbind::integerValue({}, -8));
  set(rows, kSensor.child(4).child(kRxPower), Varbind::integerValue({}, std::numeric_limits<std::int32_t>::max()));
  auto r = decode(shippedProfile("arista-eos"), VarbindStore(rows), "sw", 0);
  const Sample* s = findPort(r, "Ethernet1");
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->lanes[0].values[LaneMetric::kRxPowerDbm]);
  EXPECT_TRUE(std::isfinite(*s->lanes[0].values[LaneMetric::kRxPowerDbm]));
}

TEST(MisbehavingData, HugeDescriptionsDoNotBreakMatchingOrTheOtherRows) {
  auto rows = aristaRows();
  const std::string huge(64 * 1024, 'E');
  // A sensor whose description runs to 64 KiB and has no containment row:
  // only the fallback pattern ' for (\S+)$' applies, on a 64 KiB word.
  constexpr std::uint32_t kOrphan = 100399213;
  set(rows, kPhysical.child(2).child(kOrphan), Varbind::textValue({}, "DOM RX Power Sensor for " + huge));
  for (std::uint32_t col : {1u, 2u, 3u, 4u, 5u}) {
    std::int64_t v[] = {0, 6, 8, 4, 5000, 1};
    set(rows, kSensor.child(col).child(kOrphan), Varbind::integerValue({}, v[col]));
  }
  // The transceiver's serial and the system description at 64 KiB.
  set(rows, kPhysical.child(11).child(kXcvr), Varbind::textValue({}, huge));
  set(rows, Oid{1, 3, 6, 1, 2, 1, 1, 1, 0}, Varbind::textValue({}, huge));
  auto r = decode(shippedProfile("arista-eos"), VarbindStore(rows), "sw", 0);
  const Sample* s = findPort(r, "Ethernet1");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->lanes[0].values[LaneMetric::kTxPowerDbm]);
  // DisplayString/SnmpAdminString are SIZE (0..255) (RFC 2579, RFC 3411):
  // longer text is cut there, so no 64 KiB label reaches the exporter.
  EXPECT_LE(s->identity().serial.size(), 255u);
  EXPECT_FALSE(s->identity().serial.empty());
  for (const auto& sample : r.samples) EXPECT_LE(sample.port.size(), 255u);
}

TEST(MisbehavingData, NonUtf8StringsComeOutAsValidUtf8) {
  auto rows = aristaRows();
  const std::string latin1 = "Soci\xe9t\xe9 G\xe9n\xe9rale \xff\xfe";  // ISO 8859-1 and stray bytes
  set(rows, kPhysical.child(12).child(kXcvr), Varbind::textValue({}, latin1));
  set(rows, kPhysical.child(11).child(kXcvr), Varbind::textValue({}, std::string("SN\x80\xc3", 4)));
  set(rows, kPhysical.child(13).child(kXcvr), Varbind::textValue({}, "caf\xc3\xa9 \xe2\x82\xac"));  // valid UTF-8 kept
  auto r = decode(shippedProfile("arista-eos"), VarbindStore(rows), "sw", 0);
  const Sample* s = findPort(r, "Ethernet1");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(isValidUtf8(s->identity().vendor)) << s->identity().vendor;
  EXPECT_TRUE(isValidUtf8(s->identity().serial)) << s->identity().serial;
  EXPECT_EQ(s->identity().part_number, "caf\xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(s->identity().vendor.substr(0, 4), "Soci");  // the readable part survives
  EXPECT_EQ(s->identity().serial.substr(0, 2), "SN");
}

TEST(MisbehavingData, WrongTypesForScaleAndValueThroughTheDriver) {
  boost::asio::io_context io;
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
  ASSERT_TRUE(catalog);
  auto rows = aristaRows();
  set(rows, kSensor.child(2).child(kTxPower), Varbind::textValue({}, "milli"));
  set(rows, kSensor.child(4).child(kRxPower), Varbind::oidValue({}, Oid{1, 3}));
  VarbindStore store(rows);
  DriverOptions options;
  SnmpDriver driver(&io, "sw", options, *catalog, [&](const std::string&) -> Result<std::unique_ptr<Session>> {
    return std::unique_ptr<Session>(std::make_unique<MockSession>(io, store));
  });
  PollResult out;
  int calls = 0;
  driver.poll(0, [&](PollResult r) {
    ++calls;
    out = std::move(r);
  });
  io.run();
  ASSERT_EQ(calls, 1);
  const Sample* s = findPort(out, "Ethernet1");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->lanes[0].values[LaneMetric::kTxPowerDbm]);
  EXPECT_FALSE(s->lanes[0].values[LaneMetric::kRxPowerDbm]);
  EXPECT_TRUE(s->module[ModuleMetric::kTemperatureCelsius]);
  EXPECT_TRUE(anyErrorContains(out, "OCTET STRING") || anyErrorContains(out, "OBJECT IDENTIFIER"))
      << ::testing::PrintToString(out.errors);
}

}  // namespace
}  // namespace opticsd::snmp
