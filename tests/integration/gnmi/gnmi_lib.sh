# Helpers for the gNMI scenarios (19-gnmi-*.sh): the test target of
# tests/integration/gnmi/gnmi_target.py on Debian's python3-grpcio, its
# message classes generated from schemas/gnmi/gnmi.proto into the work dir.
GNMI_TARGET="$(dirname "${BASH_SOURCE[0]}")/gnmi_target.py"

need_gnmi_target() {
  /usr/bin/python3 -c 'import grpc, google.protobuf' 2>/dev/null || skip "python3-grpcio is not installed"
  need protoc
  mkdir -p "$WORK/proto"
  protoc -I "$OPTICSD_SOURCE_DIR" --python_out="$WORK/proto" "$OPTICSD_SOURCE_DIR/schemas/gnmi/gnmi.proto"
}

# start_gnmi_target NAME PORT ARGS...: the request log is $WORK/NAME.requests.
start_gnmi_target() {
  local name=$1 port=$2; shift 2
  /usr/bin/python3 "$GNMI_TARGET" --port "$port" --proto-out "$WORK/proto" --log "$WORK/$name.requests" "$@" \
    >"$WORK/$name.out" 2>&1 &
  PIDS+=("$!")
  eval "${name//-/_}_PID=$!"
  wait_for 100 grep -q listening "$WORK/$name.requests" || { cat "$WORK/$name.out"; fail "gNMI target $name did not start"; }
}

# On failure, the daemon's last words and what the targets were last asked.
fail() {
  echo "FAIL: $*" >&2
  tail -n 40 "$WORK/run.log" >&2 2>/dev/null || true
  tail -n 5 "$WORK"/*.requests >&2 2>/dev/null || true
  exit 1
}
