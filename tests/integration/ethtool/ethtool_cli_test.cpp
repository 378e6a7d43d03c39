// `opticsd capture` and the ethtool/replay target configs, through the real
// binary. Capture of a module needs one in this machine; without modules the
// command must say so and fail cleanly, and a replay directory must validate.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "drivers/replay/replay_directory.hpp"

namespace {

namespace fs = std::filesystem;

struct Run {
  int status = -1;
  std::string output;
};

Run run(const std::string& args) {
  Run result;
  const std::string command = std::string(OPTICSD_BINARY) + " " + args + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) result.output += buffer.data();
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

fs::path tempDir(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("opticsd-cli-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

TEST(CaptureCommand, InterfaceWithoutModuleIsReportedAndNothingWritten) {
  const auto out = tempDir("lo");
  const auto result = run("capture --interface lo --out " + out.string());
  EXPECT_EQ(result.status, 1) << result.output;
  if (::geteuid() == 0) {
    EXPECT_NE(result.output.find("lo: no module"), std::string::npos) << result.output;
  }
  EXPECT_FALSE(fs::exists(out / "lo" / "module.dump"));
  fs::remove_all(out);
}

TEST(CaptureCommand, MissingInterfaceAndBadArguments) {
  const auto out = tempDir("missing");
  auto missing = run("capture --interface nosuch0 --out " + out.string());
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.output.find("nosuch0"), std::string::npos) << missing.output;
  auto usage = run("capture --interface lo --out " + out.string() + " --count 0");
  EXPECT_EQ(usage.status, 2) << usage.output;
  auto no_out = run("capture --interface lo");
  EXPECT_NE(no_out.status, 0);
  fs::remove_all(out);
}

TEST(TargetConfig, EthtoolAndReplayTargetsValidate) {
  const auto dir = tempDir("config");
  fs::create_directories(dir);
  const auto replay = fs::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/replay/synthetic-host";
  std::ofstream(dir / "good.yaml") << "targets:\n"
                                   << "  - name: local\n    driver: ethtool\n    interfaces: [lo, \"eth*\"]\n"
                                   << "  - name: replayed\n    driver: replay\n    directory: " << replay.string()
                                   << "\n";
  auto good = run("check-config " + (dir / "good.yaml").string());
  EXPECT_EQ(good.status, 0) << good.output;
  std::ofstream(dir / "bad.yaml") << "targets:\n"
                                  << "  - name: local\n    driver: ethtool\n    interfacs: [lo]\n"
                                  << "  - name: replayed\n    driver: replay\n    directory: /nonexistent/capture\n";
  auto bad = run("check-config " + (dir / "bad.yaml").string());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("interfacs"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("/nonexistent/capture"), std::string::npos) << bad.output;
  fs::remove_all(dir);
}

}  // namespace
