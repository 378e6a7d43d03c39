#include "daemon/cli/capture_command.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "daemon/pipeline/poll_preparation.hpp"
#include "drivers/ethtool/ethtool_driver.hpp"
#include "drivers/options/duration.hpp"
#include "drivers/replay/replay_directory.hpp"

namespace opticsd::cli {
namespace {

// Exit codes: 0 written, 1 nothing could be captured or written, 2 bad arguments.
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

struct CaptureOptions {
  std::vector<std::string> interfaces;
  std::string out;
  int count = 1;
  std::string interval = "1s";
};

struct Captured {
  std::optional<module::PortReading> first;  // the first reading with a module, for module.dump
  std::vector<replay::FecStep> steps;
};

std::string nowUtc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

int runCapture(const CaptureOptions& options) {
  auto interval = parseDuration(options.interval);
  if (!interval || options.count < 1 || options.count > 100000) {
    std::fprintf(stderr, "opticsd capture: --count must be 1..100000 and --interval a duration such as 1s\n");
    return kExitUsage;
  }
  boost::asio::io_context io;
  ethtool::EthtoolDriver driver("capture", io, ethtool::EthtoolOptions{options.interfaces});
  std::map<std::string, Captured> captured;
  driver.onReading([&](const module::PortReading& reading) {
    auto& port = captured[reading.port];
    if (!port.first && reading.module_present) port.first = reading;
    port.steps.push_back({reading.fec, reading.link, {}, reading.maintenance.has_value()});
  });
  std::vector<std::string> errors;
  PollPreparation preparation;
  for (int step = 0; step < options.count; ++step) {
    if (step > 0) {
      boost::asio::steady_timer timer(io, *interval);
      timer.wait();
    }
    bool done = false;
    const auto now_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    driver.poll(now_ms, [&](PollResult result) {
      for (auto& error : result.errors) errors.push_back(std::move(error));
      // The capture keeps the raw readings; the issues said are those the
      // daemon would see (decode issues, and the values it would drop).
      preparation.prepare("capture", now_ms, result.samples);
      for (const auto& sample : result.samples) {
        for (const auto& issue : sample.issues) std::fprintf(stderr, "%s: %s\n", sample.port.c_str(), issue.c_str());
      }
      done = true;
    });
    // The link monitor keeps the loop busy, so run until this poll is done.
    io.restart();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!done && std::chrono::steady_clock::now() < deadline) io.run_one_for(std::chrono::milliseconds(100));
    if (!done) {
      std::fprintf(stderr, "opticsd capture: the kernel did not answer within 30 s\n");
      return kExitFailed;
    }
  }
  for (const auto& error : errors) std::fprintf(stderr, "opticsd capture: %s\n", error.c_str());

  int written = 0;
  for (const auto& [name, port] : captured) {
    const bool counters =
        std::any_of(port.steps.begin(), port.steps.end(), [](const replay::FecStep& s) { return !s.fec.empty(); });
    if (!port.first && !counters) {
      std::fprintf(stderr, "opticsd capture: %s: no module and no FEC counters, nothing to capture\n", name.c_str());
      continue;
    }
    module::PortReading first = port.first.value_or(module::PortReading{});
    first.port = name;
    if (auto ok = replay::writeCapturePort(options.out, first, counters ? port.steps : std::vector<replay::FecStep>{});
        !ok) {
      std::fprintf(stderr, "opticsd capture: %s\n", ok.error().message.c_str());
      return kExitFailed;
    }
    ++written;
  }
  if (written == 0) return kExitFailed;

  utsname system{};
  ::uname(&system);
  std::ofstream notes(std::filesystem::path(options.out) / "capture.txt");
  notes << "# opticsd capture\n"
        << "host: " << system.nodename << "\n"
        << "kernel: " << system.sysname << " " << system.release << " " << system.machine << "\n"
        << "captured_at: " << nowUtc() << "\n"
        << "steps: " << options.count << " every " << options.interval << "\n"
        << "replay with a target: {name: NAME, driver: replay, directory: THIS_DIRECTORY}\n";
  std::printf("captured %d interface(s) into %s\n", written, options.out.c_str());
  return notes ? 0 : kExitFailed;
}

}  // namespace

void addCaptureCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CaptureOptions>();
  CLI::App* cmd = app.add_subcommand(
      "capture",
      "Capture live interfaces (module pages, FEC counters, link state) into a replay directory for a bug report.\n"
      "Module pages need CAP_NET_ADMIN. Exit status: 0 written, 1 nothing captured or written, 2 bad arguments.");
  cmd->add_option("--interface,-i", options->interfaces, "interface name or glob (repeatable)")->required();
  cmd->add_option("--out,-o", options->out, "directory to write (created; files in it are replaced)")->required();
  cmd->add_option("--count", options->count, "FEC/link steps to record (default 1)");
  cmd->add_option("--interval", options->interval, "time between steps (default 1s)");
  cmd->callback([options, &exit_code] { exit_code = runCapture(*options); });
}

}  // namespace opticsd::cli
