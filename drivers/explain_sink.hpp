#pragma once
// `opticsd poll-once --explain`, for any driver: when a sink is set, a driver
// traces its next polls (which rule mapped what, what was ignored and why)
// and hands the lines to the sink with its target name. Unset (the daemon):
// drivers trace nothing and format nothing. The SNMP driver has its own sink
// (drivers/snmp/explain.hpp) with the same shape; poll-once sets both.
//
// Thread-safety: set the sink before any poll starts; drivers call it from
// the io_context thread.

#include <functional>
#include <string>
#include <vector>

namespace opticsd {

using ExplainSink = std::function<void(const std::string& target, std::vector<std::string> lines)>;

void setExplainSink(ExplainSink sink);
const ExplainSink& explainSink();

}  // namespace opticsd
