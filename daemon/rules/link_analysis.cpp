#include "daemon/rules/link_analysis.hpp"

namespace opticsd {

std::string_view toString(LinkVerdict verdict) {
  switch (verdict) {
    case LinkVerdict::kHealthy:
      return "healthy";
    case LinkVerdict::kPathLoss:
      return "fibre or connector loss";
    case LinkVerdict::kFarEndTxLow:
      return "far-end transmitter weak";
    case LinkVerdict::kNearEndRxHigh:
      return "receiver reads more light than the far end sends";
  }
  return "healthy";
}

LinkVerdict classifyLink(const LinkEnds& ends, double max_path_loss_db, double tx_low_default_dbm) {
  const double loss = ends.far_tx_dbm - ends.near_rx_dbm;
  const double tx_low = ends.far_tx_low_dbm.value_or(tx_low_default_dbm);
  const bool far_weak = ends.far_tx_dbm < tx_low;
  if (loss > max_path_loss_db) {
    // A weak far transmitter does not explain a path that loses more than it should.
    return LinkVerdict::kPathLoss;
  }
  if (far_weak) return LinkVerdict::kFarEndTxLow;
  if (loss < -1.0) return LinkVerdict::kNearEndRxHigh;  // more light than was sent: a receiver misreading
  return LinkVerdict::kHealthy;
}

}  // namespace opticsd
