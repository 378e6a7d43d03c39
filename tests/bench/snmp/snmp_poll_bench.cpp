// The opticsd side of tests/bench/snmp/snmp_bench.sh: writes the snmpd
// configs of N synthetic Arista switches, or polls N running agents through
// the real SNMP driver (NetSnmpSession on one io_context, profile picked by
// sysObjectID) and prints wall time and this process's CPU time per poll.
//
//   snmp_poll_bench write-configs DIR N BASE_PORT
//   snmp_poll_bench poll N BASE_PORT [POLLS] [MAX_REPETITIONS]
//
// The poll mode checks every answer (64 ports x 8 lanes, no errors) so a
// fast but wrong poll cannot pass for a result; it exits 1 on any mismatch.
#include <sys/resource.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "drivers/snmp/netsnmp_session.hpp"
#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/snmp_driver.hpp"
#include "synthetic_switch.hpp"

namespace {

using opticsd::snmp::bench::SyntheticSwitchShape;

double cpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto tv = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return tv(usage.ru_utime) + tv(usage.ru_stime);
}

int writeConfigs(const std::string& dir, int count, int base_port) {
  auto rows = opticsd::snmp::bench::syntheticAristaSwitch();
  std::vector<std::string> lines;
  lines.reserve(rows.size());
  for (const auto& vb : rows) lines.push_back(opticsd::snmp::bench::snmpdOverrideLine(vb));
  // snmpd keeps registrations in an OID-sorted list and scans it from the
  // front: lines in descending OID order register in near-constant time,
  // ascending order is quadratic (seconds per agent).
  std::reverse(lines.begin(), lines.end());
  for (int i = 0; i < count; ++i) {
    std::ofstream out(dir + "/agent-" + std::to_string(i) + ".conf");
    out << "agentAddress udp:127.0.0.1:" << base_port + i << "\n"
        << "rocommunity public 127.0.0.1\n"
        << "dontLogTCPWrappersConnects yes\n";  // no log line per request
    for (const auto& line : lines) out << line << "\n";
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", dir.c_str());
      return 1;
    }
  }
  std::printf("%zu override lines per agent, %zu sensors\n", lines.size(),
              opticsd::snmp::bench::syntheticSensorCount());
  return 0;
}

struct Target {
  std::unique_ptr<opticsd::snmp::SnmpDriver> driver;
  opticsd::snmp::NetSnmpSession* session = nullptr;
};

int poll(int count, int base_port, int polls, int max_repetitions) {
  using namespace opticsd::snmp;
  boost::asio::io_context io;
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
  if (!catalog) {
    std::fprintf(stderr, "profiles: %s\n", catalog.error().message.c_str());
    return 1;
  }
  const SyntheticSwitchShape shape;
  std::vector<Target> targets(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    DriverOptions options;
    options.session.address = "127.0.0.1";
    options.session.port = static_cast<std::uint16_t>(base_port + i);
    options.session.max_repetitions = max_repetitions;
    options.session.timeout = std::chrono::milliseconds(5000);
    options.session.retries = 1;
    options.static_refresh = 1000000;  // timed polls are steady-state polls
    Target& t = targets[static_cast<std::size_t>(i)];
    t.driver = std::make_unique<SnmpDriver>(
        &io, "sw" + std::to_string(i), options, *catalog,
        [&io, &t, config = options.session](const std::string&) -> opticsd::Result<std::unique_ptr<Session>> {
          auto s = NetSnmpSession::open(io, config);
          if (!s) return tl::unexpected(s.error());
          t.session = s->get();
          return std::unique_ptr<Session>(std::move(*s));
        });
  }
  auto received = [&] {
    std::uint64_t n = 0;
    for (const auto& t : targets) n += t.session ? t.session->varbindsReceived() : 0;
    return n;
  };

  int bad = 0;
  auto round = [&](const char* label) {
    int pending = count;
    std::uint64_t before_vb = received();
    double before_cpu = cpuSeconds();
    auto start = std::chrono::steady_clock::now();
    for (auto& t : targets) {
      t.driver->poll(0, [&, name = &t - targets.data()](opticsd::PollResult r) {
        --pending;
        std::size_t lanes = 0;
        for (const auto& s : r.samples) lanes += s.lanes.size();
        const std::size_t want_lanes = static_cast<std::size_t>(shape.ports * shape.lanes);
        if (!r.errors.empty() || r.samples.size() != static_cast<std::size_t>(shape.ports) || lanes != want_lanes) {
          if (++bad <= 5) {
            std::fprintf(stderr, "sw%td: %zu samples, %zu lanes (want %d, %zu)%s%s\n", name, r.samples.size(), lanes,
                         shape.ports, want_lanes, r.errors.empty() ? "" : ": ",
                         r.errors.empty() ? "" : r.errors.front().c_str());
          }
        }
      });
    }
    io.restart();
    io.run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double cpu = cpuSeconds() - before_cpu;
    std::uint64_t varbinds = received() - before_vb;
    std::printf("%-8s targets=%d wall_s=%.4f cpu_s=%.4f varbinds=%llu cpu_us_per_varbind=%.3f%s\n", label, count, wall,
                cpu, static_cast<unsigned long long>(varbinds),
                varbinds ? cpu * 1e6 / static_cast<double>(varbinds) : 0.0, pending ? " (unfinished)" : "");
    return std::tuple{wall, cpu, varbinds};
  };

  round("warmup");  // sysObjectID, static tables, resolve
  if (targets.front().driver->profile()) {
    std::printf("profile=%s\n", targets.front().driver->profile()->name.c_str());
  }
  double wall = 0, cpu = 0;
  std::uint64_t varbinds = 0;
  for (int k = 0; k < polls; ++k) {
    auto [w, c, v] = round("poll");
    wall += w;
    cpu += c;
    varbinds += v;
  }
  // One line for the script: mean of the timed polls.
  std::printf("RESULT opticsd %.4f %.4f %llu\n", wall / polls, cpu / polls,
              static_cast<unsigned long long>(varbinds / static_cast<std::uint64_t>(polls)));
  if (bad) std::fprintf(stderr, "%d target polls were wrong\n", bad);
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 4 && args[0] == "write-configs") {
    return writeConfigs(args[1], std::atoi(args[2].c_str()), std::atoi(args[3].c_str()));
  }
  if (args.size() >= 3 && args.size() <= 5 && args[0] == "poll") {
    int polls = args.size() > 3 ? std::atoi(args[3].c_str()) : 5;
    int reps = args.size() > 4 ? std::atoi(args[4].c_str()) : 50;
    return poll(std::atoi(args[1].c_str()), std::atoi(args[2].c_str()), std::max(1, polls), std::max(1, reps));
  }
  std::fprintf(stderr,
               "usage: snmp_poll_bench write-configs DIR N BASE_PORT\n"
               "       snmp_poll_bench poll N BASE_PORT [POLLS] [MAX_REPETITIONS]\n");
  return 2;
}
