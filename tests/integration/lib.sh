# Shared helpers for the numbered integration scenarios. Source it first.
# Everything runs on 127.0.0.1 with free ports in a private temp dir, and
# every process a scenario starts is stopped when it exits.
set -euo pipefail

: "${OPTICSD:?set OPTICSD to the opticsd binary (ctest does)}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opticsd-it.XXXXXX")
PIDS=()

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
note() { echo "--- $*"; }

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"; }

# wait_for TRIES CMD...: retries CMD every 0.2 s, at most TRIES times.
wait_for() {
  local tries=$1; shift
  local i
  for ((i = 0; i < tries; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  return 1
}

# start_opticsd LOG ARGS...: starts `opticsd ARGS` in the background; sets OPTICSD_PID.
start_opticsd() {
  local log=$1; shift
  "$OPTICSD" "$@" >"$log" 2>&1 &
  OPTICSD_PID=$!
  PIDS+=("$OPTICSD_PID")
}

scrape() { curl -sf --max-time 10 "http://127.0.0.1:$1/metrics"; }

# metric_has PORT PATTERN: the scrape has a line matching the extended regex.
# (The scrape is read whole first: grep -q closing the pipe early would make
# curl fail under pipefail.)
metric_has() {
  local text
  text=$(scrape "$1") || return 1
  grep -Eq "$2" <<<"$text"
}

# metric_count_is PORT PATTERN N: exactly N lines of the scrape match the extended regex.
metric_count_is() {
  local text
  text=$(scrape "$1") || return 1
  [ "$(grep -Ec "$2" <<<"$text" || true)" -eq "$3" ]
}

# stop_opticsd: SIGTERM, and the exit status must be 0.
stop_opticsd() {
  kill -TERM "$OPTICSD_PID"
  local status=0
  wait "$OPTICSD_PID" || status=$?
  [ "$status" -eq 0 ] || fail "opticsd exited with $status after SIGTERM"
}
