// Feeds arbitrary datagrams to the netlink splitter and every parser the
// ethtool driver applies to kernel replies. Nothing may crash, hang or read
// out of bounds (ASan/UBSan), whatever the bytes.
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "drivers/ethtool/netlink_message.hpp"

using namespace opticsd::ethtool;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  // The payload parsers on the raw bytes, as if one message's body...
  (void)parseAck(bytes);
  (void)parseFamilyReply(bytes);
  (void)parseModuleEepromReply(bytes);
  (void)parseFecReply(bytes);
  (void)parseLinkModesReply(bytes);
  (void)parseLinkStateReply(bytes);
  (void)parseLinkMessage(RTM_NEWLINK, bytes);
  // ...and on each message of the datagram, as the channel does.
  auto messages = splitMessages(bytes);
  if (!messages) return 0;
  for (const auto& message : *messages) {
    if (message.type == NLMSG_ERROR) {
      (void)parseAck(message.payload);
    } else if (message.type == RTM_NEWLINK || message.type == RTM_DELLINK) {
      (void)parseLinkMessage(message.type, message.payload);
    } else {
      (void)parseFamilyReply(message.payload);
      (void)parseModuleEepromReply(message.payload);
      (void)parseFecReply(message.payload);
      (void)parseLinkModesReply(message.payload);
      (void)parseLinkStateReply(message.payload);
    }
  }
  return 0;
}
