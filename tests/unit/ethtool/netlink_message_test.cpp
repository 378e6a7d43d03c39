#include "drivers/ethtool/netlink_message.hpp"

#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include <cerrno>

#include "netlink_test_bytes.hpp"

namespace opticsd::ethtool {
namespace {

using namespace testing;

// The numbers are kernel ABI; the tests spell them out so a wrong constant
// in the code cannot agree with itself.
static_assert(ETHTOOL_MSG_LINKMODES_GET == 4 && ETHTOOL_MSG_LINKSTATE_GET == 6 && ETHTOOL_MSG_FEC_GET == 29 &&
              ETHTOOL_MSG_MODULE_EEPROM_GET == 31);

TEST(NetlinkMessage, GetFamilyIsByteExact) {
  // clang-format off
  const Bytes expected = {
      0x20, 0x00, 0x00, 0x00,  // nlmsg_len 32
      0x10, 0x00,              // GENL_ID_CTRL
      0x01, 0x00,              // NLM_F_REQUEST
      0x07, 0x00, 0x00, 0x00,  // seq 7
      0x00, 0x00, 0x00, 0x00,  // port id: the kernel fills it
      0x03, 0x01, 0x00, 0x00,  // CTRL_CMD_GETFAMILY, version 1
      0x0c, 0x00, 0x02, 0x00,  // CTRL_ATTR_FAMILY_NAME, 12 bytes
      'e',  't',  'h',  't',  'o', 'o', 'l', 0x00,
  };
  // clang-format on
  EXPECT_EQ(buildGetFamily(7, "ethtool"), expected);
}

TEST(NetlinkMessage, ModuleEepromGetIsByteExact) {
  eeprom::PageRequest request;
  request.i2c_address = 0x50;
  request.bank = 1;
  request.page = 0x11;
  request.offset = 128;
  request.length = 128;
  // clang-format off
  const Bytes expected = {
      0x4c, 0x00, 0x00, 0x00,  // nlmsg_len 76
      0x14, 0x00,              // family id 20
      0x01, 0x00,              // NLM_F_REQUEST
      0x04, 0x03, 0x02, 0x01,  // seq
      0x00, 0x00, 0x00, 0x00,  //
      0x1f, 0x01, 0x00, 0x00,  // ETHTOOL_MSG_MODULE_EEPROM_GET, version 1
      0x10, 0x00, 0x01, 0x80,  // ETHTOOL_A_MODULE_EEPROM_HEADER | NLA_F_NESTED, 16 bytes
      0x09, 0x00, 0x02, 0x00,  //   ETHTOOL_A_HEADER_DEV_NAME, 9 bytes
      'e',  't',  'h',  '2',  0x00, 0x00, 0x00, 0x00,
      0x08, 0x00, 0x02, 0x00, 0x80, 0x00, 0x00, 0x00,  // OFFSET 128
      0x08, 0x00, 0x03, 0x00, 0x80, 0x00, 0x00, 0x00,  // LENGTH 128
      0x05, 0x00, 0x04, 0x00, 0x11, 0x00, 0x00, 0x00,  // PAGE 0x11
      0x05, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00,  // BANK 1
      0x05, 0x00, 0x06, 0x00, 0x50, 0x00, 0x00, 0x00,  // I2C_ADDRESS 0x50
  };
  // clang-format on
  auto built = buildModuleEepromGet(20, 0x01020304, "eth2", request);
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_EQ(*built, expected);
}

TEST(NetlinkMessage, FecGetCarriesStatsFlag) {
  // clang-format off
  const Bytes expected = {
      0x2c, 0x00, 0x00, 0x00,  // nlmsg_len 44
      0x14, 0x00, 0x01, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x1d, 0x01, 0x00, 0x00,  // ETHTOOL_MSG_FEC_GET
      0x18, 0x00, 0x01, 0x80,  // header nest, 24 bytes
      0x0b, 0x00, 0x02, 0x00, 'e', 'n', 'p', '1', 's', '0', 0x00, 0x00,  // DEV_NAME "enp1s0", 11 bytes
      0x08, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x00,                    // FLAGS = ETHTOOL_FLAG_STATS
  };
  // clang-format on
  auto built = buildEthtoolGet(20, ETHTOOL_MSG_FEC_GET, 9, "enp1s0", ETHTOOL_FLAG_STATS);
  ASSERT_TRUE(built);
  EXPECT_EQ(*built, expected);
}

TEST(NetlinkMessage, RejectsBadNamesAndWindows) {
  EXPECT_FALSE(buildEthtoolGet(20, ETHTOOL_MSG_FEC_GET, 1, "", 0));
  EXPECT_FALSE(buildEthtoolGet(20, ETHTOOL_MSG_FEC_GET, 1, std::string(IFNAMSIZ, 'x'), 0));
  EXPECT_TRUE(buildEthtoolGet(20, ETHTOOL_MSG_FEC_GET, 1, std::string(IFNAMSIZ - 1, 'x'), 0));
  eeprom::PageRequest beyond;
  beyond.offset = 200;
  beyond.length = 100;
  EXPECT_FALSE(buildModuleEepromGet(20, 1, "eth0", beyond));
}

TEST(NetlinkMessage, SplitsDatagramsAndRejectsOverruns) {
  const auto two = concat({nlmsg(20, 0, 5, genl(1, {})), nlmsg(NLMSG_ERROR, 0, 6, scalarBytes<std::int32_t>(-95))});
  auto messages = splitMessages(two);
  ASSERT_TRUE(messages);
  ASSERT_EQ(messages->size(), 2u);
  EXPECT_EQ((*messages)[0].seq, 5u);
  EXPECT_EQ((*messages)[0].payload.size(), 4u);
  EXPECT_EQ((*messages)[1].type, NLMSG_ERROR);
  auto truncated = two;
  truncated.resize(two.size() - 2);
  EXPECT_FALSE(splitMessages(truncated));
  EXPECT_TRUE(splitMessages(Bytes{})->empty());
}

TEST(NetlinkMessage, AckWithExtendedMessage) {
  const auto payload = concat({scalarBytes<std::int32_t>(-EOPNOTSUPP), nlmsg(20, 1, 3, {}),
                               attr(NLMSGERR_ATTR_MSG, str("module not present"))});
  auto ack = parseAck(payload);
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->error, EOPNOTSUPP);
  EXPECT_EQ(ack->message, "module not present");
  auto plain = parseAck(scalarBytes<std::int32_t>(0));
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->error, 0);
  EXPECT_FALSE(parseAck(Bytes{1, 2}));
}

TEST(NetlinkMessage, FamilyReplyWithOperations) {
  auto op = [](std::uint32_t id) {
    return attr(0, concat({attr(CTRL_ATTR_OP_ID, scalarBytes(id)), attr(CTRL_ATTR_OP_FLAGS, scalarBytes(0u))}));
  };
  const auto payload = genl(CTRL_CMD_NEWFAMILY, concat({
                                                    attr(CTRL_ATTR_FAMILY_NAME, str("ethtool")),
                                                    attr(CTRL_ATTR_FAMILY_ID, scalarBytes<std::uint16_t>(0x15)),
                                                    attr(CTRL_ATTR_VERSION, scalarBytes<std::uint32_t>(1)),
                                                    attr(CTRL_ATTR_OPS | NLA_F_NESTED, concat({op(29), op(31)})),
                                                }));
  auto family = parseFamilyReply(payload);
  ASSERT_TRUE(family) << family.error().message;
  EXPECT_EQ(family->id, 0x15);
  EXPECT_EQ(family->version, 1u);
  EXPECT_TRUE(family->supports(ETHTOOL_MSG_MODULE_EEPROM_GET));
  EXPECT_FALSE(family->supports(ETHTOOL_MSG_LINKSTATE_GET));
  EXPECT_FALSE(parseFamilyReply(genl(CTRL_CMD_NEWFAMILY, attr(CTRL_ATTR_FAMILY_NAME, str("x")))));
}

TEST(NetlinkMessage, ModuleEepromReplyData) {
  Bytes page(128);
  for (std::size_t i = 0; i < page.size(); ++i) page[i] = static_cast<std::uint8_t>(i * 3);
  const auto payload =
      genl(ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY,
           concat({attr(ETHTOOL_A_MODULE_EEPROM_HEADER | NLA_F_NESTED, attr(ETHTOOL_A_HEADER_DEV_NAME, str("eth2"))),
                   attr(ETHTOOL_A_MODULE_EEPROM_DATA, page)}));
  auto data = parseModuleEepromReply(payload);
  ASSERT_TRUE(data);
  EXPECT_EQ(*data, page);
  EXPECT_FALSE(parseModuleEepromReply(genl(ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, {})));
  auto cut = payload;
  cut.resize(cut.size() - 10);  // the data attribute now claims more than is there
  EXPECT_FALSE(parseModuleEepromReply(cut));
}

TEST(NetlinkMessage, FecReplyTotalsAndLanes) {
  const auto stats = concat({
      attr(ETHTOOL_A_FEC_STAT_PAD, {}),
      attr(ETHTOOL_A_FEC_STAT_CORRECTED, u64s({1000, 600, 400})),
      attr(ETHTOOL_A_FEC_STAT_UNCORR, u64s({3})),
      attr(ETHTOOL_A_FEC_STAT_CORR_BITS, u64s({5'000'000'000ull, 1, 2, 3, 4})),
  });
  const auto payload =
      genl(ETHTOOL_MSG_FEC_GET_REPLY,
           concat({attr(ETHTOOL_A_FEC_ACTIVE, scalarBytes<std::uint32_t>(ETHTOOL_LINK_MODE_FEC_RS_BIT)),
                   attr(ETHTOOL_A_FEC_STATS | NLA_F_NESTED, stats)}));
  auto fec = parseFecReply(payload);
  ASSERT_TRUE(fec) << fec.error().message;
  EXPECT_EQ(fec->active_fec_bit, ETHTOOL_LINK_MODE_FEC_RS_BIT);
  EXPECT_EQ(fec->counters.corrected_blocks_total, 1000u);
  EXPECT_EQ(fec->lane_corrected_blocks, (std::vector<std::uint64_t>{600, 400}));
  EXPECT_EQ(fec->counters.uncorrectable_blocks_total, 3u);
  EXPECT_EQ(fec->counters.corrected_bits_total, 5'000'000'000ull);
  ASSERT_EQ(fec->counters.lane_corrected_bits_total.size(), 4u);
  EXPECT_EQ(fec->counters.lane_corrected_bits_total[3], 4u);
}

TEST(NetlinkMessage, FecReplyWithoutStatsLeavesCountersUnreported) {
  auto fec = parseFecReply(genl(ETHTOOL_MSG_FEC_GET_REPLY, attr(ETHTOOL_A_FEC_AUTO, scalarBytes<std::uint8_t>(1))));
  ASSERT_TRUE(fec);
  EXPECT_TRUE(fec->counters.empty());
  EXPECT_FALSE(fec->active_fec_bit);
}

TEST(NetlinkMessage, LinkModesSpeedLanesAndUnknownSpeed) {
  auto modes = parseLinkModesReply(
      genl(ETHTOOL_MSG_LINKMODES_GET_REPLY, concat({attr(ETHTOOL_A_LINKMODES_SPEED, scalarBytes<std::uint32_t>(400000)),
                                                    attr(ETHTOOL_A_LINKMODES_LANES, scalarBytes<std::uint32_t>(8)),
                                                    attr(ETHTOOL_A_LINKMODES_DUPLEX, scalarBytes<std::uint8_t>(1))})));
  ASSERT_TRUE(modes);
  EXPECT_EQ(modes->speed_mbps, 400000u);
  EXPECT_EQ(modes->lanes, 8u);
  auto unknown = parseLinkModesReply(
      genl(ETHTOOL_MSG_LINKMODES_GET_REPLY, attr(ETHTOOL_A_LINKMODES_SPEED, scalarBytes<std::uint32_t>(0xffffffff))));
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(unknown->speed_mbps);
  EXPECT_FALSE(unknown->lanes);
}

TEST(NetlinkMessage, LinkState) {
  auto up = parseLinkStateReply(
      genl(ETHTOOL_MSG_LINKSTATE_GET_REPLY, attr(ETHTOOL_A_LINKSTATE_LINK, scalarBytes<std::uint8_t>(1))));
  ASSERT_TRUE(up);
  EXPECT_EQ(up->link, std::optional<bool>(true));
  EXPECT_FALSE(up->down_reason);
  EXPECT_FALSE(up->down_count);
  auto absent = parseLinkStateReply(genl(ETHTOOL_MSG_LINKSTATE_GET_REPLY, {}));
  ASSERT_TRUE(absent);
  EXPECT_FALSE(absent->link);
  EXPECT_FALSE(parseLinkStateReply(Bytes{1}));
}

// The attribute numbers the spec gives (Documentation/netlink/specs/ethtool.yaml,
// Linux 6.18), spelled out here so a wrong constant cannot agree with itself.
constexpr std::uint16_t kFecStatHist = 5;
constexpr std::uint16_t kHistPad = 1, kHistBinLow = 2, kHistBinHigh = 3, kHistBinVal = 4, kHistBinValPerLane = 5;
constexpr std::uint16_t kLinkstateExtDownCnt = 7;

// One fec-hist nest as net/ethtool/fec.c writes it: bounds as u32, the count
// as "uint" (u32 when it fits, else u64), the per-lane array as u64s.
Bytes histBin(std::uint32_t low, std::uint32_t high, std::optional<std::uint64_t> total,
              std::initializer_list<std::uint64_t> lanes = {}) {
  Bytes inner = concat({attr(kHistBinLow, scalarBytes(low)), attr(kHistBinHigh, scalarBytes(high))});
  if (total) {
    inner =
        concat({inner, *total > 0xFFFFFFFFull ? attr(kHistBinVal, scalarBytes<std::uint64_t>(*total))
                                              : attr(kHistBinVal, scalarBytes(static_cast<std::uint32_t>(*total)))});
  }
  if (lanes.size() > 0) inner = concat({inner, attr(kHistPad, {}), attr(kHistBinValPerLane, u64s(lanes))});
  return attr(kFecStatHist | NLA_F_NESTED, inner);
}

Bytes fecReplyWith(const Bytes& stats) {
  return genl(ETHTOOL_MSG_FEC_GET_REPLY,
              concat({attr(ETHTOOL_A_FEC_ACTIVE, scalarBytes<std::uint32_t>(ETHTOOL_LINK_MODE_FEC_RS_BIT)),
                      attr(ETHTOOL_A_FEC_STATS | NLA_F_NESTED, stats)}));
}

TEST(NetlinkMessage, FecHistogramPortBins) {
  // mlx5-style: totals per bin, no lanes; a count past 32 bits comes as u64.
  const auto stats = concat({attr(ETHTOOL_A_FEC_STAT_CORRECTED, u64s({1000})), histBin(0, 0, 6'000'000'000ull),
                             histBin(1, 3, 900), histBin(4, 7, 12), histBin(8, 15, 0)});
  auto fec = parseFecReply(fecReplyWith(stats));
  ASSERT_TRUE(fec) << fec.error().message;
  EXPECT_EQ(fec->counters.corrected_blocks_total, 1000u);
  const auto& h = fec->counters.histogram;
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[0].low, 0);
  EXPECT_EQ(h[0].high, 0);
  EXPECT_EQ(h[0].codewords_total, 6'000'000'000ull);
  EXPECT_EQ(h[1].low, 1);
  EXPECT_EQ(h[1].high, 3);
  EXPECT_EQ(h[1].codewords_total, 900u);
  EXPECT_EQ(h[2].codewords_total, 12u);
  EXPECT_EQ(h[3].low, 8);
  EXPECT_EQ(h[3].high, 15);
  EXPECT_EQ(h[3].codewords_total, 0u);
  for (const auto& bin : h) EXPECT_TRUE(bin.lane_codewords_total.empty());
}

TEST(NetlinkMessage, FecHistogramPerLaneBins) {
  // bnxt/netdevsim-style: per-lane arrays, the total optional ("bin-val
  // optional if per-lane values exist").
  const auto stats = concat({histBin(0, 0, 400, {100, 100, 100, 100}), histBin(1, 1, std::nullopt, {5, 0, 2, 1}),
                             histBin(15, 15, 1, {0, 0, 0, 1})});
  auto fec = parseFecReply(fecReplyWith(stats));
  ASSERT_TRUE(fec) << fec.error().message;
  const auto& h = fec->counters.histogram;
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].lane_codewords_total, (std::vector<std::uint64_t>{100, 100, 100, 100}));
  EXPECT_FALSE(h[1].codewords_total);
  EXPECT_EQ(h[1].lane_codewords_total, (std::vector<std::uint64_t>{5, 0, 2, 1}));
  EXPECT_EQ(h[2].low, 15);
  EXPECT_EQ(h[2].lane_codewords_total[3], 1u);
}

TEST(NetlinkMessage, FecHistogramAbsentOrMalformedIsNotReported) {
  // A kernel before 6.18 sends no hist attribute: no bins, no error.
  auto old = parseFecReply(fecReplyWith(attr(ETHTOOL_A_FEC_STAT_CORRECTED, u64s({1}))));
  ASSERT_TRUE(old);
  EXPECT_TRUE(old->counters.histogram.empty());
  // Bins without bounds, inverted bounds or without any count are skipped.
  const auto odd = concat({attr(kFecStatHist | NLA_F_NESTED, attr(kHistBinVal, scalarBytes<std::uint32_t>(3))),
                           histBin(5, 2, 1), histBin(1, 1, std::nullopt)});
  auto skipped = parseFecReply(fecReplyWith(odd));
  ASSERT_TRUE(skipped);
  EXPECT_TRUE(skipped->counters.histogram.empty());
  // A nest that overruns its bytes is an error, as for the other attributes.
  Bytes broken = histBin(0, 0, 1);
  broken[4] = 0xff;  // the inner bin-low's length
  EXPECT_FALSE(parseFecReply(fecReplyWith(broken)));
}

TEST(NetlinkMessage, LinkStateEveryExtendedStateAndSubstate) {
  // enum ethtool_link_ext_state and the number of substates each has (uapi linux/ethtool.h).
  const std::pair<std::uint8_t, std::uint8_t> states[] = {
      {ETHTOOL_LINK_EXT_STATE_AUTONEG, 6},
      {ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE, 4},
      {ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH, 5},
      {ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY, 4},
      {ETHTOOL_LINK_EXT_STATE_NO_CABLE, 0},
      {ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE, 2},
      {ETHTOOL_LINK_EXT_STATE_EEPROM_ISSUE, 0},
      {ETHTOOL_LINK_EXT_STATE_CALIBRATION_FAILURE, 0},
      {ETHTOOL_LINK_EXT_STATE_POWER_BUDGET_EXCEEDED, 0},
      {ETHTOOL_LINK_EXT_STATE_OVERHEAT, 0},
      {ETHTOOL_LINK_EXT_STATE_MODULE, 1},
  };
  for (const auto& [state, substates] : states) {
    for (int sub = 0; sub <= substates; ++sub) {
      // The kernel sends the substate only when it is not 0 (net/ethtool/linkstate.c).
      Bytes attrs = concat({attr(ETHTOOL_A_LINKSTATE_LINK, scalarBytes<std::uint8_t>(0)),
                            attr(ETHTOOL_A_LINKSTATE_EXT_STATE, scalarBytes<std::uint8_t>(state))});
      if (sub > 0) {
        attrs = concat({attrs, attr(ETHTOOL_A_LINKSTATE_EXT_SUBSTATE, scalarBytes(static_cast<std::uint8_t>(sub)))});
      }
      auto reply = parseLinkStateReply(genl(ETHTOOL_MSG_LINKSTATE_GET_REPLY, attrs));
      ASSERT_TRUE(reply);
      EXPECT_EQ(reply->link, std::optional<bool>(false));
      ASSERT_TRUE(reply->down_reason) << int(state);
      EXPECT_EQ(reply->down_reason->state, state);
      EXPECT_EQ(reply->down_reason->substate,
                sub > 0 ? std::optional<std::uint8_t>(static_cast<std::uint8_t>(sub)) : std::nullopt);
    }
  }
}

TEST(NetlinkMessage, LinkStateDownCounter) {
  auto reply = parseLinkStateReply(
      genl(ETHTOOL_MSG_LINKSTATE_GET_REPLY, concat({attr(ETHTOOL_A_LINKSTATE_LINK, scalarBytes<std::uint8_t>(1)),
                                                    attr(kLinkstateExtDownCnt, scalarBytes<std::uint32_t>(42))})));
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->down_count, 42u);
  EXPECT_FALSE(reply->down_reason);  // up: no reason
}

// A module whose firmware is being flashed: the kernel answers page reads
// with -EBUSY (net/ethtool/module.c); the ack parser hands the errno up.
TEST(NetlinkMessage, BusyModuleAck) {
  const std::int32_t code = -EBUSY;
  Bytes payload = scalarBytes(code);
  const auto echoed = nlmsg(20, 1, 5, genl(ETHTOOL_MSG_MODULE_EEPROM_GET, {}));
  payload.insert(payload.end(), echoed.begin(), echoed.end());
  auto ack = parseAck(payload);
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->error, EBUSY);
}

TEST(NetlinkMessage, RtnetlinkLinkMessage) {
  ifinfomsg info{};
  info.ifi_index = 7;
  info.ifi_flags = IFF_UP | IFF_RUNNING;
  Bytes payload;
  appendRaw(payload, &info, sizeof(info));
  payload = concat({payload, attr(IFLA_MTU, scalarBytes<std::uint32_t>(1500)), attr(IFLA_IFNAME, str("veth0"))});
  auto event = parseLinkMessage(RTM_NEWLINK, payload);
  ASSERT_TRUE(event);
  EXPECT_EQ(event->ifindex, 7);
  EXPECT_EQ(event->name, "veth0");
  EXPECT_TRUE(event->running);
  EXPECT_FALSE(event->deleted);
  EXPECT_TRUE(parseLinkMessage(RTM_DELLINK, payload)->deleted);
  EXPECT_FALSE(parseLinkMessage(RTM_NEWADDR, payload));
  EXPECT_FALSE(parseLinkMessage(RTM_NEWLINK, Bytes(8)));
}

}  // namespace
}  // namespace opticsd::ethtool
