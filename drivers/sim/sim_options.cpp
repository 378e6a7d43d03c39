#include "drivers/sim/sim_options.hpp"

#include <limits>

#include "drivers/sim/noise.hpp"

namespace opticsd::sim {
namespace {

template <typename Names>
std::string joined(const Names& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

std::optional<int> readPort(OptionReader& item, const SimSwitchConfig& config) {
  if (!item.has("port")) {
    item.requiredString("port");  // records "missing required key"
    return std::nullopt;
  }
  auto text = item.optionalString("port");
  if (!text) return std::nullopt;
  std::string_view digits = *text;
  if (digits.starts_with(config.port_prefix)) digits.remove_prefix(config.port_prefix.size());
  int number = 0;
  bool ok = !digits.empty() && digits.size() <= 6;
  for (char c : digits) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    number = number * 10 + (c - '0');
  }
  if (!ok || number < 1 || number > config.ports) {
    item.error("port", "no port '" + *text + "' on this switch (expected " + config.port_prefix + "1 .. " +
                           config.port_prefix + std::to_string(config.ports) + ", or a number from 1 to " +
                           std::to_string(config.ports) + ")");
    return std::nullopt;
  }
  return number - 1;
}

std::optional<ScenarioSpec> readScenario(OptionReader& item, const SimSwitchConfig& config, int lanes) {
  ScenarioSpec spec;
  bool ok = true;
  const std::string name = item.requiredString("scenario");
  if (auto kind = parseScenarioKind(name)) {
    spec.kind = *kind;
  } else {
    if (!name.empty())
      item.error("scenario", "unknown scenario '" + name + "' (expected one of: " + joined(scenarioNames()) + ")");
    ok = false;
  }
  if (auto port = readPort(item, config)) {
    spec.port_index = *port;
  } else {
    ok = false;
  }
  const bool lane_scenario = ok && spec.kind == ScenarioKind::kLaneFailure;
  if (auto lane = item.optionalInt("lane", 1, lanes)) {
    if (ok && !lane_scenario) {
      item.error("lane", "only lane_failure takes a lane");
      ok = false;
    }
    spec.lane_index = static_cast<int>(*lane - 1);
  } else if (item.has("lane")) {
    ok = false;  // out of range, reported by optionalInt
  } else if (lane_scenario) {
    item.error("", "lane_failure needs 'lane' (1 to " + std::to_string(lanes) + ")");
    ok = false;
  }
  if (auto onset = item.optionalDuration("onset")) spec.onset_ms = onset->count();
  spec.ramp_ms = defaultRampMs(spec.kind);
  if (auto ramp = item.optionalDuration("ramp")) spec.ramp_ms = ramp->count();
  item.rejectUnknownKeys();
  if (!ok || !item.valid()) return std::nullopt;
  return spec;
}

}  // namespace

std::optional<SimSwitchConfig> readSimOptions(const std::string& target_name, OptionReader& options) {
  SimSwitchConfig config;
  config.name = target_name;
  const std::size_t issues_before = options.issues().size();

  const ModuleProfile* profile = findModuleProfile(kDefaultModuleProfile);
  if (auto module = options.optionalString("module")) {
    if (const ModuleProfile* found = findModuleProfile(*module)) {
      profile = found;
      config.module = *module;
    } else {
      options.error("module",
                    "unknown module '" + *module + "' (expected one of: " + joined(moduleProfileNames()) + ")");
    }
  }
  config.seed = hashString(target_name);
  if (auto seed = options.optionalInt("seed", std::numeric_limits<std::int64_t>::min(),
                                      std::numeric_limits<std::int64_t>::max())) {
    config.seed = static_cast<std::uint64_t>(*seed);
  }
  if (auto ports = options.optionalInt("ports", 1, 4096)) config.ports = static_cast<int>(*ports);
  int lanes = profile->lanes;
  // CMIS modules may be simulated with another lane count (load tests, two
  // banks); SFF modules have a fixed layout.
  const int max_lanes = profile->family == ModuleFamily::kCmis ? kMaxLanes : profile->lanes;
  if (auto l = options.optionalInt("lanes", 1, max_lanes)) {
    lanes = static_cast<int>(*l);
    config.lanes = lanes;
  }
  if (auto prefix = options.optionalString("port_prefix")) {
    if (prefix->empty() || (prefix->back() >= '0' && prefix->back() <= '9')) {
      options.error("port_prefix", "must be non-empty and must not end in a digit");
    } else {
      config.port_prefix = *prefix;
    }
  }
  if (auto epoch = options.optionalInt("epoch_ms", 0, std::numeric_limits<std::int64_t>::max() / 2)) {
    config.epoch_ms = *epoch;
  }
  if (auto env = options.optionalString("environment")) {
    if (*env == "realistic" || *env == "quiet") {
      config.environment.enabled = *env == "realistic";
    } else {
      options.error("environment", "unknown environment '" + *env + "' (expected realistic or quiet)");
    }
  }
  if (auto list = options.raw("scenarios")) {
    if (!list->IsSequence()) {
      options.error("scenarios", "expected a list of {scenario, port, lane, onset, ramp}");
    } else {
      std::size_t i = 0;
      for (const auto& node : *list) {
        const std::string key = "scenarios[" + std::to_string(i++) + "]";
        const std::string path = options.path().empty() ? key : options.path() + "." + key;
        OptionReader item(node, options.file(), path, options.issues());
        if (auto spec = readScenario(item, config, lanes)) config.scenarios.push_back(*spec);
      }
    }
  }
  if (options.issues().size() != issues_before) return std::nullopt;
  return config;
}

}  // namespace opticsd::sim
