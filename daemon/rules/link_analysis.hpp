#pragma once
// With both ends of a link known, where is the light lost? Our Rx compared
// with the far end's Tx tells a dirty/damaged fibre or connector (both
// modules transmit normally, the path loses light) from a failing module (the
// path loss is normal, one end's transmitter is weak). Pure functions.

#include <optional>
#include <string_view>

namespace opticsd {

enum class LinkVerdict { kHealthy, kPathLoss, kFarEndTxLow, kNearEndRxHigh };
std::string_view toString(LinkVerdict verdict);

struct LinkEnds {
  double far_tx_dbm = 0;                 // the far end's transmitter, on the lane that reaches us
  double near_rx_dbm = 0;                // what our receiver sees on that lane
  std::optional<double> far_tx_low_dbm;  // the far module's own low-warning Tx limit, if advertised
};

// `max_path_loss_db`: the loss above which the path itself is suspect.
LinkVerdict classifyLink(const LinkEnds& ends, double max_path_loss_db, double tx_low_default_dbm = -5.0);

}  // namespace opticsd
