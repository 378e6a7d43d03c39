# Helpers for the reliability and security scenarios (tests/integration/8N-*.sh).
# Source after lib.sh. Adds SNMP agents (snmpsim), metric arithmetic and
# daemon start-up variants; everything a helper starts is stopped by lib.sh's
# cleanup.

# snmpsimd drops to nobody: the work dir must be traversable by it.
chmod 0755 "$WORK"

# metric_sum PORT REGEX: the sum of the values of every sample line matching
# the extended regex (0 when none match). Fails when the scrape fails.
metric_sum() {
  local text
  text=$(scrape "$1") || return 1
  awk -v re="$2" '$0 !~ /^#/ && $0 ~ re {s += $NF} END {printf "%.0f\n", s + 0}' <<<"$text"
}

# metric_sum_in FILE REGEX: the same over a saved scrape.
metric_sum_in() {
  awk -v re="$2" '$0 !~ /^#/ && $0 ~ re {s += $NF} END {printf "%.0f\n", s + 0}' "$1"
}

# polls PORT TARGET: lib.sh (the poll counter on /metrics/self).

# target_up_is PORT TARGET VALUE
target_up_is() { metric_has "$1" "^opticsd_target_up\\{.*target=\"$2\".*\\} $3\$"; }

# start_snmpsim NAME FILE...: serves the .snmprec FILEs (community = file name
# without .snmprec) on a free UDP port of 127.0.0.1; sets SNMPSIM_PORT and
# SNMPSIM_PID. Reuses the port in SNMPSIM_REUSE_PORT when set (restart).
start_snmpsim() {
  local name=$1; shift
  local dir="$WORK/snmpsim-$name"
  mkdir -p "$dir/data" "$dir/cache"
  chmod 0755 "$dir" "$dir/data"
  chmod 0777 "$dir/cache"
  local f
  for f in "$@"; do install -m 0644 "$f" "$dir/data/"; done
  SNMPSIM_PORT=${SNMPSIM_REUSE_PORT:-$(free_udp_port)}
  snmpsimd --data-dir="$dir/data" --cache-dir="$dir/cache" --agent-udpv4-endpoint="127.0.0.1:$SNMPSIM_PORT" \
    --process-user=nobody --process-group=nogroup >>"$dir/agent.log" 2>&1 &
  SNMPSIM_PID=$!
  PIDS+=("$SNMPSIM_PID")
  local community
  community=$(basename "$1" .snmprec)
  wait_for 100 snmpget -v2c -c "$community" -r0 -t0.3 "127.0.0.1:$SNMPSIM_PORT" 1.3.6.1.2.1.1.2.0 \
    || { cat "$dir/agent.log"; fail "snmpsimd $name did not start"; }
}

free_udp_port() {
  python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# start_blackhole ADDRESS PORT: a UDP socket that reads and never answers.
start_blackhole() {
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
while True:
    s.recv(65535)
' "$1" "$2" &
  PIDS+=("$!")
}

# stop_pid PID: TERM, then KILL; waits.
stop_pid() {
  kill "$1" 2>/dev/null || true
  local i
  for ((i = 0; i < 50; i++)); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# need_root: skips unless the scenario may mount and unshare.
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root (mounts a small filesystem / a private resolv.conf)"; }
