#include "daemon/rules/replay_rules.hpp"

#include "daemon/pipeline/fec_ber_deriver.hpp"
#include "drivers/plausibility.hpp"
#include "drivers/replay/replay_driver.hpp"

namespace opticsd {

ReplayRun runReplayThroughRules(replay::ReplayDirectory capture, const std::string& target, std::size_t steps,
                                std::int64_t first_ms, std::int64_t step_interval_ms, RulesEngine& engine) {
  replay::ReplayDriver driver(target, nullptr, std::move(capture), step_interval_ms);
  FecBerDeriver fec;
  ReplayRun run;
  for (; run.steps < steps; ++run.steps) {
    // The clock given is only the first step's: later steps take their
    // times from the capture, so no step waits for anything.
    PollResult result = driver.step(first_ms);
    for (Sample& s : result.samples) {
      s.target = target;
      dropImplausibleValues(s);
      fec.apply(s);
      run.last_sample_ms = s.timestamp_ms;
    }
    engine.evaluate(target, result.samples);
  }
  return run;
}

}  // namespace opticsd
