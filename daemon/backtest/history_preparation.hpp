#pragma once
// The preparation the daemon applies to every poll before its sinks
// (daemon/pipeline/pipeline.cpp): implausible readings dropped, pre-FEC BER
// derived from the FEC counters where the Sample carries none (a value the
// store kept is never overwritten). The backtest sends every Sample it
// rebuilds from history through here before the rules, so it judges what the
// daemon judged.
//
// The one place the backtest names the daemon's preparation: when that
// becomes a class of its own, prepare() is the line to switch.
//
// Not thread-safe: one per replay.

#include "daemon/pipeline/fec_ber_deriver.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class HistoryPreparation {
 public:
  void prepare(Sample& sample);

 private:
  FecBerDeriver fec_;
};

}  // namespace opticsd
