#pragma once
// One optic's whole story, as the optic page, its JSON and `opticsd explain`
// tell it: identity, each lane against the module's own thresholds (with the
// margin left), its history over a time range with thresholds and baselines,
// its findings with their evidence and what to do about each, swaps at this
// port and where its serial was seen, and the link's other end.
// Built from a PageData; plain values afterwards.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/topology/topology.hpp"
#include "daemon/web/next_action.hpp"
#include "daemon/web/page_data.hpp"

namespace opticsd::web {

// A value against the module's thresholds: the state, and the distance to
// the nearest warning bound in the value's unit (negative: beyond it).
struct Measured {
  std::optional<double> value;
  std::optional<Thresholds> thresholds;
  std::string state;  // "ok", "warning", "alarm", or "" (no value or no thresholds)
  std::optional<double> margin;
  std::string margin_text;  // "3.1 dB above the low warning"
};
Measured measure(const Reading& value, const std::optional<Thresholds>& thresholds, std::string_view unit);

struct LaneNow {
  int lane = 0;
  Measured rx_power_dbm, tx_power_dbm, tx_bias_ma;
  std::optional<double> pre_fec_ber;
  std::optional<double> baseline_rx_dbm, baseline_tx_dbm, baseline_bias_ma;
  std::vector<std::string> flags;  // "rx_los", "tx_fault" ... that are set
  // The FEC tail of the last poll window and the margin left to the code's
  // limit, in symbols (absent: no codeword histogram, or no window yet).
  std::optional<double> fec_tail_symbols, fec_margin_symbols;
};

using TimePoint = HistoryPoint;

// One plotted quantity of one lane (lane 0: the module or port).
struct SeriesData {
  std::string key;  // history column: "rx_power_dbm"
  int lane = 0;
  std::vector<TimePoint> points;
};

struct FindingStory {
  Finding finding;
  NextAction action;
};

struct FarEnd {
  std::string target;
  std::string port;
  std::string page_url;  // where its page is: this instance's or another's; empty when unknown
  std::string where;     // "this instance", "instance https://..."
  bool reachable = false;
  std::string error;  // why its values are not shown
  struct LanePair {
    int lane = 0;
    std::optional<double> their_tx_dbm;  // far end Tx
    std::optional<double> our_rx_dbm;    // our Rx
    std::optional<double> our_tx_dbm;
    std::optional<double> their_rx_dbm;
  };
  std::vector<LanePair> lanes;
  std::optional<double> their_score;
};

struct OpticStory {
  std::string target;
  std::string port;
  std::int64_t now_ms = 0;
  std::int64_t range_ms = 0;
  std::string range_name;  // "1h", "24h", "14d"

  bool live = false;  // the daemon serves a Sample for this port
  bool module_present = false;
  std::optional<std::int64_t> sampled_ms;
  bool stale = false;
  std::vector<std::pair<std::string, std::string>> identity;  // label, value (device text)
  std::string serial;
  Measured temperature_c, supply_v;
  std::optional<double> pre_fec_ber;
  std::optional<double> ber_warning, ber_critical;  // the levels the rules use
  std::optional<bool> link_up;
  std::optional<double> fec_tail_symbols, fec_margin_symbols;  // the port's, as the lanes'
  std::optional<double> fec_correctable_symbols;               // t of the active RS code: 15 for RS(544,514)
  std::vector<LaneNow> lanes;

  double score = 0;
  std::string reason;
  std::optional<Endpoint> endpoint;

  std::string history_error;  // empty: the history below is complete for the range
  std::string history_warning;
  std::vector<SeriesData> series;      // per time bucket its lowest, highest and last value
  std::int64_t bucket_ms = 0;          // the buckets' width
  std::vector<FindingStory> findings;  // active first, then newest first
  struct Identity {
    std::string serial, vendor, part;
    std::int64_t first_seen_ms = 0, last_seen_ms = 0;
  };
  std::vector<Identity> swaps;                   // modules this port has held, oldest first
  std::vector<SerialSighting> serial_elsewhere;  // the current serial at other ports
  std::optional<FarEnd> far_end;
};

// Resolves a far end that another instance polls (instances.hpp); may be null.
class FarEndResolver {
 public:
  virtual ~FarEndResolver() = default;
  // Fills page_url, where, reachable, error and the far end's own values.
  virtual void resolve(FarEnd& far_end, const OpticStory& near) const = 0;
};

struct StoryRequest {
  std::string target;
  std::string port;
  std::string range = "24h";  // "1h", "24h" or "14d"
};

// nullopt: neither live values nor history know this port.
std::optional<OpticStory> buildOpticStory(const PageData& data, const StoryRequest& request,
                                          const FarEndResolver* remote = nullptr);

// 1 h, 24 h, 14 d in ms; an unknown name is an Error.
Result<std::int64_t> rangeMs(std::string_view name);

// The page of an optic on this instance, relative to its root.
std::string opticPath(std::string_view target, std::string_view port);

}  // namespace opticsd::web
