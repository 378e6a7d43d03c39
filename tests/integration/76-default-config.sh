#!/usr/bin/env bash
# needs-drivers: ethtool snmp
# The packaged default config (deploy/config/opticsd.yaml) is valid as
# shipped, listens on loopback only, and every commented example in it is
# valid too once uncommented (all at once), so the examples cannot rot.
source "$(dirname "$0")/lib.sh"
need openssl
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"
CONFIG="$OPTICSD_SOURCE_DIR/deploy/config/opticsd.yaml"

"$OPTICSD" check-config "$CONFIG" || fail "the shipped config does not validate"
grep -Eq '^  address: 127\.0\.0\.1:[0-9]+$' "$CONFIG" || fail "the shipped config does not listen on 127.0.0.1"

# Examples are lines where YAML follows '#' directly; delete the '#'. Paths
# under /etc/opticsd/ point into the work dir, where the secrets exist.
mkdir -p "$WORK/etc" "$WORK/creds"
sed -E -e 's/^#((  )*[^ #])/\1/' -e "s#/etc/opticsd/#$WORK/etc/#g" -e "s#/var/lib/opticsd/#$WORK/state/#g" \
  "$CONFIG" >"$WORK/examples.yaml"
printf 'public\n' >"$WORK/etc/leaf-1.community"
printf 'secret\n' >"$WORK/etc/metrics-password"
# The TLS example's files are loaded at check time (as run would load them).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 2 -nodes -subj /CN=localhost \
  -keyout "$WORK/etc/metrics.key" -out "$WORK/etc/metrics.crt" 2>/dev/null || fail "openssl could not make a certificate"
printf 'auth-secret\n' >"$WORK/creds/snmp_spine-1-auth"
printf 'priv-secret\n' >"$WORK/creds/snmp_spine-1-priv"
uncommented=$(diff "$CONFIG" "$WORK/examples.yaml" | grep -c '^>' || true)
note "uncommented $uncommented example lines"
[ "$uncommented" -ge 40 ] || fail "expected the examples to be uncommented, got $uncommented lines"
for name in sim-leaf spine-1 leaf-1 topology rules shard; do
  grep -Eq "^(  - name: $name|$name:)" "$WORK/examples.yaml" || fail "example '$name' was not uncommented"
done
CREDENTIALS_DIRECTORY="$WORK/creds" "$OPTICSD" check-config "$WORK/examples.yaml" || {
  cat -n "$WORK/examples.yaml"
  fail "an example in the shipped config does not validate"
}
echo PASS
