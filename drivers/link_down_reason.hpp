#pragma once
// Names for why a link is down, and what an engineer does next for each.
//
// The numbering is the Linux kernel's (uapi linux/ethtool.h: enum
// ethtool_link_ext_state and the ethtool_link_ext_substate_* enums, kernel
// 5.10+; Documentation/networking/ethtool-netlink.rst "LINKSTATE_GET"), which
// the ethtool driver reads as it is and other sources map onto. Unknown
// numbers (a newer kernel) get a generic name, never an error.

#include <string>
#include <string_view>

#include "drivers/sample.hpp"

namespace opticsd {

// "bad_signal_integrity", "cable_issue", ... ; "unknown_<n>" past the table.
std::string linkDownReasonName(const LinkDownReason& reason);
// "serdes_alos", "an_no_partner_detected", ... ; "" when none or unknown.
std::string linkDownSubstateName(const LinkDownReason& reason);
// One sentence: what to check or do first.
std::string_view linkDownNextStep(const LinkDownReason& reason);
// "bad_signal_integrity/serdes_alos: clean the connector ..." for findings.
std::string describeLinkDown(const LinkDownReason& reason);

}  // namespace opticsd
