#pragma once
// What happened to a module, read from its own history: the ground truth a
// backtest judges findings against. Plain value types.

#include <cstdint>
#include <string>
#include <string_view>

namespace opticsd {

enum class EventKind : std::uint8_t {
  kLinkDown,       // link_up went false, or the link-down count rose
  kLossOfSignal,   // a lane's Rx LOS rose
  kLaneDark,       // a lane lost its light while another kept it
  kUncorrectable,  // post-FEC uncorrectable codewords counted since the previous row
  kBerOverLimit,   // pre-FEC BER above the FEC limit the rules give the port
  kModuleSwapped,  // a new serial at a port that had a recorded finding
};
std::string_view toString(EventKind kind);

struct HistoryEvent {
  std::string target;
  std::string port;
  int lane = 0;  // 1-based; 0: the module or port
  EventKind kind = EventKind::kLinkDown;
  std::int64_t time_ms = 0;
};

}  // namespace opticsd
