#include "agents.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace opticsd::snmp::testing {

std::uint16_t freeUdpPort() {
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool haveProgram(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

std::string makeTempDir() {
  std::string tmpl = "/tmp/opticsd-snmp-XXXXXX";
  char* made = ::mkdtemp(tmpl.data());
  if (!made) return {};
  ::chmod(made, 0755);  // snmpsimd drops to nobody and must read it
  return made;
}

bool Agent::spawn(const std::vector<std::string>& argv) {
  pid_ = ::fork();
  if (pid_ < 0) return false;
  if (pid_ == 0) {
    int log = ::open((dir_ + "/agent.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
      ::dup2(log, 1);
      ::dup2(log, 2);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  return true;
}

bool Agent::startSnmpsim(const std::vector<std::string>& files) {
  dir_ = makeTempDir();
  if (dir_.empty()) return false;
  std::filesystem::create_directories(dir_ + "/data");
  ::chmod((dir_ + "/data").c_str(), 0755);
  std::filesystem::create_directories(dir_ + "/cache");
  ::chmod((dir_ + "/cache").c_str(), 0777);  // written by nobody
  for (const auto& f : files) {
    auto to = dir_ + "/data/" + std::filesystem::path(f).filename().string();
    std::filesystem::copy_file(f, to, std::filesystem::copy_options::overwrite_existing);
    ::chmod(to.c_str(), 0644);
  }
  port_ = freeUdpPort();
  return spawn({"snmpsimd", "--data-dir=" + dir_ + "/data", "--cache-dir=" + dir_ + "/cache",
                "--agent-udpv4-endpoint=127.0.0.1:" + std::to_string(port_), "--process-user=nobody",
                "--process-group=nogroup"});
}

bool Agent::startSnmpd(const std::vector<std::string>& config_lines) {
  dir_ = makeTempDir();
  if (dir_.empty()) return false;
  port_ = freeUdpPort();
  {
    std::ofstream conf(dir_ + "/snmpd.conf");
    conf << "agentAddress udp:127.0.0.1:" << port_ << "\n";
    for (const auto& line : config_lines) conf << line << "\n";
  }
  std::filesystem::create_directories(dir_ + "/persist");
  return spawn({"snmpd", "-f", "-Lo", "-C", "-c", dir_ + "/snmpd.conf", "-p", dir_ + "/snmpd.pid",
                "--persistentDir=" + dir_ + "/persist", "--noPersistentLoad=0"});
}

bool Agent::waitReady(const std::string& snmpget_args, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::string cmd = "snmpget -r0 -t0.3 " + snmpget_args + " 127.0.0.1:" + std::to_string(port_) +
                    " 1.3.6.1.2.1.1.2.0 >/dev/null 2>&1";
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::system(cmd.c_str()) == 0) return true;
    int status = 0;
    if (pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return false;  // the agent exited
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

void Agent::stop() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 50 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    dir_.clear();
  }
}

}  // namespace opticsd::snmp::testing
