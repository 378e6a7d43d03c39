#include "drivers/explain_sink.hpp"

namespace opticsd {
namespace {

ExplainSink& sinkSlot() {
  static ExplainSink sink;
  return sink;
}

}  // namespace

void setExplainSink(ExplainSink sink) { sinkSlot() = std::move(sink); }
const ExplainSink& explainSink() { return sinkSlot(); }

}  // namespace opticsd
