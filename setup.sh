#!/usr/bin/env bash
# opticsd setup: installs what is missing (Debian 12 packages only), builds,
# and then runs what you asked for.
#
#   ./setup.sh run [ARGS...]   build and run `opticsd run` (the embedded demo without ARGS)
#   ./setup.sh test            build and run the whole test suite (what CI runs)
#   ./setup.sh sanitize        ASan+UBSan build, unit tests only
#   ./setup.sh minimal         the sim-only build (every other driver OFF): unit tests and one scenario
#   ./setup.sh fuzz-smoke      clang/libFuzzer build, a short run of every fuzzer
#   ./setup.sh fuzz [SECONDS]  long fuzz runs (default 600 s per fuzzer)
#   ./setup.sh bench           Google Benchmark targets and end-to-end bench scripts
#   ./setup.sh soak            10,000 simulated modules at 1 s for 10 minutes
#   ./setup.sh system [mutations]  the .deb under a real systemd (root; Debian's mirror on the first run)
#   ./setup.sh build           only install and build
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
JOBS=$(nproc 2>/dev/null || echo 2)

# What each package is for is in README.md ("Dependencies").
BUILD_PACKAGES=(cmake ninja-build ccache g++ pkg-config libboost-dev prometheus-cpp-dev libsnmp-dev libsqlite3-dev
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libexpected-dev libsystemd-dev
  libmnl-dev libssl-dev zlib1g-dev libprotobuf-dev protobuf-compiler libsnappy-dev
  libgrpc++-dev protobuf-compiler-grpc)
TEST_PACKAGES=(libgtest-dev libgmock-dev libbenchmark-dev snmpd snmp snmpsim prometheus prometheus-alertmanager prometheus-snmp-exporter sqlite3 curl iproute2
  ethtool procps python3 clang clang-format clang-tidy libclang-rt-14-dev systemd lintian dpkg-dev devscripts file openssl victoria-metrics
  python3-grpcio python3-protobuf chromium)
# The system test boots the package in a debootstrap tree with systemd-nspawn.
SYSTEM_PACKAGES=(debootstrap systemd-container util-linux coreutils)

log() { printf '[setup] %s\n' "$*" >&2; }

install_missing() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# ccache: the sim-only build compiles nearly every file as the full build did
# (only the CLI differs), so after `test` it is mostly cache hits. Paths are
# hashed relative to the checkout, so build dirs and clones share the cache.
export CCACHE_BASEDIR="$ROOT"

configure_and_build() {  # DIR [cmake args...] [-- TARGET...]
  local dir=$1; shift
  local args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
  [ $# -gt 0 ] && shift && targets=("$@")
  # Release (no debug info) by default: CI has two cores and four builds to make.
  cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache "${args[@]}" >/dev/null
  cmake --build "$dir" -j "$JOBS" ${targets[@]+--target "${targets[@]}"}
}

mode=${1:-run}
[ $# -gt 0 ] && shift
case "$mode" in
  build)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build build ;;
  run)
    install_missing "${BUILD_PACKAGES[@]}" libgtest-dev libgmock-dev libbenchmark-dev
    configure_and_build build
    exec build/daemon/cli/opticsd run "$@" ;;
  test)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    # The system tests (label system) are registered only by `./setup.sh system`.
    configure_and_build build -DOPTICSD_SYSTEM_TESTS=OFF
    ctest --test-dir build --output-on-failure --timeout 600 -j "$JOBS" -LE 'fuzz|soak' ;;
  minimal)
    # Only the sim driver: the build options still configure and build, the unit
    # tests that apply pass, and one end-to-end scenario shows the binary works.
    # The other scenarios already ran in `./setup.sh test`; running them again
    # here would double CI's integration time for no new coverage.
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build build-minimal -DOPTICSD_WITH_ETHTOOL=OFF -DOPTICSD_WITH_REPLAY=OFF \
      -DOPTICSD_WITH_SNMP=OFF -DOPTICSD_WITH_GNMI=OFF -DOPTICSD_BUILD_BENCHMARKS=OFF -DOPTICSD_SYSTEM_TESTS=OFF
    ctest --test-dir build-minimal --output-on-failure --no-tests=error --timeout 600 -j "$JOBS" -L '^unit$'
    ctest --test-dir build-minimal --output-on-failure --no-tests=error --timeout 600 -R '^integration/10-demo-end-to-end$' ;;
  sanitize)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build build-asan -DOPTICSD_SANITIZE=ON -DOPTICSD_BUILD_BENCHMARKS=OFF \
      -DOPTICSD_BUILD_INTEGRATION_TESTS=OFF -- opticsd_unit_tests
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan --output-on-failure --timeout 600 -j "$JOBS" -L unit ;;
  fuzz-smoke)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DOPTICSD_FUZZ=ON -DOPTICSD_BUILD_TESTS=OFF \
      -DOPTICSD_BUILD_BENCHMARKS=OFF -- opticsd_fuzzers
    ctest --test-dir build-fuzz --output-on-failure -L fuzz ;;
  fuzz)
    seconds=${1:-600}
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DOPTICSD_FUZZ=ON -DOPTICSD_BUILD_TESTS=OFF \
      -DOPTICSD_BUILD_BENCHMARKS=OFF -- opticsd_fuzzers
    for fuzzer in $(find build-fuzz/tests/fuzz -maxdepth 2 -type f -executable -name '*fuzz_*' | sort); do
      name=$(basename "$fuzzer")
      # Whole CMIS dumps with banks and VDM pages run to about 9 KB.
      case $name in *dump_file*) max_len=16384 ;; *) max_len=4096 ;; esac
      mkdir -p "build-fuzz/corpus/$name"
      log "fuzzing $name for ${seconds}s"
      "$fuzzer" -max_total_time="$seconds" -max_len="$max_len" "build-fuzz/corpus/$name" "tests/fuzz/corpus/$name"
    done ;;
  bench)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build build-bench -DCMAKE_BUILD_TYPE=Release
    # Google Benchmark binaries; snmp_poll_bench is driven by snmp_bench.sh below.
    for bench in $(find build-bench/tests/bench -type f -executable -name '*_bench' ! -name snmp_poll_bench | sort); do
      log "running $(basename "$bench")"
      "$bench" --benchmark_min_time=0.5
    done
    for script in tests/bench/*/*.sh; do
      [ -f "$script" ] || continue
      log "running $script"
      OPTICSD_BUILD_DIR="$ROOT/build-bench" bash "$script"
    done ;;
  soak)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build build-bench -DCMAKE_BUILD_TYPE=Release
    OPTICSD="$ROOT/build-bench/daemon/cli/opticsd" bash tests/soak/soak.sh "$@" ;;
  system)
    # tests/system/boot-package.sh; `mutations` shows each of its checks failing
    # when the unit line it depends on is removed (one boot per mutation).
    label=system
    [ "${1:-}" = mutations ] && label=system-mutations
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${SYSTEM_PACKAGES[@]}"
    cmake -S "$ROOT" -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPTICSD_SYSTEM_TESTS=ON >/dev/null
    cmake --build build -j "$JOBS" --target opticsd opticsd_package_docs
    ctest --test-dir build --output-on-failure -L "^$label\$" ;;
  *)
    sed -n '2,15p' "$0" >&2
    exit 2 ;;
esac
