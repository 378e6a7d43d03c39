# Shared by the fleet benches (sourced, not run): a fleet of simulated 64-port
# 800G switches as opticsd targets, free loopback ports, and what /proc says
# of a process. Kept in lib/ so `./setup.sh bench` does not run it as a bench.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The `targets:` section for SWITCHES switches of PORTS 8-lane OSFP modules.
sim_fleet_targets() {  # SWITCHES PORTS
  echo "targets:"
  for ((i = 1; i <= $1; i++)); do
    echo "  - {name: sw-$i, driver: sim, module: osfp-800g-2fr4, ports: $2, lanes: 8}"
  done
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # PID: user + system clock ticks
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$1/status"; }
