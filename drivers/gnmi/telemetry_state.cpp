#include "drivers/gnmi/telemetry_state.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "drivers/units.hpp"

namespace opticsd::gnmi {
namespace {

std::string_view afterPrefix(std::string_view text) {
  auto colon = text.rfind(':');
  return colon == std::string_view::npos ? text : text.substr(colon + 1);
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// A rule's number in its metric's unit: scaled, and mW to dBm with the -40 dBm
// floor where the rule says the value is power in mW.
double valueOf(const LeafRule& rule, double number) {
  return rule.milliwatts ? opticalPowerFromMilliwatts(number * rule.scale).dbm : number * rule.scale;
}

std::optional<double> numberOf(const LeafValue& v) {
  switch (v.kind) {
    case LeafValue::Kind::kNumber:
    case LeafValue::Kind::kCount:
      if (!std::isfinite(v.number)) return std::nullopt;
      return v.number;
    case LeafValue::Kind::kText: {
      double out = 0;
      const char* begin = v.text.data();
      const char* end = begin + v.text.size();
      auto [ptr, ec] = std::from_chars(begin, end, out);
      if (ec != std::errc() || ptr != end || !std::isfinite(out)) return std::nullopt;
      return out;
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::uint64_t> countOf(const LeafValue& v) {
  if (v.kind == LeafValue::Kind::kCount) return v.count;
  if (v.kind == LeafValue::Kind::kText) {
    std::uint64_t out = 0;
    const char* begin = v.text.data();
    const char* end = begin + v.text.size();
    auto [ptr, ec] = std::from_chars(begin, end, out);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return out;
  }
  if (v.kind == LeafValue::Kind::kNumber && v.number >= 0 && v.number < 9.0e15 && std::floor(v.number) == v.number) {
    return static_cast<std::uint64_t>(v.number);
  }
  return std::nullopt;
}

std::optional<bool> operUp(const LeafValue& v) {
  if (v.kind == LeafValue::Kind::kBool) return v.flag;
  if (v.kind != LeafValue::Kind::kText) return std::nullopt;
  const std::string_view s = afterPrefix(v.text);
  if (equalsNoCase(s, "UP")) return true;
  if (equalsNoCase(s, "DOWN") || equalsNoCase(s, "LOWER_LAYER_DOWN") || equalsNoCase(s, "NOT_PRESENT") ||
      equalsNoCase(s, "DORMANT")) {
    return false;
  }
  return std::nullopt;
}

std::optional<bool> presence(const LeafValue& v) {
  if (v.kind == LeafValue::Kind::kBool) return v.flag;
  if (v.kind != LeafValue::Kind::kText) return std::nullopt;
  const std::string_view s = afterPrefix(v.text);
  if (equalsNoCase(s, "PRESENT")) return true;
  if (equalsNoCase(s, "NOT_PRESENT")) return false;
  return std::nullopt;
}

// CRITICAL and WARNING are authoritative; MAJOR and MINOR fill in where a
// target does not send those.
void setThreshold(std::optional<Thresholds>& slot, std::string_view severity, bool upper, double value) {
  const std::string_view s = afterPrefix(severity);
  const bool alarm = equalsNoCase(s, "CRITICAL") || equalsNoCase(s, "MAJOR");
  const bool warning = equalsNoCase(s, "WARNING") || equalsNoCase(s, "MINOR");
  if (!alarm && !warning) return;
  const bool weak = equalsNoCase(s, "MAJOR") || equalsNoCase(s, "MINOR");
  if (!slot) slot.emplace();
  Reading& target =
      alarm ? (upper ? slot->high_alarm : slot->low_alarm) : (upper ? slot->high_warning : slot->low_warning);
  if (weak && target) return;
  target = value;
}

// A YANG boolean: true/false in PROTO and JSON, or as text from JSON encoders that quote it.
std::optional<bool> flagOf(const LeafValue& v) {
  if (v.kind == LeafValue::Kind::kBool) return v.flag;
  if (v.kind == LeafValue::Kind::kText) {
    if (equalsNoCase(v.text, "true")) return true;
    if (equalsNoCase(v.text, "false")) return false;
  }
  return std::nullopt;
}

std::optional<std::uint64_t>& fecSlot(FecCounters& fec, Leaf leaf) {
  switch (leaf) {
    case Leaf::kFecCorrectedBits:
    case Leaf::kInterfaceFecCorrectedBits:
      return fec.corrected_bits_total;
    case Leaf::kFecCorrectedBlocks:
    case Leaf::kInterfaceFecCorrectedBlocks:
      return fec.corrected_blocks_total;
    default:
      return fec.uncorrectable_blocks_total;
  }
}

// Sets the count of bin [low, high], keeping the bins ascending: the stream
// may send them in any order, a bin at a time.
void setBin(std::vector<FecHistogramBin>& bins, std::uint16_t low, std::uint16_t high, std::uint64_t count) {
  auto it = std::lower_bound(bins.begin(), bins.end(), low,
                             [](const FecHistogramBin& b, std::uint16_t l) { return b.low < l; });
  if (it != bins.end() && it->low == low && it->high == high) {
    it->codewords_total = count;
    return;
  }
  FecHistogramBin bin;
  bin.low = low;
  bin.high = high;
  bin.codewords_total = count;
  bins.insert(it, std::move(bin));
}

// The correction limit t of the RS code a port runs, from its FEC mode and
// speed: IEEE 802.3 uses RS(544,514) (t = 15) for every 200G and 400G
// (clauses 119, 134 of 802.3bs/cd) and faster PCS, RS(528,514) (t = 7) for
// 25GBASE-R (clause 108). 50G and 100G run either code (NRZ or PAM4 lanes),
// which speed alone does not tell: absent there, as for "fc" and "none".
std::optional<std::uint16_t> rsCorrectableSymbols(std::string_view fec_mode, std::optional<std::uint32_t> speed_mbps) {
  if (!equalsNoCase(fec_mode, "rs") || !speed_mbps) return std::nullopt;
  if (*speed_mbps >= 200000) return 15;
  if (*speed_mbps == 25000) return 7;
  return std::nullopt;
}

ModuleFamily familyOf(std::string_view form_factor) {
  if (form_factor.starts_with("QSFP-DD") || form_factor.starts_with("OSFP") || form_factor.starts_with("QSFP112")) {
    return ModuleFamily::kCmis;
  }
  if (form_factor.starts_with("QSFP")) return ModuleFamily::kSff8636;
  if (form_factor.starts_with("SFP")) return ModuleFamily::kSff8472;
  return ModuleFamily::kUnknown;
}

}  // namespace

std::string formFactorName(std::string_view text) {
  std::string out(afterPrefix(text));
  if (out.ends_with("_PLUS")) out.replace(out.size() - 5, 5, "+");
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

std::string mediaName(std::string_view text) {
  std::string_view s = afterPrefix(text);
  if (s.starts_with("ETH_")) s.remove_prefix(4);
  std::string out(s);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

TelemetryState::TelemetryState(const VendorVariant& variant, const LeafRules& rules, StateLimits limits,
                               std::optional<int> channel_base)
    : variant_(variant), rules_(rules), limits_(limits), channel_base_(channel_base) {}

TelemetryState::LaneData* TelemetryState::laneData(Module& m, const Binding& b) {
  // Raw indexes 0..max_lanes: either numbering of max_lanes lanes fits.
  if (!b.lane || *b.lane < 0 || *b.lane > limits_.max_lanes) return nullptr;
  return &m.lanes[static_cast<int>(*b.lane)];
}

ChannelBase TelemetryState::channelBase() const {
  const int fallback = variant_.first_channel_index;
  if (channel_base_) {
    return {*channel_base_, ChannelBase::Source::kOverride,
            "channel " + std::to_string(*channel_base_) + " is lane 1: the target's channel_base option"};
  }
  if (!variant_.detect_channel_base) {
    return {fallback, ChannelBase::Source::kVariant,
            "channel " + std::to_string(fallback) + " is lane 1: variant " + std::string(variant_.name) +
                " names its lanes"};
  }
  // One vote per module whose channel set is {0..N-1} or {1..N}.
  std::size_t zero_based = 0, one_based = 0, unclear = 0;
  std::string zero_example, one_example, unclear_example;
  for (const auto& [name, m] : modules_) {
    if (m.lanes.empty()) continue;
    const int first = m.lanes.begin()->first;
    const int last = m.lanes.rbegin()->first;
    const bool contiguous = static_cast<std::size_t>(last - first + 1) == m.lanes.size();
    const std::string set = name + " {" + std::to_string(first) + ".." + std::to_string(last) + "}";
    if (first == 0 && contiguous) {
      if (zero_based++ == 0) zero_example = set;
    } else if (first == 1 && contiguous) {
      if (one_based++ == 0) one_example = set;
    } else if (unclear++ == 0) {
      std::string list;
      for (const auto& lane_entry : m.lanes) list += (list.empty() ? "" : ",") + std::to_string(lane_entry.first);
      unclear_example = name + " {" + list + "}";
    }
  }
  const std::string tail = "; channel " + std::to_string(fallback) + " is lane 1 (variant " +
                           std::string(variant_.name) + "'s default; set channel_base to override)";
  if (zero_based > 0 && one_based > 0) {
    return {fallback, ChannelBase::Source::kAmbiguous,
            "ambiguous: " + std::to_string(zero_based) + " modules number channels from 0 (e.g. " + zero_example +
                ") and " + std::to_string(one_based) + " from 1 (e.g. " + one_example + ")" + tail};
  }
  if (zero_based > 0 || one_based > 0) {
    const int base = zero_based > 0 ? 0 : 1;
    return {base, ChannelBase::Source::kDetected,
            "channel " + std::to_string(base) + " is lane 1: " + std::to_string(zero_based + one_based) +
                " modules send channels " +
                (base == 0 ? "{0..N-1}, e.g. " + zero_example : "{1..N} without 0, e.g. " + one_example) +
                (unclear > 0 ? " (" + std::to_string(unclear) + " others unclear, e.g. " + unclear_example + ")" : "")};
  }
  if (unclear > 0) {
    return {fallback, ChannelBase::Source::kAmbiguous,
            "ambiguous: no module sends channels {0..N-1} or {1..N} (e.g. " + unclear_example + ")" + tail};
  }
  return {fallback, ChannelBase::Source::kNoChannel,
          "no channel received yet; channel " + std::to_string(fallback) + " is lane 1 (variant " +
              std::string(variant_.name) + "'s default)"};
}

TelemetryState::Module* TelemetryState::module(std::string_view name) {
  if (auto it = modules_.find(name); it != modules_.end()) return &it->second;
  if (entities() >= limits_.max_entities) return nullptr;
  return &modules_.emplace(std::string(name), Module{}).first->second;
}

TelemetryState::Interface* TelemetryState::interface(std::string_view name) {
  if (auto it = interfaces_.find(name); it != interfaces_.end()) return &it->second;
  if (entities() >= limits_.max_entities) return nullptr;
  return &interfaces_.emplace(std::string(name), Interface{}).first->second;
}

Applied TelemetryState::apply(const GnmiPath& path, const LeafValue& value, std::int64_t now_ms) {
  auto bound = rules_.match(path);
  if (!bound) return Applied::kUnknownPath;
  const Binding& b = *bound;
  switch (b.rule->leaf) {
    case Leaf::kInterfaceTransceiver:
    case Leaf::kInterfaceChannels:
    case Leaf::kInterfaceOperStatus:
    case Leaf::kInterfaceFecCorrectedBits:
    case Leaf::kInterfaceFecCorrectedBlocks:
    case Leaf::kInterfaceFecUncorrectableBlocks:
    case Leaf::kInterfaceFecCodewords:
    case Leaf::kInterfaceFecMode:
    case Leaf::kInterfaceSpeedMbps: {
      if (b.port.empty()) return Applied::kUnknownPath;
      Interface* i = interface(b.port);
      if (!i) return Applied::kOverLimit;
      return applyInterface(*i, b, value);
    }
    default:
      break;
  }
  // Models keyed by interface (SR Linux, SONiC): the interface is its own component.
  std::string_view name = b.component;
  if (name.empty()) {
    if (b.port.empty()) return Applied::kUnknownPath;
    name = b.port;
    Interface* i = interface(b.port);
    if (!i) return Applied::kOverLimit;
    if (i->transceiver.empty()) i->transceiver = std::string(b.port);
  }
  Module* m = module(name);
  if (!m) return Applied::kOverLimit;
  const Applied applied = applyModule(*m, b, value);
  if (applied == Applied::kMapped) {
    m->updated_ms = now_ms;
    if (!b.rule->any_component) m->transceiver = true;
  }
  return applied;
}

Applied TelemetryState::applyInterface(Interface& i, const Binding& b, const LeafValue& value) {
  switch (b.rule->leaf) {
    case Leaf::kInterfaceTransceiver:
      if (value.kind != LeafValue::Kind::kText || value.text.empty()) return Applied::kBadValue;
      i.transceiver = value.text;
      return Applied::kMapped;
    case Leaf::kInterfaceChannels:
      if (value.kind == LeafValue::Kind::kNumberList) {
        i.channels = value.numbers;
      } else if (auto n = numberOf(value)) {
        i.channels = {*n};
      } else {
        return Applied::kBadValue;
      }
      return Applied::kMapped;
    case Leaf::kInterfaceOperStatus:
      i.up = operUp(value);
      return i.up ? Applied::kMapped : Applied::kBadValue;
    case Leaf::kInterfaceFecCorrectedBits:
    case Leaf::kInterfaceFecCorrectedBlocks:
    case Leaf::kInterfaceFecUncorrectableBlocks: {
      auto c = countOf(value);
      if (!c) return Applied::kBadValue;
      fecSlot(i.fec, b.rule->leaf) = *c;
      return Applied::kMapped;
    }
    case Leaf::kInterfaceFecCodewords: {
      auto c = countOf(value);
      if (!c) return Applied::kBadValue;
      setBin(i.fec.histogram, b.rule->bin_low, b.rule->bin_high, *c);
      return Applied::kMapped;
    }
    case Leaf::kInterfaceFecMode:
      if (value.kind != LeafValue::Kind::kText) return Applied::kBadValue;
      i.fec_mode = value.text;
      i.fec.correctable_symbols = rsCorrectableSymbols(i.fec_mode, i.speed_mbps);
      return Applied::kMapped;
    case Leaf::kInterfaceSpeedMbps: {
      auto c = countOf(value);  // "N/A" while the port is down: no speed
      i.speed_mbps = c && *c > 0 && *c <= 0xFFFFFFFFu ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*c))
                                                      : std::nullopt;
      i.fec.correctable_symbols = rsCorrectableSymbols(i.fec_mode, i.speed_mbps);
      return c ? Applied::kMapped : Applied::kBadValue;
    }
    default:
      return Applied::kUnknownPath;
  }
}

Applied TelemetryState::applyModule(Module& m, const Binding& b, const LeafValue& value) {
  const LeafRule& rule = *b.rule;
  // An unchanged identity stays the object the last snapshots share.
  auto text = [&](std::string ModuleIdentity::*field, std::string (*convert)(std::string_view)) {
    if (value.kind != LeafValue::Kind::kText) return Applied::kBadValue;
    std::string next = convert ? convert(value.text) : value.text;
    if ((*m.identity).*field != next) m.identity.mutate().*field = std::move(next);
    return Applied::kMapped;
  };
  switch (rule.leaf) {
    case Leaf::kModuleValue: {
      auto v = numberOf(value);
      if (!v) return Applied::kBadValue;
      m.values.set(static_cast<ModuleMetric>(rule.metric), valueOf(rule, *v));
      return Applied::kMapped;
    }
    case Leaf::kLaneValue: {
      auto v = numberOf(value);
      if (!v) return Applied::kBadValue;
      LaneData* lane = laneData(m, b);
      if (!lane) return Applied::kBadValue;
      lane->values.set(static_cast<LaneMetric>(rule.metric), valueOf(rule, *v));
      return Applied::kMapped;
    }
    case Leaf::kLaneStatus: {
      auto raised = flagOf(value);
      if (!raised || rule.metric >= kLaneFlagInfo.size()) return Applied::kBadValue;
      LaneData* lane = laneData(m, b);
      if (!lane) return Applied::kBadValue;
      lane->status.*kLaneFlagInfo[rule.metric].member = *raised;
      return Applied::kMapped;
    }
    case Leaf::kModuleThresholdUpper:
    case Leaf::kModuleThresholdLower:
    case Leaf::kLaneThresholdUpper:
    case Leaf::kLaneThresholdLower: {
      auto v = numberOf(value);
      if (!v) return Applied::kBadValue;
      const bool upper = rule.leaf == Leaf::kModuleThresholdUpper || rule.leaf == Leaf::kLaneThresholdUpper;
      const bool module = rule.leaf == Leaf::kModuleThresholdUpper || rule.leaf == Leaf::kModuleThresholdLower;
      // Written only when it changes: unchanged limits stay the table the last snapshots share.
      std::optional<Thresholds> slot = module ? m.thresholds->module[rule.metric] : m.thresholds->lane[rule.metric];
      // A power limit of 0 mW or less is no limit (as in SNMP profiles): not reported.
      if (rule.milliwatts && *v * rule.scale <= 0) return Applied::kMapped;
      setThreshold(slot, b.severity, upper,
                   rule.milliwatts ? roundedDbm(10.0 * std::log10(*v * rule.scale)) : *v * rule.scale);
      if (slot != (module ? m.thresholds->module[rule.metric] : m.thresholds->lane[rule.metric])) {
        (module ? m.thresholds.mutate().module[rule.metric] : m.thresholds.mutate().lane[rule.metric]) = slot;
      }
      return Applied::kMapped;
    }
    case Leaf::kPresent:
      m.present = presence(value);
      return m.present ? Applied::kMapped : Applied::kBadValue;
    case Leaf::kFormFactor: {
      Applied a = text(&ModuleIdentity::form_factor, &formFactorName);
      if (const ModuleFamily f = familyOf(m.identity->form_factor); f != m.identity->family)
        m.identity.mutate().family = f;
      return a;
    }
    case Leaf::kVendor:
      return text(&ModuleIdentity::vendor, nullptr);
    case Leaf::kPartNumber:
      return text(&ModuleIdentity::part_number, nullptr);
    case Leaf::kSerial:
      return text(&ModuleIdentity::serial, nullptr);
    case Leaf::kRevision:
      return text(&ModuleIdentity::revision, nullptr);
    case Leaf::kFirmware:
      return text(&ModuleIdentity::firmware_version, nullptr);
    case Leaf::kMedia:
      return text(&ModuleIdentity::media, &mediaName);
    case Leaf::kDateCode:
      return text(&ModuleIdentity::date_code, nullptr);
    case Leaf::kConnector:
      return text(&ModuleIdentity::connector, &mediaName);
    case Leaf::kFecCorrectedBits:
    case Leaf::kFecCorrectedBlocks:
    case Leaf::kFecUncorrectableBlocks: {
      auto c = countOf(value);
      if (!c) return Applied::kBadValue;
      fecSlot(m.fec, rule.leaf) = *c;
      return Applied::kMapped;
    }
    default:
      return Applied::kUnknownPath;
  }
}

void TelemetryState::erase(const GnmiPath& path) {
  for (const auto& elem : path.elems) {
    const std::string* name = elem.key("name");
    if (!name) continue;
    if (localName(elem.name) == "component") {
      modules_.erase(*name);
      return;
    }
    if (localName(elem.name) == "interface") {
      interfaces_.erase(*name);
      return;
    }
  }
}

void TelemetryState::clear() {
  modules_.clear();
  interfaces_.clear();
}

Sample TelemetryState::buildSample(const std::string& port, const Module& m, const Interface* i, int base,
                                   std::int64_t now_ms, std::int64_t stale_after_ms) const {
  Sample s;
  s.port = port;
  s.timestamp_ms = now_ms;
  s.module_present = m.present.value_or(true);
  s.shared_identity = m.identity;
  s.module = m.values;
  s.shared_thresholds = m.thresholds;
  // Precedence: an interface that sends any FEC counter of its own gives all
  // of the Sample's counters; the transceiver's are used only where the
  // interface sends none. Mixing the two would pair counters of different
  // scopes (a breakout port's own blocks against the whole module's bits).
  s.fec = (i && !i->fec.empty()) ? i->fec : m.fec;
  if (i) s.link.up = i->up;
  const bool dark_when_zero = variant_.zero_power_when_down_is_dark && i && i->up == false;
  auto uses = [&](int raw) {
    if (!i || i->channels.empty()) return true;
    for (double channel : i->channels) {
      if (channel == raw) return true;
    }
    return false;
  };
  for (const auto& [raw, data] : m.lanes) {
    const int number = raw - base + 1;
    if (number < 1 || number > limits_.max_lanes || !uses(raw)) continue;
    Lane lane;
    lane.number = static_cast<std::uint16_t>(number);
    lane.values = data.values;
    lane.status = data.status;
    auto dark = [&](LaneMetric metric) {
      Reading* v = lane.values.find(metric);  // not operator[]: a read must not add the metric
      if (v == nullptr || !*v) return std::optional<bool>();
      const bool no_light = **v <= kNoLightFloorDbm || (dark_when_zero && **v == 0.0);
      if (no_light) *v = kNoLightFloorDbm;
      return std::optional<bool>(no_light);
    };
    lane.status.rx_no_light = dark(LaneMetric::kRxPowerDbm);
    lane.status.tx_no_light = dark(LaneMetric::kTxPowerDbm);
    // The statistics share the floor; the no-light flags follow the instant value only.
    for (LaneMetric stat : {LaneMetric::kRxPowerMinDbm, LaneMetric::kRxPowerMaxDbm, LaneMetric::kRxPowerAvgDbm,
                            LaneMetric::kTxPowerMinDbm, LaneMetric::kTxPowerMaxDbm, LaneMetric::kTxPowerAvgDbm}) {
      dark(stat);
    }
    s.lanes.push_back(std::move(lane));
  }
  if (m.updated_ms != 0 && stale_after_ms > 0 && now_ms - m.updated_ms > stale_after_ms) {
    s.issues.push_back("gNMI values last updated " + std::to_string((now_ms - m.updated_ms) / 1000) + " s ago");
  }
  return s;
}

std::vector<Sample> TelemetryState::snapshot(std::int64_t now_ms, std::int64_t stale_after_ms) const {
  std::vector<Sample> out;
  const int base = channelBase().base;
  std::vector<const Module*> served;
  for (const auto& [port, i] : interfaces_) {
    if (i.transceiver.empty()) continue;
    auto it = modules_.find(i.transceiver);
    if (it == modules_.end() || !it->second.transceiver) continue;
    out.push_back(buildSample(port, it->second, &i, base, now_ms, stale_after_ms));
    served.push_back(&it->second);
  }
  for (const auto& [name, m] : modules_) {
    if (!m.transceiver || std::find(served.begin(), served.end(), &m) != served.end()) continue;
    out.push_back(buildSample(name, m, nullptr, base, now_ms, stale_after_ms));
  }
  return out;
}

}  // namespace opticsd::gnmi
