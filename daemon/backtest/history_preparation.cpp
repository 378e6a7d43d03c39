#include "daemon/backtest/history_preparation.hpp"

#include <utility>

namespace opticsd {

void HistoryPreparation::prepare(Sample& sample) {
  one_.resize(1);
  std::swap(one_.front(), sample);
  const std::string target = one_.front().target;
  preparation_.prepare(target, one_.front().timestamp_ms, one_);
  std::swap(one_.front(), sample);
}

}  // namespace opticsd
