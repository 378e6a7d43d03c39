#!/usr/bin/env bash
# Memory bench: RSS per module of the real daemon polling 10,000 simulated
# modules (history on) for two minutes. Target: under 10 KB per module.
set -euo pipefail
: "${OPTICSD:=${OPTICSD_BUILD_DIR:?set OPTICSD or OPTICSD_BUILD_DIR}/daemon/cli/opticsd}"
export OPTICSD
exec bash "$(dirname "$0")/../../soak/soak.sh" "${MODULES:-10000}" "${INTERVAL:-5s}" "${DURATION_S:-120}" "${WARMUP_S:-60}"
