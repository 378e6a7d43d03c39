#include "drivers/ethtool/netlink_message.hpp"

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <cstring>

#include "drivers/ethtool/ethtool_uapi_compat.hpp"

namespace opticsd::ethtool {
namespace {

// Attributes are read with memcpy from any alignment: the parsers are fed
// fuzzer bytes as well as kernel buffers.
struct Attr {
  std::uint16_t type = 0;  // NLA_F_NESTED and NLA_F_NET_BYTEORDER stripped
  std::span<const std::uint8_t> data;
};

template <typename T>
T load(std::span<const std::uint8_t> bytes, std::size_t offset = 0) {
  T value{};
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// Walks the attributes in `bytes`; fails on one that overruns its container.
template <typename Fn>
Result<void> forEachAttr(std::span<const std::uint8_t> bytes, Fn&& fn) {
  std::size_t pos = 0;
  while (pos + NLA_HDRLEN <= bytes.size()) {
    const auto len = load<std::uint16_t>(bytes, pos);
    const auto type = load<std::uint16_t>(bytes, pos + 2);
    if (len < NLA_HDRLEN || len > bytes.size() - pos) return fail("netlink attribute overruns its message");
    fn(Attr{static_cast<std::uint16_t>(type & NLA_TYPE_MASK), bytes.subspan(pos + NLA_HDRLEN, len - NLA_HDRLEN)});
    pos += NLA_ALIGN(len);
  }
  return {};
}

template <typename T>
std::optional<T> scalar(const Attr& attr) {
  if (attr.data.size() < sizeof(T)) return std::nullopt;
  return load<T>(attr.data);
}

std::string string(const Attr& attr) {
  const auto* begin = reinterpret_cast<const char*>(attr.data.data());
  const auto* nul = static_cast<const char*>(std::memchr(begin, 0, attr.data.size()));
  return std::string(begin, nul ? nul : begin + attr.data.size());
}

// The attributes after the 4-byte genlmsghdr of a generic netlink payload.
Result<std::span<const std::uint8_t>> genlAttributes(std::span<const std::uint8_t> payload) {
  if (payload.size() < GENL_HDRLEN) return fail("generic netlink message shorter than its header");
  return payload.subspan(GENL_HDRLEN);
}

// libmnl builds into a 4-byte aligned scratch buffer; the result is copied out.
class MessageBuffer {
 public:
  nlmsghdr* start(std::uint16_t type, std::uint32_t seq, std::uint8_t cmd, std::uint8_t version) {
    nlmsghdr* nlh = mnl_nlmsg_put_header(storage_.data());
    nlh->nlmsg_type = type;
    nlh->nlmsg_flags = NLM_F_REQUEST;
    nlh->nlmsg_seq = seq;
    auto* genl = static_cast<genlmsghdr*>(mnl_nlmsg_put_extra_header(nlh, sizeof(genlmsghdr)));
    genl->cmd = cmd;
    genl->version = version;
    return nlh;
  }
  std::vector<std::uint8_t> finish(const nlmsghdr* nlh) const {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(nlh);
    return std::vector<std::uint8_t>(bytes, bytes + nlh->nlmsg_len);
  }

 private:
  std::vector<std::uint32_t> storage_ = std::vector<std::uint32_t>(128);  // 512 bytes: our requests are < 100
};

Result<void> checkIfname(std::string_view ifname) {
  if (ifname.empty() || ifname.size() >= IFNAMSIZ || ifname.find('\0') != std::string_view::npos) {
    return fail("invalid interface name '" + std::string(ifname) + "'");
  }
  return {};
}

void putHeader(nlmsghdr* nlh, std::uint16_t nest_type, std::string_view ifname, std::uint32_t flags) {
  nlattr* nest = mnl_attr_nest_start(nlh, nest_type);
  const std::string name(ifname);
  mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, name.c_str());
  if (flags != 0) mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
  mnl_attr_nest_end(nlh, nest);
}

// Every ethtool GET message numbers its header attribute 1.
constexpr std::uint16_t kHeaderAttr = 1;
// The compat numbers follow the attributes the system headers do know.
static_assert(uapi::kFecStatHist == ETHTOOL_A_FEC_STAT_CORR_BITS + 1);
static_assert(uapi::kLinkstateExtDownCnt == ETHTOOL_A_LINKSTATE_EXT_SUBSTATE + 1);

static_assert(ETHTOOL_A_MODULE_EEPROM_HEADER == kHeaderAttr && ETHTOOL_A_FEC_HEADER == kHeaderAttr &&
              ETHTOOL_A_LINKMODES_HEADER == kHeaderAttr && ETHTOOL_A_LINKSTATE_HEADER == kHeaderAttr);

}  // namespace

Result<std::vector<NetlinkMessage>> splitMessages(std::span<const std::uint8_t> datagram) {
  std::vector<NetlinkMessage> messages;
  std::size_t pos = 0;
  while (datagram.size() - pos >= NLMSG_HDRLEN) {
    const auto len = load<std::uint32_t>(datagram, pos);
    if (len < NLMSG_HDRLEN || len > datagram.size() - pos) return fail("netlink message length exceeds datagram");
    NetlinkMessage message;
    message.type = load<std::uint16_t>(datagram, pos + 4);
    message.flags = load<std::uint16_t>(datagram, pos + 6);
    message.seq = load<std::uint32_t>(datagram, pos + 8);
    message.port_id = load<std::uint32_t>(datagram, pos + 12);
    const auto body = datagram.subspan(pos + NLMSG_HDRLEN, len - NLMSG_HDRLEN);
    message.payload.assign(body.begin(), body.end());
    messages.push_back(std::move(message));
    pos += std::min<std::size_t>(NLMSG_ALIGN(len), datagram.size() - pos);
  }
  return messages;
}

Result<NetlinkAck> parseAck(std::span<const std::uint8_t> payload) {
  if (payload.size() < sizeof(std::int32_t)) return fail("netlink error message too short");
  NetlinkAck ack;
  const auto code = load<std::int32_t>(payload);
  ack.error = code == INT32_MIN ? INT32_MAX : (code < 0 ? -code : code);
  // Extended ACK TLVs follow the echoed request header (NLM_F_CAPPED: header
  // only). We do not know the flags here, so look past the header only when
  // its own length fits, and take the first NLMSGERR_ATTR_MSG we find.
  const std::size_t echoed = sizeof(std::int32_t);
  if (payload.size() >= echoed + NLMSG_HDRLEN) {
    const auto inner_len = load<std::uint32_t>(payload, echoed);
    for (const std::size_t skip : {std::size_t{NLMSG_HDRLEN}, std::size_t{NLMSG_ALIGN(inner_len)}}) {
      if (skip > payload.size() - echoed) continue;
      std::string text;
      const auto walked = forEachAttr(payload.subspan(echoed + skip), [&](const Attr& attr) {
        if (attr.type == NLMSGERR_ATTR_MSG && text.empty()) text = string(attr);
      });
      if (walked && !text.empty()) {
        ack.message = text;
        break;
      }
    }
  }
  return ack;
}

std::vector<std::uint8_t> buildGetFamily(std::uint32_t seq, std::string_view family_name) {
  MessageBuffer buffer;
  nlmsghdr* nlh = buffer.start(GENL_ID_CTRL, seq, CTRL_CMD_GETFAMILY, 1);
  const std::string name(family_name.substr(0, GENL_NAMSIZ - 1));
  mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name.c_str());
  return buffer.finish(nlh);
}

bool GenlFamily::supports(std::uint32_t command) const {
  return std::find(operations.begin(), operations.end(), command) != operations.end();
}

Result<GenlFamily> parseFamilyReply(std::span<const std::uint8_t> payload) {
  auto attrs = genlAttributes(payload);
  if (!attrs) return tl::unexpected(attrs.error());
  GenlFamily family;
  bool have_id = false;
  Result<void> nested_ok;
  auto walked = forEachAttr(*attrs, [&](const Attr& attr) {
    if (attr.type == CTRL_ATTR_FAMILY_ID) {
      if (auto id = scalar<std::uint16_t>(attr)) {
        family.id = *id;
        have_id = true;
      }
    } else if (attr.type == CTRL_ATTR_VERSION) {
      family.version = scalar<std::uint32_t>(attr).value_or(0);
    } else if (attr.type == CTRL_ATTR_OPS) {
      auto ops = forEachAttr(attr.data, [&](const Attr& op) {
        auto inner = forEachAttr(op.data, [&](const Attr& field) {
          if (field.type == CTRL_ATTR_OP_ID) {
            if (auto id = scalar<std::uint32_t>(field)) family.operations.push_back(*id);
          }
        });
        if (!inner) nested_ok = inner;
      });
      if (!ops) nested_ok = ops;
    }
  });
  if (!walked) return tl::unexpected(walked.error());
  if (!nested_ok) return tl::unexpected(nested_ok.error());
  if (!have_id) return fail("generic netlink family reply without a family id");
  return family;
}

Result<std::vector<std::uint8_t>> buildEthtoolGet(std::uint16_t family, std::uint8_t command, std::uint32_t seq,
                                                  std::string_view ifname, std::uint32_t header_flags) {
  if (auto ok = checkIfname(ifname); !ok) return tl::unexpected(ok.error());
  MessageBuffer buffer;
  nlmsghdr* nlh = buffer.start(family, seq, command, ETHTOOL_GENL_VERSION);
  putHeader(nlh, kHeaderAttr, ifname, header_flags);
  return buffer.finish(nlh);
}

Result<std::vector<std::uint8_t>> buildModuleEepromGet(std::uint16_t family, std::uint32_t seq, std::string_view ifname,
                                                       const eeprom::PageRequest& request) {
  if (auto ok = checkIfname(ifname); !ok) return tl::unexpected(ok.error());
  if (request.length == 0 || request.offset + request.length > 256) {
    return fail("page request outside the 256-byte window");
  }
  MessageBuffer buffer;
  nlmsghdr* nlh = buffer.start(family, seq, ETHTOOL_MSG_MODULE_EEPROM_GET, ETHTOOL_GENL_VERSION);
  putHeader(nlh, ETHTOOL_A_MODULE_EEPROM_HEADER, ifname, 0);
  mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_OFFSET, request.offset);
  mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_LENGTH, request.length);
  mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_PAGE, request.page);
  mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_BANK, request.bank);
  mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, request.i2c_address);
  return buffer.finish(nlh);
}

Result<std::vector<std::uint8_t>> parseModuleEepromReply(std::span<const std::uint8_t> payload) {
  auto attrs = genlAttributes(payload);
  if (!attrs) return tl::unexpected(attrs.error());
  std::optional<std::vector<std::uint8_t>> data;
  auto walked = forEachAttr(*attrs, [&](const Attr& attr) {
    if (attr.type == ETHTOOL_A_MODULE_EEPROM_DATA) data.emplace(attr.data.begin(), attr.data.end());
  });
  if (!walked) return tl::unexpected(walked.error());
  if (!data) return fail("module EEPROM reply without data");
  return *data;
}

Result<FecReply> parseFecReply(std::span<const std::uint8_t> payload) {
  auto attrs = genlAttributes(payload);
  if (!attrs) return tl::unexpected(attrs.error());
  FecReply reply;
  Result<void> nested_ok;
  // Each statistic is one attribute holding u64[1 + lanes]: the total, then
  // one value per lane where the NIC driver counts per lane (kernel
  // net/ethtool/fec.c, fec_put_stats).
  auto u64s = [](const Attr& attr) {
    std::vector<std::uint64_t> values(attr.data.size() / sizeof(std::uint64_t));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = load<std::uint64_t>(attr.data, i * 8);
    return values;
  };
  // One ETHTOOL_A_FEC_STAT_HIST nest per bin.
  auto bin = [&](const Attr& nest) {
    FecHistogramBin b;
    std::optional<std::uint32_t> low, high;
    auto inner = forEachAttr(nest.data, [&](const Attr& field) {
      switch (field.type) {
        case uapi::kFecHistBinLow:
          low = scalar<std::uint32_t>(field);
          break;
        case uapi::kFecHistBinHigh:
          high = scalar<std::uint32_t>(field);
          break;
        case uapi::kFecHistBinVal:  // "uint": 4 or 8 bytes
          if (field.data.size() == sizeof(std::uint32_t)) b.codewords_total = scalar<std::uint32_t>(field);
          if (field.data.size() == sizeof(std::uint64_t)) b.codewords_total = scalar<std::uint64_t>(field);
          break;
        case uapi::kFecHistBinValPerLane:
          b.lane_codewords_total = u64s(field);
          break;
        default:
          break;
      }
    });
    if (!inner) {
      nested_ok = inner;
      return;
    }
    if (!low || !high || *low > *high || *high > 0xFFFF) return;
    if (!b.codewords_total && b.lane_codewords_total.empty()) return;
    b.low = static_cast<std::uint16_t>(*low);
    b.high = static_cast<std::uint16_t>(*high);
    reply.counters.histogram.push_back(std::move(b));
  };
  auto walked = forEachAttr(*attrs, [&](const Attr& attr) {
    if (attr.type == ETHTOOL_A_FEC_ACTIVE) {
      reply.active_fec_bit = scalar<std::uint32_t>(attr);
    } else if (attr.type == ETHTOOL_A_FEC_STATS) {
      auto stats = forEachAttr(attr.data, [&](const Attr& stat) {
        if (stat.type == uapi::kFecStatHist) {
          bin(stat);
          return;
        }
        const auto values = u64s(stat);
        if (values.empty()) return;
        const auto lanes = std::span(values).subspan(1);
        switch (stat.type) {
          case ETHTOOL_A_FEC_STAT_CORRECTED:
            reply.counters.corrected_blocks_total = values[0];
            reply.lane_corrected_blocks.assign(lanes.begin(), lanes.end());
            break;
          case ETHTOOL_A_FEC_STAT_UNCORR:
            reply.counters.uncorrectable_blocks_total = values[0];
            break;
          case ETHTOOL_A_FEC_STAT_CORR_BITS:
            reply.counters.corrected_bits_total = values[0];
            reply.counters.lane_corrected_bits_total.assign(lanes.begin(), lanes.end());
            break;
          default:
            break;
        }
      });
      if (!stats) nested_ok = stats;
    }
  });
  if (!walked) return tl::unexpected(walked.error());
  if (!nested_ok) return tl::unexpected(nested_ok.error());
  return reply;
}

Result<LinkModesReply> parseLinkModesReply(std::span<const std::uint8_t> payload) {
  auto attrs = genlAttributes(payload);
  if (!attrs) return tl::unexpected(attrs.error());
  LinkModesReply reply;
  auto walked = forEachAttr(*attrs, [&](const Attr& attr) {
    if (attr.type == ETHTOOL_A_LINKMODES_SPEED) {
      auto speed = scalar<std::uint32_t>(attr);
      if (speed && *speed != 0 && *speed != static_cast<std::uint32_t>(SPEED_UNKNOWN)) reply.speed_mbps = speed;
    } else if (attr.type == ETHTOOL_A_LINKMODES_LANES) {
      auto lanes = scalar<std::uint32_t>(attr);
      if (lanes && *lanes != 0) reply.lanes = lanes;
    }
  });
  if (!walked) return tl::unexpected(walked.error());
  return reply;
}

Result<LinkStateReply> parseLinkStateReply(std::span<const std::uint8_t> payload) {
  auto attrs = genlAttributes(payload);
  if (!attrs) return tl::unexpected(attrs.error());
  LinkStateReply reply;
  std::optional<std::uint8_t> ext_state, ext_substate;
  auto walked = forEachAttr(*attrs, [&](const Attr& attr) {
    if (attr.type == ETHTOOL_A_LINKSTATE_LINK) {
      if (auto value = scalar<std::uint8_t>(attr)) reply.link = *value != 0;
    } else if (attr.type == ETHTOOL_A_LINKSTATE_EXT_STATE) {
      ext_state = scalar<std::uint8_t>(attr);
    } else if (attr.type == ETHTOOL_A_LINKSTATE_EXT_SUBSTATE) {
      ext_substate = scalar<std::uint8_t>(attr);
    } else if (attr.type == uapi::kLinkstateExtDownCnt) {
      reply.down_count = scalar<std::uint32_t>(attr);
    }
  });
  if (!walked) return tl::unexpected(walked.error());
  // The kernel sends the extended state only while the link is down, and a
  // substate only with a state (net/ethtool/linkstate.c).
  if (ext_state) reply.down_reason = LinkDownReason{*ext_state, ext_substate};
  return reply;
}

Result<LinkEvent> parseLinkMessage(std::uint16_t type, std::span<const std::uint8_t> payload) {
  if (type != RTM_NEWLINK && type != RTM_DELLINK) return fail("not a link message");
  if (payload.size() < sizeof(ifinfomsg)) return fail("link message shorter than ifinfomsg");
  const auto info = load<ifinfomsg>(payload);
  LinkEvent event;
  event.ifindex = info.ifi_index;
  event.running = (info.ifi_flags & IFF_RUNNING) != 0;
  event.deleted = type == RTM_DELLINK;
  auto walked = forEachAttr(payload.subspan(NLMSG_ALIGN(sizeof(ifinfomsg))), [&](const Attr& attr) {
    if (attr.type == IFLA_IFNAME) event.name = string(attr);
  });
  if (!walked) return tl::unexpected(walked.error());
  return event;
}

}  // namespace opticsd::ethtool
