#!/usr/bin/env bash
# Shows that each check of boot-package.sh can fail: for each line below the
# package is rebuilt with one unit (or maintainer script) line removed or
# altered, only the check that depends on it runs, and it must FAIL with its
# own name. Prints one result line per mutation; exits 1 if any mutation went
# unnoticed. About a minute per mutation (the watchdog one waits WatchdogSec).
# An argument (extended regex) runs only the mutations whose line matches it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${OPTICSD_BUILD_DIR:?set OPTICSD_BUILD_DIR (as for boot-package.sh)}"

unit=lib/systemd/system/opticsd.service
# Not listed: PrivateTmp= and ProtectSystem= alone, because DynamicUser=yes
# implies PrivateTmp=yes and ProtectSystem=strict (systemd.exec(5)); removing
# either line changes nothing the sandbox check could see. NotifyAccess=none
# alone neither: Type=notify and WatchdogSec= each imply NotifyAccess=main.
# check|file in the .deb|sed expression|what it removes
mutations=(
  "install|$unit|/^WantedBy=/d|no [Install] target: not enabled"
  "install|$unit|/^Type=notify/d|Type=simple: active before READY=1"
  "install|$unit|/^NotifyAccess=/d;/^Type=notify/d;/^WatchdogSec=/d|no notify access at all: Status= dropped"
  "install|$unit|/^ExecStartPre=/d|check-config never runs"
  "reload|$unit|/^ExecReload=/d|no reload command"
  "sandbox|$unit|/^DynamicUser=/d|runs as root"
  "sandbox|$unit|/^AmbientCapabilities=/d|loses CAP_NET_ADMIN"
  "sandbox|$unit|s/^CapabilityBoundingSet=.*/CapabilityBoundingSet=CAP_NET_ADMIN CAP_NET_RAW/;s/^AmbientCapabilities=.*/AmbientCapabilities=CAP_NET_ADMIN CAP_NET_RAW/|one capability more"
  "sandbox|$unit|s/^StateDirectory=opticsd/&\nReadWritePaths=\/srv/|a second writable path"
  "security|$unit|/^CapabilityBoundingSet=/d|full bounding set"
  "watchdog|$unit|/^WatchdogSec=/d|no watchdog"
  "crash|$unit|/^Restart=/d|never restarted"
  "crash|$unit|s/^RestartSec=.*/RestartSec=100ms/|restarted at once"
  "precheck|$unit|s/^Restart=.*/Restart=on-failure/|restarts a refused config"
  "purge|DEBIAN/postrm|/rm -rf \/var\/lib\/private\/opticsd/d|history left"
  "upgrade|DEBIAN/conffiles|/opticsd.yaml/d|config not a conffile"
)

only=${1:-.}
failed=0
for entry in "${mutations[@]}"; do
  grep -Eq -- "$only" <<<"$entry" || continue
  IFS='|' read -r check path expr what <<<"$entry"
  log=$(mktemp)
  OPTICSD_SYSTEM_CHECKS="$check" OPTICSD_SYSTEM_MUTATE="$path|$expr" \
    timeout 600 bash "$here/boot-package.sh" >"$log" 2>&1
  status=$?
  reason=$(grep -m1 '^FAIL\[' "$log" || true)
  if [ "$status" -ne 0 ] && [[ $reason == "FAIL[$check]"* ]]; then
    echo "caught    $check: $what ($path: $expr) -> $reason"
  elif [ "$status" -ne 0 ] && [[ $reason == "FAIL[install]"* ]] && [ "$check" != install ]; then
    # The mutation broke the install already: that is a failure, but not this check's.
    echo "EARLY     $check: $what ($path: $expr) -> $reason"
    failed=1
  else
    echo "MISSED    $check: $what ($path: $expr) -> exit $status; ${reason:-$(tail -n 1 "$log")}"
    failed=1
  fi
  rm -f "$log"
done
[ "$failed" -eq 0 ] && echo "every mutation was caught by its check"
exit "$failed"
