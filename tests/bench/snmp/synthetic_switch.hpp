#pragma once
// A synthetic Arista EOS switch for the SNMP benchmarks: 64 ports x 8 lanes of
// transceiver DOM in ENTITY-SENSOR-MIB (RFC 3433) the way EOS lays it out
// (see schemas/snmp-profiles/arista-eos.yaml): per port a transceiver entity
// with temperature and voltage sensors, per lane a lane entity with TX bias,
// TX power and RX power sensors; 64 x (2 + 8 x 3) = 1,664 sensors. The same
// rows feed the in-process decode benchmark and the snmpd configs of the
// end-to-end benchmark, so both measure one layout.

#include <string>
#include <vector>

#include "drivers/snmp/varbind.hpp"

namespace opticsd::snmp::bench {

struct SyntheticSwitchShape {
  int ports = 64;
  int lanes = 8;
  bool thresholds = true;  // aristaEntSensorThresholdTable rows
};

// Every varbind of the switch (static and per-poll tables), in OID order.
std::vector<Varbind> syntheticAristaSwitch(const SyntheticSwitchShape& shape = {});
// Only the columns a steady-state poll walks (entPhySensorValue, entPhySensorOperStatus).
std::vector<Varbind> syntheticAristaValues(const SyntheticSwitchShape& shape = {});
std::size_t syntheticSensorCount(const SyntheticSwitchShape& shape = {});

// "override .1.3.6... integer 42" for snmpd.conf (snmpd.conf(5) override).
std::string snmpdOverrideLine(const Varbind& vb);

}  // namespace opticsd::snmp::bench
