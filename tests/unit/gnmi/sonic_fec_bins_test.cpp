// SONiC's per-port FEC codeword-error bins (COUNTERS_DB
// SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S<n>) through the real decode:
// notifications as sonic-gnmi sends them (tests/fixtures/gnmi/
// synthetic-sonic-fec-bins/NOTE.md), the shipped `sonic` variant, the
// TelemetryState's snapshot and the FecTailTracker the driver applies to it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "drivers/fec_tail.hpp"
#include "drivers/gnmi/notification_decoder.hpp"

namespace opticsd::gnmi {
namespace {

const std::filesystem::path kDir =
    std::filesystem::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/gnmi/synthetic-sonic-fec-bins";

std::string fixture(const char* name) {
  std::ifstream in(kDir / name);
  EXPECT_TRUE(in) << (kDir / name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

::gnmi::Path path(std::initializer_list<const char*> elems) {
  ::gnmi::Path out;
  for (const char* e : elems) out.add_elem()->set_name(e);
  return out;
}

// One notification: prefix target `db`, one update at `at` carrying `json`.
::gnmi::Notification update(const char* db, ::gnmi::Path at, const std::string& json) {
  ::gnmi::Notification n;
  n.mutable_prefix()->set_target(db);
  auto* u = n.add_update();
  *u->mutable_path() = std::move(at);
  u->mutable_val()->set_json_ietf_val(json);
  return n;
}

class SonicFecBins : public ::testing::Test {
 protected:
  SonicFecBins()
      : variant_(*findVendorVariant("sonic")),
        rules_(std::move(*LeafRules::compile(variant_.rules, variant_.origins))),
        state_(variant_, rules_),
        decoder_(state_) {}

  DecodeCounts counters(const char* file, std::int64_t now_ms) {
    return decoder_.apply(update("COUNTERS_DB", path({"COUNTERS", "Ethernet*"}), fixture(file)), now_ms);
  }
  void stateDb() {
    // sonic-gnmi answers a table subscription with the table's rows, keyed by name.
    // The fixture's top level is {table: rows}: one JSON value at the root.
    const auto counts = decoder_.apply(update("STATE_DB", ::gnmi::Path(), fixture("state-db.json")), 1000);
    EXPECT_EQ(counts.bad_values, 0u);
  }
  std::vector<Sample> poll(std::int64_t now_ms) {
    auto samples = state_.snapshot(now_ms, 0);
    for (Sample& s : samples) tails_.apply(s);  // as GnmiDriver::snapshot does
    return samples;
  }
  static const Sample* port(const std::vector<Sample>& samples, std::string_view name) {
    for (const auto& s : samples) {
      if (s.port == name) return &s;
    }
    return nullptr;
  }

  const VendorVariant& variant_;
  LeafRules rules_;
  TelemetryState state_;
  NotificationDecoder decoder_;
  FecTailTracker tails_;
};

TEST_F(SonicFecBins, EachSBinIsTheBinOfThatManySymbolErrors) {
  stateDb();
  const auto counts = counters("counters-poll-1.json", 1000);
  // Ethernet0: 16 bins + 2 frame counters; Ethernet8: 2 frame counters.
  EXPECT_EQ(counts.mapped, 20u);
  // IN_OCTETS twice and Ethernet0's S16: no rule, on purpose.
  EXPECT_EQ(counts.unknown_paths, 3u);
  EXPECT_EQ(counts.bad_values, 0u);
  const auto samples = poll(1000);
  const Sample* e0 = port(samples, "Ethernet0");
  ASSERT_NE(e0, nullptr);
  EXPECT_EQ(e0->identity().serial, "SN0001");
  ASSERT_EQ(e0->fec.histogram.size(), 16u);
  for (std::uint16_t n = 0; n < 16; ++n) {
    EXPECT_EQ(e0->fec.histogram[n].low, n);
    EXPECT_EQ(e0->fec.histogram[n].high, n);
    EXPECT_TRUE(e0->fec.histogram[n].lane_codewords_total.empty());  // SONiC counts per port
  }
  EXPECT_EQ(e0->fec.histogram[0].codewords_total, 1000000000000u);
  EXPECT_EQ(e0->fec.histogram[5].codewords_total, 600u);
  EXPECT_EQ(e0->fec.histogram[15].codewords_total, 0u);
  EXPECT_EQ(e0->fec.corrected_blocks_total, 2345600u);
  EXPECT_EQ(e0->fec.uncorrectable_blocks_total, 0u);
  EXPECT_EQ(e0->fec.correctable_symbols, 15);  // rs at 400000 Mb/s: RS(544,514)
  EXPECT_FALSE(e0->fec.tail.symbols);          // one histogram is no window yet
}

TEST_F(SonicFecBins, TheTailAndMarginOfASwitchPortFromTwoPolls) {
  stateDb();
  counters("counters-poll-1.json", 1000);
  poll(1000);
  counters("counters-poll-2.json", 31000);
  const auto samples = poll(31000);
  const Sample* e0 = port(samples, "Ethernet0");
  ASSERT_NE(e0, nullptr);
  ASSERT_TRUE(e0->fec.tail.symbols);
  EXPECT_EQ(*e0->fec.tail.symbols, 9);  // bins 0..9 grew, 10..15 did not
  EXPECT_TRUE(e0->fec.tail.lane_symbols.empty());
  EXPECT_EQ(e0->fec.margin(e0->fec.tail.symbols), 6);

  // A platform without bins: its frame counters, and no histogram, tail or margin.
  const Sample* e8 = port(samples, "Ethernet8");
  ASSERT_NE(e8, nullptr);
  EXPECT_TRUE(e8->fec.histogram.empty());
  EXPECT_FALSE(e8->fec.tail.symbols);
  EXPECT_EQ(e8->fec.corrected_blocks_total, 17u);
  EXPECT_FALSE(e8->fec.correctable_symbols);  // 100G runs RS(528) or RS(544): speed alone does not say
}

TEST_F(SonicFecBins, ACounterResetGivesNoTail) {
  stateDb();
  counters("counters-poll-2.json", 1000);
  poll(1000);
  counters("counters-poll-1.json", 31000);  // every bin lower: the counters were cleared
  const auto samples = poll(31000);
  const Sample* e0 = port(samples, "Ethernet0");
  ASSERT_NE(e0, nullptr);
  EXPECT_FALSE(e0->fec.tail.symbols);
}

TEST_F(SonicFecBins, NotANumberIsRefusedNotZero) {
  stateDb();
  const auto counts = decoder_.apply(update("COUNTERS_DB", path({"COUNTERS", "Ethernet*"}),
                                            R"({"Ethernet0": {"SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S3": "N/A"}})"),
                                     1000);
  EXPECT_EQ(counts.bad_values, 1u);
  const auto samples = poll(1000);
  const Sample* e0 = port(samples, "Ethernet0");
  ASSERT_NE(e0, nullptr);
  EXPECT_TRUE(e0->fec.histogram.empty());
}

TEST(SonicVariant, TheCountersAreACallOfTheirOwnUnderCountersDb) {
  const VendorVariant& v = *findVendorVariant("sonic");
  ASSERT_EQ(v.sample_path_targets.size(), v.sample_paths.size());
  bool counters = false;
  for (std::size_t i = 0; i < v.sample_paths.size(); ++i) {
    if (v.sample_paths[i] == "/COUNTERS/Ethernet*") {
      counters = true;
      EXPECT_EQ(v.sample_path_targets[i], "COUNTERS_DB");
    } else {
      EXPECT_EQ(v.sample_path_targets[i], "STATE_DB") << v.sample_paths[i];
    }
  }
  EXPECT_TRUE(counters);
  for (auto t : v.on_change_path_targets) EXPECT_EQ(t, "STATE_DB");
}

}  // namespace
}  // namespace opticsd::gnmi
