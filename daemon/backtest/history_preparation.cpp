#include "daemon/backtest/history_preparation.hpp"

#include "drivers/plausibility.hpp"

namespace opticsd {

void HistoryPreparation::prepare(Sample& sample) {
  dropImplausibleReadings(sample);
  fec_.apply(sample);
}

}  // namespace opticsd
