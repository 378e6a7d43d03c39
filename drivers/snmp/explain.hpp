#pragma once
// `opticsd poll-once --explain`: when a sink is set, every SNMP driver of the
// process traces its next polls row by row (which profile rule matched, why
// a row was skipped) and hands the lines to the sink with its target name.
// Unset (the daemon): drivers trace nothing and format nothing.
//
// Thread-safety: set the sink before any poll starts; calls come from the
// io_context thread.

#include <functional>
#include <string>
#include <vector>

namespace opticsd::snmp {

using ExplainSink = std::function<void(const std::string& target, std::vector<std::string> lines)>;

void setExplainSink(ExplainSink sink);
const ExplainSink& explainSink();

}  // namespace opticsd::snmp
