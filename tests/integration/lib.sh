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

# ---- The harness every scenario that runs the daemon shares --------------
# A scenario writes its config with write_config, starts the daemon with
# start_daemon and waits with wait_polled: the preamble, the start and the
# wait for the first polls (which land anywhere in a jittered interval) are
# written once, here. A scenario whose subject is the listener itself (TLS,
# basic auth, the default address) or the default state directory writes
# that config by hand.
#
#   write_config "$WORK/opticsd.yaml" <<YAML
#   targets:
#     - {name: leaf-a, driver: sim, ports: 4, lanes: 8}
#   YAML
#   start_daemon "$WORK/opticsd.yaml"
#   wait_polled "$PORT" 1                 # every target polled once, results published
#   metric_has "$PORT" '^opticsd_lane_rx_power_dbm\{target="leaf-a"' || fail "..."
#   stop_opticsd

# write_config FILE: writes an opticsd config to FILE (- for stdout, as in a
# function that prints a config); the YAML body comes from
# stdin (targets: and whatever the scenario is about). The harness adds each
# section of the preamble that the body does not write itself:
#   listen:  {address: 127.0.0.1:$PORT}       ($PORT: a free port, chosen here when unset)
#   poll:    {interval: 500ms, timeout: 2s}
#   storage: {path: $WORK/history.db}          (never the user's own state directory)
# A body that writes one of these sections writes all of it. Fed from a
# pipeline (`{ ...; } | write_config F`) it runs in a subshell: set PORT first.
write_config() {
  local file=$1 body
  body=$(cat)
  : "${PORT:=$(free_port)}"
  if [ "$file" != - ]; then
    write_config - <<<"$body" >"$file"
    return
  fi
  grep -q '^listen:' <<<"$body" || echo "listen: {address: 127.0.0.1:$PORT}"
  grep -q '^poll:' <<<"$body" || echo "poll: {interval: 500ms, timeout: 2s}"
  grep -q '^storage:' <<<"$body" || echo "storage: {path: $WORK/history.db}"
  printf '%s\n' "$body"
}

# listen_port CONFIG: the port of the config's listen.address (flow or block style).
listen_port() {
  awk '
    function port(line) { if (match(line, /address: *"?[^ ,}"]+/)) { n = split(substr(line, RSTART, RLENGTH), p, ":"); print p[n]; found = 1; exit } }
    /^listen:/ { in_listen = 1; port($0); next }
    in_listen && /^[^ #]/ { exit }
    in_listen { port($0) }
    END { if (!found) print 9464 }' "$1"
}

# start_daemon CONFIG [LOG [WRAPPER...]]: `opticsd run --config CONFIG` in the
# background, its output in LOG (default $WORK/daemon.log, truncated), run
# through WRAPPER when given (a command that execs its arguments, e.g. unshare);
# returns once the daemon answers on plain-HTTP /metrics/self, fails (showing
# the log) if it exits or does not answer within 30 s. Sets OPTICSD_PID,
# DAEMON_PORT (the config's listen port) and DAEMON_LOG. stop_opticsd stops it.
start_daemon() {
  local config=$1 i
  DAEMON_LOG=${2:-$WORK/daemon.log}
  shift $(($# >= 2 ? 2 : 1))
  DAEMON_PORT=$(listen_port "$config")
  "$@" "$OPTICSD" run --config "$config" >"$DAEMON_LOG" 2>&1 &
  OPTICSD_PID=$!
  PIDS+=("$OPTICSD_PID")
  for ((i = 0; i < 150; i++)); do
    curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$DAEMON_PORT/metrics/self" && return 0
    kill -0 "$OPTICSD_PID" 2>/dev/null || { cat "$DAEMON_LOG" >&2; fail "opticsd exited at start ($config)"; }
    sleep 0.2
  done
  cat "$DAEMON_LOG" >&2
  fail "opticsd does not answer on 127.0.0.1:$DAEMON_PORT/metrics/self after 30 s"
}

# polls PORT TARGET: polls of TARGET finished so far, success or not (the
# poll counter on /metrics/self, opticsd_poll_duration_seconds_count); 0 before the first.
polls() {
  local text
  text=$(curl -sf --max-time 10 "http://127.0.0.1:$1/metrics/self") || return 1
  awk -v t="target=\"$2\"" 'index($0, "opticsd_poll_duration_seconds_count{") == 1 && index($0, t) { n += $NF } END { print n + 0 }' <<<"$text"
}

# served_targets PORT: the names this instance polls (its /sd list), one a line.
served_targets() {
  curl -sf --max-time 10 "http://127.0.0.1:$1/sd" |
    python3 -c 'import json, sys; print("\n".join(sorted({t["labels"]["__meta_opticsd_target"] for t in json.load(sys.stdin)})))'
}

# wait_polled PORT [POLLS] [TARGET...]: waits (at most WAIT_POLLED_SECONDS,
# default 60) until each TARGET (default: every target on the instance's /sd)
# has finished POLLS polls (default 1), success or not, and their results are
# published: /metrics, history and the rules have seen them. (A poll is counted
# just before its results are handed on, so this waits for the counter to pass
# POLLS.) Fails naming the targets that lag, with their counts.
wait_polled() {
  local port=$1 want=${2:-1}
  shift $(($# >= 2 ? 2 : $#))
  local targets=("$@") deadline=$((SECONDS + ${WAIT_POLLED_SECONDS:-60})) lagging t n
  if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(served_targets "$port") || true
    [ ${#targets[@]} -gt 0 ] || fail "wait_polled: no targets on http://127.0.0.1:$port/sd"
  fi
  while :; do
    lagging=()
    for t in "${targets[@]}"; do
      n=$(polls "$port" "$t") || n=0
      [ "$n" -gt "$want" ] || lagging+=("$t=$n")
    done
    [ ${#lagging[@]} -eq 0 ] && return 0
    [ "$SECONDS" -lt "$deadline" ] || fail "wait_polled: after ${WAIT_POLLED_SECONDS:-60} s, polls finished (want > $want): ${lagging[*]}"
    sleep 0.2
  done
}
