#pragma once
// Pure builders and parsers for the netlink messages the ethtool driver
// exchanges with the kernel: generic netlink family resolution
// (CTRL_CMD_GETFAMILY), the ethtool GET requests (module EEPROM pages, FEC
// statistics, link modes, link state) and rtnetlink link notifications.
//
// No I/O and no state: bytes in, bytes or values out, so every byte can be
// unit-tested and fuzzed. Parsers accept any input (truncated, unaligned,
// hostile) and answer with an Error rather than reading out of bounds.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd::ethtool {

// One netlink message split out of a datagram. `payload` is everything after
// the 16-byte nlmsghdr (for generic netlink it starts with the genlmsghdr).
struct NetlinkMessage {
  std::uint16_t type = 0;
  std::uint16_t flags = 0;
  std::uint32_t seq = 0;
  std::uint32_t port_id = 0;
  std::vector<std::uint8_t> payload;
};

// Splits one received datagram into its messages. Fails on a header that
// claims more bytes than the datagram holds.
Result<std::vector<NetlinkMessage>> splitMessages(std::span<const std::uint8_t> datagram);

// The outcome an NLMSG_ERROR message carries: errno (0 = plain ACK) and the
// kernel's extended-ACK text when it sent one.
struct NetlinkAck {
  int error = 0;  // positive errno, 0 for success
  std::string message;
};
Result<NetlinkAck> parseAck(std::span<const std::uint8_t> payload);

// --- generic netlink controller --------------------------------------------

std::vector<std::uint8_t> buildGetFamily(std::uint32_t seq, std::string_view family_name);

struct GenlFamily {
  std::uint16_t id = 0;
  std::uint32_t version = 0;
  std::vector<std::uint32_t> operations;  // command ids the kernel implements
  bool supports(std::uint32_t command) const;
};
Result<GenlFamily> parseFamilyReply(std::span<const std::uint8_t> payload);

// --- ethtool requests ------------------------------------------------------

// A GET request for `command` (ETHTOOL_MSG_*_GET) on interface `ifname`, with
// ETHTOOL_A_HEADER_FLAGS = `header_flags` when non-zero. Fails on a name the
// kernel could not hold (empty or IFNAMSIZ and longer).
Result<std::vector<std::uint8_t>> buildEthtoolGet(std::uint16_t family, std::uint8_t command, std::uint32_t seq,
                                                  std::string_view ifname, std::uint32_t header_flags);

// ETHTOOL_MSG_MODULE_EEPROM_GET for one page read (offset, length, page,
// bank, I2C address as the request says).
Result<std::vector<std::uint8_t>> buildModuleEepromGet(std::uint16_t family, std::uint32_t seq, std::string_view ifname,
                                                       const eeprom::PageRequest& request);

// The bytes of an ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY (may be shorter than asked).
Result<std::vector<std::uint8_t>> parseModuleEepromReply(std::span<const std::uint8_t> payload);

struct FecReply {
  FecCounters counters;  // totals and per-lane corrected bits
  std::vector<std::uint64_t> lane_corrected_blocks;
  std::optional<std::uint32_t> active_fec_bit;  // ETHTOOL_LINK_MODE_FEC_*_BIT
};
// Histogram bins (ETHTOOL_A_FEC_STAT_HIST, 6.18+) land in counters.histogram;
// a bin without bounds, or without any count, is skipped.
Result<FecReply> parseFecReply(std::span<const std::uint8_t> payload);

struct LinkModesReply {
  std::optional<std::uint32_t> speed_mbps;  // absent when the kernel says SPEED_UNKNOWN
  std::optional<std::uint32_t> lanes;
};
Result<LinkModesReply> parseLinkModesReply(std::span<const std::uint8_t> payload);

struct LinkStateReply {
  std::optional<bool> link;                   // ETHTOOL_A_LINKSTATE_LINK
  std::optional<LinkDownReason> down_reason;  // _EXT_STATE (+ _EXT_SUBSTATE), while down
  std::optional<std::uint32_t> down_count;    // _EXT_DOWN_CNT (6.6+), where the NIC driver counts
};
Result<LinkStateReply> parseLinkStateReply(std::span<const std::uint8_t> payload);

// --- rtnetlink -------------------------------------------------------------

// An RTM_NEWLINK/RTM_DELLINK message: which interface and whether it is
// operationally up (IFF_RUNNING, the carrier as the kernel tracks it).
struct LinkEvent {
  std::int32_t ifindex = 0;
  std::string name;  // empty when the message has no IFLA_IFNAME
  bool running = false;
  bool deleted = false;
};
Result<LinkEvent> parseLinkMessage(std::uint16_t type, std::span<const std::uint8_t> payload);

}  // namespace opticsd::ethtool
