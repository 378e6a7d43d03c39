#include "drivers/ethtool/legacy_module_reader.hpp"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace opticsd::ethtool {

Result<eeprom::ModuleMemory> memoryFromLegacyDump(std::uint32_t type, std::span<const std::uint8_t> dump) {
  eeprom::ModuleMemory memory;
  auto put = [&](std::uint8_t i2c, std::uint8_t page, std::size_t window_offset, std::size_t from, std::size_t n) {
    if (from >= dump.size()) return;
    n = std::min(n, dump.size() - from);
    memory.write(i2c, 0, page, window_offset, dump.subspan(from, n));
  };
  switch (type) {
    case ETH_MODULE_SFF_8079:
      put(eeprom::kI2cAddressA0, 0, 0, 0, 256);
      break;
    case ETH_MODULE_SFF_8472:
      put(eeprom::kI2cAddressA0, 0, 0, 0, 256);
      put(eeprom::kI2cAddressA2, 0, 0, 256, 256);
      break;
    case ETH_MODULE_SFF_8636:
    case ETH_MODULE_SFF_8436:
      put(eeprom::kI2cAddressA0, 0, 0, 0, 256);
      for (std::uint8_t page = 1; page <= 3; ++page) put(eeprom::kI2cAddressA0, page, 128, 128 + page * 128, 128);
      break;
    default:
      return fail("unknown legacy module type " + std::to_string(type));
  }
  if (memory.empty()) return fail("empty legacy module dump");
  return memory;
}

Result<std::optional<eeprom::ModuleMemory>> readLegacyModule(const std::string& ifname) {
  if (ifname.empty() || ifname.size() >= IFNAMSIZ) return fail("invalid interface name '" + ifname + "'");
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(std::string("socket: ") + std::strerror(errno));
  auto call = [&](void* data) {
    ifreq request{};
    std::memcpy(request.ifr_name, ifname.c_str(), ifname.size());
    request.ifr_data = static_cast<char*>(data);
    return ::ioctl(fd, SIOCETHTOOL, &request) == 0 ? 0 : errno;
  };
  ethtool_modinfo info{};
  info.cmd = ETHTOOL_GMODULEINFO;
  if (int error = call(&info); error != 0) {
    ::close(fd);
    if (error == EOPNOTSUPP || error == ENODEV || error == EINVAL) return std::optional<eeprom::ModuleMemory>{};
    return fail(std::string("ETHTOOL_GMODULEINFO: ") + std::strerror(error));
  }
  const std::uint32_t length = std::min<std::uint32_t>(info.eeprom_len, ETH_MODULE_SFF_8636_MAX_LEN);
  std::vector<std::uint8_t> buffer(sizeof(ethtool_eeprom) + length);
  ethtool_eeprom header{};
  header.cmd = ETHTOOL_GMODULEEEPROM;
  header.offset = 0;
  header.len = length;
  std::memcpy(buffer.data(), &header, sizeof(header));
  const int error = call(buffer.data());
  ::close(fd);
  if (error != 0) return fail(std::string("ETHTOOL_GMODULEEEPROM: ") + std::strerror(error));
  auto memory = memoryFromLegacyDump(info.type, std::span(buffer).subspan(sizeof(ethtool_eeprom), length));
  if (!memory) return tl::unexpected(memory.error());
  return std::optional<eeprom::ModuleMemory>(std::move(*memory));
}

}  // namespace opticsd::ethtool
