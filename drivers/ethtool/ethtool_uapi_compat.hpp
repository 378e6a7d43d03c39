#pragma once
// ethtool netlink attribute numbers newer than the <linux/ethtool_netlink.h>
// of Debian 12 (kernel 6.1 headers). The one place they are defined; every
// number is the kernel's own, from its uapi and its netlink spec:
//
// - FEC histogram, Linux 6.18 ("ethtool: add FEC bins histogram report",
//   Documentation/netlink/specs/ethtool.yaml attribute-sets `fec-stat` and
//   `fec-hist`; include/uapi/linux/ethtool_netlink_generated.h):
//     fec-stat: pad 1, corrected 2, uncorr 3, corr-bits 4, hist 5 (nest, multi-attr)
//     fec-hist: pad 1, bin-low 2 (u32, inclusive), bin-high 3 (u32, inclusive),
//               bin-val 4 (uint: u32 or u64), bin-val-per-lane 5 (binary, u64 array)
// - Link-down counter, Linux 6.6 (ethtool-netlink.rst LINKSTATE_GET,
//   `ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT`, u32): linkstate attribute 7.
//
// A kernel without them leaves the attributes out: nothing is reported, no
// error. When the system headers define them, the static_asserts in
// netlink_message.cpp check these against them.

#include <cstdint>

namespace opticsd::ethtool::uapi {

inline constexpr std::uint16_t kFecStatHist = 5;  // ETHTOOL_A_FEC_STAT_HIST

inline constexpr std::uint16_t kFecHistPad = 1;  // ETHTOOL_A_FEC_HIST_PAD
inline constexpr std::uint16_t kFecHistBinLow = 2;
inline constexpr std::uint16_t kFecHistBinHigh = 3;
inline constexpr std::uint16_t kFecHistBinVal = 4;
inline constexpr std::uint16_t kFecHistBinValPerLane = 5;

inline constexpr std::uint16_t kLinkstateExtDownCnt = 7;  // ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT

}  // namespace opticsd::ethtool::uapi
