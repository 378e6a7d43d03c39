// The live ethtool driver against the real kernel: one poll cycle over many
// interfaces (veth pairs in a network namespace of the benchmark's own; they
// have no module, so this measures the netlink path: family, batching,
// no-module detection and counters), reporting CPU time and netlink
// syscalls per interface per cycle. Needs root; skipped otherwise.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <cstdlib>
#include <optional>
#include <string>

#include "drivers/ethtool/ethtool_driver.hpp"

namespace {

void BM_EthtoolPollVethNoModule(benchmark::State& state) {
  const int pairs = static_cast<int>(state.range(0));
  if (::geteuid() != 0) {
    state.SkipWithError("needs root for a network namespace");
    return;
  }
  const std::string ns = "opticsd-bench-" + std::to_string(::getpid());
  if (std::system(("ip netns add " + ns + " 2>/dev/null").c_str()) != 0) {
    state.SkipWithError("ip netns add failed");
    return;
  }
  const int original = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  const int target = ::open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
  ::setns(target, CLONE_NEWNET);
  ::close(target);
  std::string batch = "ip -batch - <<'EOF'\n";
  for (int i = 0; i < pairs; ++i) {
    batch += "link add a" + std::to_string(i) + " type veth peer name b" + std::to_string(i) + "\n";
  }
  batch += "EOF\n";
  if (std::system(batch.c_str()) != 0) {
    state.SkipWithError("could not create the veth pairs");
    ::setns(original, CLONE_NEWNET);
    ::close(original);
    if (std::system(("ip netns del " + ns).c_str()) != 0) return;  // nothing more to do
    return;
  }
  {
    boost::asio::io_context io;
    opticsd::ethtool::EthtoolDriver driver("bench", io, {});
    auto cycle = [&] {
      bool done = false;
      driver.poll(0, [&](opticsd::PollResult) { done = true; });
      io.restart();
      while (!done) io.run_one();
    };
    cycle();  // family resolution and link monitor start are one-off
    const auto before = driver.netlinkSyscalls();
    std::int64_t cycles = 0;
    for (auto _ : state) {
      cycle();
      ++cycles;
    }
    const double interfaces = 2.0 * pairs + 1;  // both ends and lo
    state.counters["netlink_syscalls_per_interface"] =
        static_cast<double>(driver.netlinkSyscalls() - before) / static_cast<double>(cycles) / interfaces;
    state.counters["interfaces"] = interfaces;
    state.SetItemsProcessed(cycles * static_cast<std::int64_t>(interfaces));
  }
  ::setns(original, CLONE_NEWNET);
  ::close(original);
  if (std::system(("ip netns del " + ns).c_str()) != 0) state.SkipWithError("could not delete the namespace");
}

BENCHMARK(BM_EthtoolPollVethNoModule)->Arg(32)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
