#!/usr/bin/env bash
# `opticsd decode` text (the project's `ethtool -m`) of every EEPROM fixture,
# byte for byte, against the golden files beside the /metrics one
# (tests/fixtures/decode/NAME.txt for tests/fixtures/eeprom/NAME/module.dump):
# a changed line, label, unit or digit shows up as a diff of those files in
# review. A fixture without a golden file, or a golden file without a
# fixture, fails too.
#
# After an intended change, regenerate them (one switch, as for /metrics) and
# review the diff:
#   OPTICSD_UPDATE_GOLDEN=1 ctest --test-dir build -R decode-golden
source "$(dirname "$0")/lib.sh"
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"

FIX="$OPTICSD_SOURCE_DIR/tests/fixtures/eeprom"
GOLDEN="$OPTICSD_SOURCE_DIR/tests/fixtures/decode"
update=${OPTICSD_UPDATE_GOLDEN:-0}

failed=0
checked=0
for dump in "$FIX"/*/module.dump; do
  name=$(basename "$(dirname "$dump")")
  "$OPTICSD" decode "$dump" >"$WORK/$name.txt" 2>"$WORK/$name.err" || {
    cat "$WORK/$name.err"
    fail "$name: decode exited $?"
  }
  checked=$((checked + 1))
  if [ "$update" = 1 ]; then
    cp "$WORK/$name.txt" "$GOLDEN/$name.txt"
    continue
  fi
  [ -f "$GOLDEN/$name.txt" ] || { echo "$name: no golden file $GOLDEN/$name.txt"; failed=1; continue; }
  diff -u "$GOLDEN/$name.txt" "$WORK/$name.txt" || { echo "$name: decode text differs from its golden file"; failed=1; }
done
[ "$checked" -gt 0 ] || fail "no fixtures under $FIX"
for golden in "$GOLDEN"/*.txt; do
  name=$(basename "$golden" .txt)
  [ -f "$FIX/$name/module.dump" ] || { echo "$golden: no fixture $FIX/$name/module.dump"; failed=1; }
done
[ "$update" = 1 ] && { note "wrote $checked golden files to $GOLDEN: review the diff"; exit 0; }
[ "$failed" = 0 ] || fail "decode text differs (refresh: OPTICSD_UPDATE_GOLDEN=1 ctest --test-dir build -R decode-golden)"
echo "PASS ($checked fixtures)"
