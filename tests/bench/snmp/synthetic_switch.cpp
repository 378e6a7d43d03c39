#include "synthetic_switch.hpp"

#include <algorithm>

namespace opticsd::snmp::bench {
namespace {

const Oid kSysObjectId{1, 3, 6, 1, 2, 1, 1, 2, 0};
const Oid kAristaDcs7060{1, 3, 6, 1, 4, 1, 30065, 1, 3011, 7060, 3720, 64};
const Oid kEntPhysicalEntry{1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1};
const Oid kEntPhySensorEntry{1, 3, 6, 1, 2, 1, 99, 1, 1, 1};
const Oid kAristaThresholdEntry{1, 3, 6, 1, 4, 1, 30065, 3, 12, 1, 1, 1};

// RFC 3433 EntitySensorDataType / EntitySensorDataScale codes.
constexpr int kVoltsDc = 4, kAmperes = 5, kWatts = 6, kCelsius = 8;
constexpr int kScaleMilli = 8, kScaleUnits = 9;

struct Sensor {
  std::uint32_t index;
  std::uint32_t parent;
  std::string descr;
  int type, scale, precision, value;
};

// Arista's numbering: 1003PP000 slot, +100 transceiver, +201/+202 module
// sensors, +2L0 lane L (from 0) with sensors +2L1..+2L3.
std::uint32_t portBase(int port) { return 100300000u + static_cast<std::uint32_t>(port) * 1000u; }

void forEachSensor(const SyntheticSwitchShape& shape, auto&& sensor, auto&& entity) {
  for (int p = 1; p <= shape.ports; ++p) {
    std::string name = "Ethernet" + std::to_string(p);
    std::uint32_t base = portBase(p), xcvr = base + 100;
    entity(xcvr, base, "Xcvr for " + name, p);
    sensor(Sensor{base + 201, xcvr, "DOM Temperature Sensor for " + name, kCelsius, kScaleUnits, 1, 300 + p});
    sensor(Sensor{base + 202, xcvr, "DOM Voltage Sensor for " + name, kVoltsDc, kScaleUnits, 2, 328});
    for (int l = 0; l < shape.lanes; ++l) {
      std::uint32_t lane = base + 210 + static_cast<std::uint32_t>(l) * 10;
      entity(lane, xcvr, "Lane " + std::to_string(l) + " for Xcvr for " + name, 0);
      sensor(Sensor{lane + 1, lane, "DOM TX Bias Sensor for " + name, kAmperes, kScaleMilli, 2, 600 + l});
      sensor(Sensor{lane + 2, lane, "DOM TX Power Sensor for " + name, kWatts, kScaleMilli, 4, 10000 + p * 10 + l});
      // The last lane of the last port is dark: 0 mW must come out as the -40 dBm floor.
      int rx = (p == shape.ports && l == shape.lanes - 1) ? 0 : 8000 + p * 10 + l;
      sensor(Sensor{lane + 3, lane, "DOM RX Power Sensor for " + name, kWatts, kScaleMilli, 4, rx});
    }
  }
}

}  // namespace

std::size_t syntheticSensorCount(const SyntheticSwitchShape& shape) {
  return static_cast<std::size_t>(shape.ports) * static_cast<std::size_t>(2 + 3 * shape.lanes);
}

std::vector<Varbind> syntheticAristaSwitch(const SyntheticSwitchShape& shape) {
  std::vector<Varbind> out;
  out.push_back(Varbind::oidValue(kSysObjectId, kAristaDcs7060));
  auto physical = [&](std::uint32_t col, std::uint32_t index) { return kEntPhysicalEntry.child(col).child(index); };
  auto entity = [&](std::uint32_t index, std::uint32_t parent, const std::string& descr, int port) {
    out.push_back(Varbind::textValue(physical(2, index), descr));
    out.push_back(Varbind::integerValue(physical(4, index), parent));
    if (port > 0) {  // the transceiver carries the identity
      out.push_back(Varbind::textValue(physical(8, index), "01"));
      out.push_back(Varbind::textValue(physical(11, index), "XSN" + std::to_string(100000 + port)));
      out.push_back(Varbind::textValue(physical(12, index), "Arista Networks"));
      out.push_back(Varbind::textValue(physical(13, index), "QDD-400G-DR4"));
    }
  };
  auto sensor = [&](const Sensor& s) {
    entity(s.index, s.parent, s.descr, 0);
    auto col = [&](std::uint32_t c) { return kEntPhySensorEntry.child(c).child(s.index); };
    out.push_back(Varbind::integerValue(col(1), s.type));
    out.push_back(Varbind::integerValue(col(2), s.scale));
    out.push_back(Varbind::integerValue(col(3), s.precision));
    out.push_back(Varbind::integerValue(col(4), s.value));
    out.push_back(Varbind::integerValue(col(5), 1));  // ok(1)
    if (shape.thresholds) {
      // Low alarm, low warning, high warning, high alarm around the value, same encoding.
      const int spread = s.value / 4 + 10;
      const int values[4] = {s.value - 2 * spread, s.value - spread, s.value + spread, s.value + 2 * spread};
      for (std::uint32_t c = 1; c <= 4; ++c) {
        out.push_back(Varbind::integerValue(kAristaThresholdEntry.child(c).child(s.index), values[c - 1]));
      }
    }
  };
  forEachSensor(shape, sensor, entity);
  std::sort(out.begin(), out.end(), [](const Varbind& a, const Varbind& b) { return a.oid < b.oid; });
  return out;
}

std::vector<Varbind> syntheticAristaValues(const SyntheticSwitchShape& shape) {
  std::vector<Varbind> out;
  for (auto& vb : syntheticAristaSwitch(shape)) {
    if (vb.oid.startsWith(kEntPhySensorEntry.child(4)) || vb.oid.startsWith(kEntPhySensorEntry.child(5))) {
      out.push_back(std::move(vb));
    }
  }
  return out;
}

std::string snmpdOverrideLine(const Varbind& vb) {
  std::string line = "override ." + vb.oid.toString() + " ";
  switch (vb.type) {
    case VarType::kInteger:
      return line + "integer " + std::to_string(vb.integer);
    case VarType::kObjectId:
      return line + "object_id ." + vb.oid_value.toString();
    case VarType::kOctetString:
      return line + "octet_str \"" + vb.text + "\"";
    default:
      return line + "null 0";
  }
}

}  // namespace opticsd::snmp::bench
