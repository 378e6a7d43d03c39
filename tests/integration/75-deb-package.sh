#!/usr/bin/env bash
# needs-drivers: snmp
# ctest-run-serial
# The Debian package: `cpack -G DEB` builds it from the build directory,
# lintian reports no errors, the files sit where the unit and the docs say,
# and hardening-check (devscripts) finds Debian's hardening in the packaged
# binary: PIE, stack protector, fortified functions, RELRO and BIND_NOW.
# As root with dpkg (and no opticsd package already installed), `dpkg -i`
# installs it (enabled, not started: no systemd runs here), the installed
# unit verifies, the installed binary validates the shipped config and finds
# the SNMP profiles under /usr/share; `dpkg -r` removes everything but the
# conffile, and `dpkg -P` leaves nothing behind.
source "$(dirname "$0")/lib.sh"
need cpack
need dpkg-deb
: "${OPTICSD_BUILD_DIR:?set OPTICSD_BUILD_DIR to the build directory (ctest does)}"

prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$OPTICSD_BUILD_DIR/CMakeCache.txt")
[ "$prefix" = /usr ] || fail "build dir has CMAKE_INSTALL_PREFIX=$prefix; a .deb needs -DCMAKE_INSTALL_PREFIX=/usr (the SNMP profile directory is compiled in from it)"

note "cpack -G DEB"
cmake --build "$OPTICSD_BUILD_DIR" --target opticsd opticsd_package_docs >"$WORK/build.log" 2>&1 \
  || { tail -30 "$WORK/build.log"; fail "cannot build opticsd and the packaged docs"; }
(cd "$OPTICSD_BUILD_DIR" && cpack -G DEB -B "$WORK/pkg") >"$WORK/cpack.log" 2>&1 || { cat "$WORK/cpack.log"; fail "cpack failed"; }
deb=$(ls "$WORK"/pkg/opticsd_*.deb)
[ -f "$deb" ] || fail "no .deb produced"
note "built $(basename "$deb")"

dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's#^\./#/#' >"$WORK/contents.txt"
for path in /usr/bin/opticsd /lib/systemd/system/opticsd.service /etc/opticsd/opticsd.yaml \
  /usr/share/opticsd/snmp-profiles/sonic.yaml /usr/share/opticsd/snmp-profiles/arista-eos.yaml \
  /usr/share/opticsd/grafana/opticsd-fleet-overview.json /usr/share/opticsd/grafana/opticsd-module-detail.json \
  /usr/share/opticsd/grafana/opticsd-collector-health.json /usr/share/opticsd/prometheus/opticsd-alerts.yml \
  /usr/share/opticsd/alertmanager/alertmanager.yml /usr/share/opticsd/alertmanager/opticsd.tmpl \
  /usr/share/man/man8/opticsd.8.gz /usr/share/doc/opticsd/copyright /usr/share/doc/opticsd/changelog.gz; do
  grep -qx "$path" "$WORK/contents.txt" || fail "package lacks $path"
done
note "hardening-check"
if command -v hardening-check >/dev/null; then
  dpkg-deb -x "$deb" "$WORK/root"
  hardening-check "$WORK/root/usr/bin/opticsd" >"$WORK/hardening.txt" 2>&1 || true
  cat "$WORK/hardening.txt"
  for check in 'Position Independent Executable' 'Stack protected' 'Fortify Source functions' 'Read-only relocations' \
    'Immediate binding'; do
    grep -q "^ *$check: yes" "$WORK/hardening.txt" \
      || fail "packaged binary lacks '$check' (build with OPTICSD_HARDENING=ON, the default)"
  done
else
  echo "hardening-check (devscripts) not installed: not checked"
fi
dpkg-deb -f "$deb" Depends | grep -q 'libsystemd0' || fail "Depends lacks the shared libraries (shlibdeps)"
dpkg-deb -e "$deb" "$WORK/control"
grep -qx /etc/opticsd/opticsd.yaml "$WORK/control/conffiles" || fail "the config is not a conffile"
for script in postinst prerm postrm; do
  [ -x "$WORK/control/$script" ] || fail "no executable $script"
  sh -n "$WORK/control/$script" || fail "$script is not valid sh"
done

if command -v lintian >/dev/null; then
  note "lintian"
  lintian --no-tag-display-limit "$deb" >"$WORK/lintian.txt" 2>&1 || true
  cat "$WORK/lintian.txt"
  if grep -q '^E: ' "$WORK/lintian.txt"; then fail "lintian reports errors"; fi
else
  echo "lintian not installed: not checked"
fi

if [ "$(id -u)" -ne 0 ] || ! command -v dpkg >/dev/null; then
  echo "SKIP part: dpkg -i/-r need root"
  echo PASS
  exit 0
fi
if dpkg-query -W -f='${Status}' opticsd 2>/dev/null | grep -q 'installed\|config-files'; then
  echo "SKIP part: an opticsd package is already on this machine; not touching it"
  echo PASS
  exit 0
fi
if [ -d /run/systemd/system ]; then
  echo "SKIP part: systemd is running here; installing would start the service on this machine"
  echo PASS
  exit 0
fi

note "dpkg -i"
cleanup_package() { dpkg -P opticsd >/dev/null 2>&1 || true; }
trap 'cleanup_package; cleanup' EXIT
dpkg -i "$deb" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; fail "dpkg -i failed"; }
dpkg-query -W -f='${Status}\n' opticsd | grep -q 'install ok installed' || fail "not installed"
[ -x /usr/bin/opticsd ] || fail "binary missing"
[ -f /lib/systemd/system/opticsd.service ] || fail "unit missing"
[ "$(stat -c %a /etc/opticsd/credentials)" = 700 ] || fail "/etc/opticsd/credentials is not 0700"
[ -L /etc/systemd/system/multi-user.target.wants/opticsd.service ] || fail "service not enabled"
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify /lib/systemd/system/opticsd.service >"$WORK/verify.out" 2>&1 || { cat "$WORK/verify.out"; fail "installed unit does not verify"; }
  if grep opticsd.service "$WORK/verify.out"; then fail "systemd-analyze verify warned about the installed unit"; fi
fi
man -w opticsd >/dev/null 2>&1 || ! command -v man >/dev/null || fail "man opticsd not found"
/usr/bin/opticsd check-config /etc/opticsd/opticsd.yaml || fail "the installed binary rejects the shipped config"
cat >"$WORK/snmp.yaml" <<'YAML'
targets:
  - {name: leaf-1, driver: snmp, profile: sonic, address: 192.0.2.1, community: public}
YAML
/usr/bin/opticsd check-config "$WORK/snmp.yaml" || fail "the installed binary does not find /usr/share/opticsd/snmp-profiles"

note "dpkg -r"
dpkg -r opticsd >"$WORK/remove.log" 2>&1 || { cat "$WORK/remove.log"; fail "dpkg -r failed"; }
for path in /usr/bin/opticsd /lib/systemd/system/opticsd.service /usr/share/opticsd /usr/share/doc/opticsd \
  /usr/share/man/man8/opticsd.8.gz; do
  [ ! -e "$path" ] || fail "$path left after dpkg -r"
done
[ -f /etc/opticsd/opticsd.yaml ] || fail "dpkg -r removed the conffile (only purge should)"
note "dpkg -P"
dpkg -P opticsd >"$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail "dpkg -P failed"; }
[ ! -e /etc/opticsd ] || fail "/etc/opticsd left after purge"
[ ! -e /etc/systemd/system/multi-user.target.wants/opticsd.service ] || fail "enable symlink left after purge"
! dpkg-query -W opticsd >/dev/null 2>&1 || dpkg-query -W -f='${Status}' opticsd | grep -q 'not-installed' \
  || fail "dpkg still knows opticsd after purge"
echo PASS
