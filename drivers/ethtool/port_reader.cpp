#include "drivers/ethtool/port_reader.hpp"

#include <linux/ethtool_netlink.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstring>

#include "drivers/ethtool/legacy_module_reader.hpp"
#include "drivers/module/module_read_session.hpp"

namespace opticsd::ethtool {
namespace {

bool meansNoModule(int error) { return error == EOPNOTSUPP || error == ENODEV; }

std::string errorText(const NetlinkChannel::Reply& reply) {
  std::string text = std::strerror(reply.error);
  if (!reply.error_message.empty()) text += " (" + reply.error_message + ")";
  return text;
}

class PortRead : public std::enable_shared_from_this<PortRead> {
 public:
  PortRead(PortReadContext context, std::string ifname, std::function<void(module::PortReading)> done)
      : context_(std::move(context)), done_(std::move(done)) {
    reading_.port = std::move(ifname);
  }

  void start() {
    // A kernel that lists ETHTOOL_MSG_MODULE_EEPROM_GET (5.13+) falls back to
    // the NIC driver's legacy EEPROM hooks itself, so its EOPNOTSUPP is final.
    // Without the message (or without an operations list to tell), the ioctl
    // is the way to the module.
    const bool listed = context_.family && context_.family->supports(ETHTOOL_MSG_MODULE_EEPROM_GET);
    const bool unknown = context_.family && context_.family->operations.empty();
    const bool netlink_pages = context_.channel && (listed || unknown);
    legacy_after_no_module_ = unknown;
    if (context_.channel && context_.family) requestCounters();
    if (netlink_pages) {
      requestPages(session_.start(), true);
    } else {
      startLegacy();
    }
    maybeFinish();
  }

 private:
  void requestCounters() {
    auto self = shared_from_this();
    const auto family = context_.family->id;
    auto send = [&](std::uint8_t command, std::uint32_t flags, auto&& on_reply) {
      const auto seq = context_.channel->nextSeq();
      auto message = buildEthtoolGet(family, command, seq, reading_.port, flags);
      if (!message) {
        reading_.issues.push_back(message.error().message);
        return;
      }
      ++outstanding_;
      context_.channel->request(seq, std::move(*message), [self, on_reply](NetlinkChannel::Reply reply) {
        --self->outstanding_;
        on_reply(reply);
        self->maybeFinish();
      });
    };
    send(ETHTOOL_MSG_FEC_GET, ETHTOOL_FLAG_STATS, [self](const NetlinkChannel::Reply& reply) {
      if (reply.error != 0) {
        if (!meansNoModule(reply.error)) self->reading_.issues.push_back("FEC statistics: " + errorText(reply));
        return;
      }
      if (auto fec = parseFecReply(reply.message.payload)) {
        self->reading_.fec = fec->counters;
        self->active_fec_bit_ = fec->active_fec_bit;
      } else {
        self->reading_.issues.push_back("FEC reply: " + fec.error().message);
      }
    });
    send(ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_FLAG_COMPACT_BITSETS, [self](const NetlinkChannel::Reply& reply) {
      if (reply.error != 0) return;  // virtual links often have no link modes
      if (auto modes = parseLinkModesReply(reply.message.payload)) {
        if (modes->speed_mbps) self->reading_.link.speed_gbps = *modes->speed_mbps / 1000.0;
        if (modes->lanes) self->reading_.link.lanes = static_cast<std::uint16_t>(*modes->lanes);
      }
    });
    send(ETHTOOL_MSG_LINKSTATE_GET, 0, [self](const NetlinkChannel::Reply& reply) {
      if (reply.error != 0) return;
      if (auto state = parseLinkStateReply(reply.message.payload)) {
        self->reading_.link.up = state->link;
        self->reading_.link.down_reason = state->down_reason;
        if (state->down_reason) self->reading_.link.last_down_reason = state->down_reason;
        if (state->down_count) self->reading_.link.down_events_total = *state->down_count;
      }
    });
  }

  void requestPages(const std::vector<eeprom::PageRequest>& pages, bool first_round) {
    auto self = shared_from_this();
    for (std::size_t i = 0; i < pages.size(); ++i) {
      const auto& page = pages[i];
      const auto seq = context_.channel->nextSeq();
      auto message = buildModuleEepromGet(context_.family->id, seq, reading_.port, page);
      if (!message) {
        session_.deliver(page, tl::unexpected(message.error()));
        continue;
      }
      ++outstanding_;
      ++pages_outstanding_;
      const bool identity = first_round && i == 0;
      context_.channel->request(seq, std::move(*message), [self, page, identity](NetlinkChannel::Reply reply) {
        --self->outstanding_;
        --self->pages_outstanding_;
        self->onPage(page, identity, reply);
        self->maybeFinish();
      });
    }
  }

  void onPage(const eeprom::PageRequest& page, bool identity, const NetlinkChannel::Reply& reply) {
    if (reply.error != 0) {
      if (identity && meansNoModule(reply.error)) {
        no_module_ = true;  // the first page decides whether there is a module at all
      } else if (identity && reply.error == EBUSY) {
        // The kernel refuses page reads while the module's firmware is being
        // flashed (net/ethtool/module.c): maintenance, not a failure.
        busy_ = true;
      } else if (identity && reply.error == EPERM) {
        // Module pages are a privileged read (the counters are not).
        denied_ = true;
        reading_.issues.push_back("module pages need CAP_NET_ADMIN: " + errorText(reply));
      } else {
        session_.deliver(page, fail(errorText(reply)));
      }
    } else if (auto data = parseModuleEepromReply(reply.message.payload)) {
      session_.deliver(page, *data);
    } else {
      session_.deliver(page, tl::unexpected(data.error()));
    }
    if (pages_outstanding_ > 0 || denied_ || busy_) return;
    if (no_module_) {
      if (legacy_after_no_module_) startLegacy();
      return;
    }
    const auto next = session_.nextRound();
    if (!next.empty()) requestPages(next, false);
  }

  void startLegacy() {
    if (!context_.legacy_pool || !context_.io) return;
    ++outstanding_;
    auto self = shared_from_this();
    boost::asio::post(*context_.legacy_pool, [self] {
      auto result = readLegacyModule(self->reading_.port);
      boost::asio::post(*self->context_.io, [self, result = std::move(result)]() mutable {
        --self->outstanding_;
        if (!result) {
          self->reading_.issues.push_back("legacy module read: " + result.error().message);
        } else if (*result) {
          self->legacy_memory_ = std::move(**result);
        }
        self->maybeFinish();
      });
    });
  }

  void maybeFinish() {
    if (outstanding_ > 0 || finished_) return;
    finished_ = true;
    if (busy_) {
      reading_.module_present = true;
      reading_.maintenance = Maintenance{"firmware_flashing"};
    } else if (legacy_memory_) {
      reading_.memory = std::move(*legacy_memory_);
      reading_.module_present = true;
    } else if (!no_module_ && !session_.memory().empty()) {
      reading_.memory = std::move(session_.memory());
      reading_.module_present = true;
    } else if (!no_module_ && !denied_ && !session_.issues().empty()) {
      // Pages were expected but none could be read: a module that does not answer.
      reading_.module_present = true;
    }
    if (reading_.module_present && !legacy_memory_ && !busy_) {
      auto& issues = session_.issues();
      reading_.issues.insert(reading_.issues.end(), issues.begin(), issues.end());
    }
    reading_.fec.bits_per_block = module::bitsPerCorrectedBlock(active_fec_bit_, reading_.link);
    reading_.fec.correctable_symbols = module::correctableSymbols(active_fec_bit_, reading_.link);
    auto done = std::move(done_);
    done(std::move(reading_));
  }

  PortReadContext context_;
  std::function<void(module::PortReading)> done_;
  module::PortReading reading_;
  module::ModuleReadSession session_;
  std::optional<eeprom::ModuleMemory> legacy_memory_;
  std::optional<std::uint32_t> active_fec_bit_;
  int outstanding_ = 0;
  int pages_outstanding_ = 0;
  bool no_module_ = false;
  bool legacy_after_no_module_ = false;
  bool denied_ = false;
  bool busy_ = false;
  bool finished_ = false;
};

}  // namespace

void readPort(const PortReadContext& context, std::string ifname, std::function<void(module::PortReading)> done) {
  auto read = std::make_shared<PortRead>(context, std::move(ifname), std::move(done));
  read->start();
}

}  // namespace opticsd::ethtool
