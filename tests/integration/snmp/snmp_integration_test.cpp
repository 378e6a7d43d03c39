// The SNMP driver through net-snmp against real agents on 127.0.0.1:
// snmpsim serving the profile fixtures and LibreNMS's real switch walks,
// snmpd for SNMPv3 and misbehaving agents. Skips when an agent is missing.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <boost/asio/io_context.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "agents.hpp"
#include "drivers/snmp/snmp_driver.hpp"

namespace opticsd::snmp {
namespace {

using testing::Agent;

std::string fixture(const std::string& name) {
  return std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/snmp/" + name;
}

// Builds a driver from a YAML target mapping, exactly as the config loader would.
std::unique_ptr<Driver> makeDriver(boost::asio::io_context& io, const std::string& name, const std::string& yaml) {
  std::vector<ConfigIssue> issues;
  OptionReader reader(YAML::Load(yaml), "test.yaml", name, issues);
  auto driver = createSnmpDriver(DriverContext{name, &io}, reader);
  for (const auto& i : issues) ADD_FAILURE() << i.format();
  return driver;
}

// Polls every driver once, concurrently on one io_context.
std::vector<PollResult> pollAll(boost::asio::io_context& io, std::vector<std::unique_ptr<Driver>>& drivers) {
  std::vector<PollResult> out(drivers.size());
  std::vector<int> calls(drivers.size(), 0);
  for (std::size_t i = 0; i < drivers.size(); ++i) {
    drivers[i]->poll(0, [&, i](PollResult r) {
      ++calls[i];
      out[i] = std::move(r);
    });
  }
  io.restart();
  io.run();
  for (auto c : calls) EXPECT_EQ(c, 1);
  return out;
}

const Sample* port(const PollResult& r, const std::string& name) {
  for (const auto& s : r.samples) {
    if (s.port == name) return &s;
  }
  return nullptr;
}

std::string errorsOf(const PollResult& r) {
  std::string out;
  for (const auto& e : r.errors) out += e + "\n";
  return out;
}

bool hasSnmpsim() { return testing::haveProgram("snmpsimd") && testing::haveProgram("snmpget"); }
bool hasSnmpd() { return testing::haveProgram("snmpd") && testing::haveProgram("snmpget"); }

// A UDP socket that receives and never answers: a dead agent.
struct SilentAgent {
  int fd = -1;
  std::uint16_t port = 0;
  SilentAgent() {
    fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    socklen_t len = sizeof(addr);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~SilentAgent() { ::close(fd); }
};

class SnmpsimProfiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!hasSnmpsim()) return;
    agent_ = new Agent();
    bool ok = agent_->startSnmpsim({fixture("arista-eos.snmprec"), fixture("sonic.snmprec"),
                                    fixture("cisco-entity-sensor.snmprec"), fixture("juniper-dom.snmprec"),
                                    fixture("broken-arista.snmprec")}) &&
              agent_->waitReady("-v2c -c sonic");
    if (!ok) {
      delete agent_;
      agent_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete agent_;
    agent_ = nullptr;
  }
  void SetUp() override {
    if (!agent_) GTEST_SKIP() << "snmpsimd not installed or did not start";
  }
  std::string target(const std::string& community, const std::string& extra = "") {
    return "address: 127.0.0.1\nport: " + std::to_string(agent_->port()) + "\ncommunity: " + community +
           "\ntimeout: 3s\nretries: 1\nmax_repetitions: 20\n" + extra;
  }
  static Agent* agent_;
};
Agent* SnmpsimProfiles::agent_ = nullptr;

TEST_F(SnmpsimProfiles, EveryShippedProfileByItsSysObjectIdInParallel) {
  boost::asio::io_context io;
  SilentAgent dead;
  std::vector<std::unique_ptr<Driver>> drivers;
  drivers.push_back(makeDriver(io, "arista", target("arista-eos")));
  drivers.push_back(makeDriver(io, "sonic", target("sonic")));
  drivers.push_back(makeDriver(io, "cisco", target("cisco-entity-sensor")));
  drivers.push_back(makeDriver(io, "juniper", target("juniper-dom")));
  drivers.push_back(makeDriver(io, "dead", "address: 127.0.0.1\nport: " + std::to_string(dead.port) +
                                               "\nprofile: sonic\ntimeout: 300ms\nretries: 1\n"));
  for (const auto& d : drivers) ASSERT_NE(d, nullptr);
  auto r = pollAll(io, drivers);

  const Sample* e1 = port(r[0], "Ethernet1");
  ASSERT_NE(e1, nullptr) << errorsOf(r[0]);
  EXPECT_TRUE(r[0].errors.empty()) << errorsOf(r[0]);
  EXPECT_DOUBLE_EQ(*e1->module[ModuleMetric::kTemperatureCelsius], 25.8);
  EXPECT_EQ(e1->lanes[0].status.rx_no_light, true);
  EXPECT_NEAR(*e1->module[ModuleMetric::kPreFecBerRatio], 1.23e-9, 1e-20);
  EXPECT_EQ(e1->fec.uncorrectable_blocks_total, 7u);
  ASSERT_NE(port(r[0], "Ethernet49"), nullptr);
  EXPECT_EQ(port(r[0], "Ethernet49")->lanes.size(), 4u);

  const Sample* e0 = port(r[1], "Ethernet0");
  ASSERT_NE(e0, nullptr) << errorsOf(r[1]);
  EXPECT_EQ(e0->lanes.size(), 8u);
  EXPECT_EQ(e0->lanes[7].status.rx_no_light, true);

  const Sample* cisco = port(r[2], "Ethernet1/1");
  ASSERT_NE(cisco, nullptr) << errorsOf(r[2]);
  EXPECT_NEAR(*cisco->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 20.116, 1e-9);
  EXPECT_NEAR(*cisco->thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 85.0, 1e-9);

  const Sample* ge = port(r[3], "ge-1/0/0");
  ASSERT_NE(ge, nullptr) << errorsOf(r[3]);
  EXPECT_DOUBLE_EQ(*ge->lanes[0].values[LaneMetric::kRxPowerDbm], -26.77);

  ASSERT_TRUE(r[4].failed());
  EXPECT_NE(r[4].errors[0].find("timeout"), std::string::npos) << errorsOf(r[4]);
}

TEST_F(SnmpsimProfiles, SmallMaxRepetitionsGivesTheSameSamples) {
  boost::asio::io_context io;
  std::vector<std::unique_ptr<Driver>> drivers;
  drivers.push_back(makeDriver(io, "a1", target("arista-eos", "profile: arista-eos\nmax_repetitions: 1\n")));
  drivers.push_back(makeDriver(io, "a50", target("arista-eos", "profile: arista-eos\nmax_repetitions: 50\n")));
  auto r = pollAll(io, drivers);
  ASSERT_EQ(r[0].samples.size(), r[1].samples.size());
  ASSERT_EQ(r[0].samples.size(), 2u);
  for (std::size_t i = 0; i < r[0].samples.size(); ++i) {
    EXPECT_EQ(r[0].samples[i].port, r[1].samples[i].port);
    EXPECT_EQ(r[0].samples[i].lanes.size(), r[1].samples[i].lanes.size());
  }
}

TEST_F(SnmpsimProfiles, WrongTypesAndBadScalesArePerRowErrors) {
  boost::asio::io_context io;
  std::vector<std::unique_ptr<Driver>> drivers;
  drivers.push_back(makeDriver(io, "broken", target("broken-arista")));
  auto r = pollAll(io, drivers);
  ASSERT_EQ(r[0].samples.size(), 1u) << errorsOf(r[0]);
  EXPECT_DOUBLE_EQ(*r[0].samples[0].module[ModuleMetric::kTemperatureCelsius], 25.8);
  auto text = errorsOf(r[0]);
  EXPECT_NE(text.find("scale 42"), std::string::npos) << text;
  EXPECT_NE(text.find("OCTET STRING"), std::string::npos) << text;
}

TEST_F(SnmpsimProfiles, WrongCommunityTimesOutCleanly) {
  boost::asio::io_context io;
  std::vector<std::unique_ptr<Driver>> drivers;
  drivers.push_back(makeDriver(io, "nope", "address: 127.0.0.1\nport: " + std::to_string(agent_->port()) +
                                               "\ncommunity: not-a-file\ntimeout: 300ms\nretries: 0\n"));
  auto r = pollAll(io, drivers);
  EXPECT_TRUE(r[0].failed());
  EXPECT_EQ(errorsOf(r[0]).find("not-a-file"), std::string::npos) << "community leaked into an error";
}

// ---- SNMPv3 against real snmpd ----

std::vector<std::string> aristaOverrides() {
  return {"override 1.3.6.1.2.1.47.1.1.1.1.2.100301100 octet_str \"Xcvr for Ethernet1\"",
          "override 1.3.6.1.2.1.47.1.1.1.1.2.100301201 octet_str \"DOM Temperature Sensor for Ethernet1\"",
          "override 1.3.6.1.2.1.47.1.1.1.1.4.100301201 integer 100301100",
          "override 1.3.6.1.2.1.99.1.1.1.1.100301201 integer 8",
          "override 1.3.6.1.2.1.99.1.1.1.2.100301201 integer 9",
          "override 1.3.6.1.2.1.99.1.1.1.3.100301201 integer 1",
          "override 1.3.6.1.2.1.99.1.1.1.4.100301201 integer 258",
          "override 1.3.6.1.2.1.99.1.1.1.5.100301201 integer 1"};
}

class SnmpdV3 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!hasSnmpd()) return;
    agent_ = new Agent();
    auto lines = aristaOverrides();
    lines.push_back("createUser opsuser SHA-256 \"authpass123\" AES \"privpass456\"");
    lines.push_back("createUser shauser SHA \"authpass123\"");
    lines.push_back("createUser nobodyuser");
    lines.push_back("rouser opsuser priv");
    lines.push_back("rouser shauser auth");
    lines.push_back("rouser nobodyuser noauth");
    lines.push_back("rocommunity public 127.0.0.1");
    bool ok = agent_->startSnmpd(lines) && agent_->waitReady("-v2c -c public");
    if (!ok) {
      delete agent_;
      agent_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete agent_;
    agent_ = nullptr;
  }
  void SetUp() override {
    if (!agent_) GTEST_SKIP() << "snmpd not installed or did not start";
  }
  PollResult pollV3(const std::string& extra) {
    boost::asio::io_context io;
    std::vector<std::unique_ptr<Driver>> drivers;
    drivers.push_back(makeDriver(io, "v3", "address: 127.0.0.1\nport: " + std::to_string(agent_->port()) +
                                               "\nversion: 3\nprofile: arista-eos\ntimeout: 1s\nretries: 0\n" + extra));
    if (!drivers[0]) return {};
    return pollAll(io, drivers)[0];
  }
  static Agent* agent_;
};
Agent* SnmpdV3::agent_ = nullptr;

double temperature(const PollResult& r) {
  const Sample* s = port(r, "Ethernet1");
  return s && s->module[ModuleMetric::kTemperatureCelsius] ? *s->module[ModuleMetric::kTemperatureCelsius] : -1;
}

TEST_F(SnmpdV3, AuthPrivSha256Aes) {
  auto r = pollV3("user: opsuser\nsecurity_level: authPriv\nauth_protocol: SHA-256\nauth_password: authpass123\n"
                  "priv_protocol: AES-128\npriv_password: privpass456\n");
  EXPECT_DOUBLE_EQ(temperature(r), 25.8) << errorsOf(r);
}

TEST_F(SnmpdV3, AuthNoPrivShaWithPasswordFromFile) {
  std::string file = testing::makeTempDir() + "/auth";
  std::ofstream(file) << "authpass123\n";
  auto r = pollV3("user: shauser\nsecurity_level: authNoPriv\nauth_protocol: SHA\nauth_password_file: " + file + "\n");
  EXPECT_DOUBLE_EQ(temperature(r), 25.8) << errorsOf(r);
  std::filesystem::remove_all(std::filesystem::path(file).parent_path());
}

TEST_F(SnmpdV3, NoAuthNoPriv) {
  auto r = pollV3("user: nobodyuser\nsecurity_level: noAuthNoPriv\n");
  EXPECT_DOUBLE_EQ(temperature(r), 25.8) << errorsOf(r);
}

TEST_F(SnmpdV3, WrongPasswordIsAClearErrorWithoutTheSecret) {
  auto r = pollV3("user: opsuser\nsecurity_level: authPriv\nauth_protocol: SHA-256\nauth_password: WRONGpass99\n"
                  "priv_password: privpass456\n");
  ASSERT_TRUE(r.failed());
  auto text = errorsOf(r);
  EXPECT_TRUE(text.find("wrong digest") != std::string::npos || text.find("authentication") != std::string::npos ||
              text.find("timeout") != std::string::npos)
      << text;
  EXPECT_EQ(text.find("WRONGpass99"), std::string::npos);
  EXPECT_EQ(text.find("privpass456"), std::string::npos);
}

TEST_F(SnmpdV3, WrongEngineIdIsAClearError) {
  auto r = pollV3("user: opsuser\nsecurity_level: authPriv\nauth_protocol: SHA-256\nauth_password: authpass123\n"
                  "priv_password: privpass456\nengine_id: 80001f8880aabbccddeeff0011\n");
  ASSERT_TRUE(r.failed());
  auto text = errorsOf(r);
  EXPECT_TRUE(text.find("engine") != std::string::npos || text.find("timeout") != std::string::npos) << text;
}

TEST_F(SnmpdV3, UnknownUser) {
  auto r = pollV3("user: ghost\nsecurity_level: authNoPriv\nauth_password: authpass123\n");
  ASSERT_TRUE(r.failed());
  EXPECT_NE(errorsOf(r).find("unknown user"), std::string::npos) << errorsOf(r);
}

TEST_F(SnmpdV3, AgentKilledMidWayThenPollsFailAndOthersAreUnaffected) {
  // A second agent dies; the first keeps answering on the same io_context.
  Agent victim;
  auto lines = aristaOverrides();
  lines.push_back("rocommunity public 127.0.0.1");
  ASSERT_TRUE(victim.startSnmpd(lines));
  ASSERT_TRUE(victim.waitReady("-v2c -c public"));
  boost::asio::io_context io;
  std::vector<std::unique_ptr<Driver>> drivers;
  drivers.push_back(makeDriver(io, "alive", "address: 127.0.0.1\nport: " + std::to_string(agent_->port()) +
                                                "\ncommunity: public\nprofile: arista-eos\n"));
  drivers.push_back(makeDriver(io, "victim", "address: 127.0.0.1\nport: " + std::to_string(victim.port()) +
                                                 "\ncommunity: public\nprofile: arista-eos\ntimeout: 300ms\nretries: 1\n"));
  auto first = pollAll(io, drivers);
  EXPECT_DOUBLE_EQ(temperature(first[1]), 25.8) << errorsOf(first[1]);
  victim.stop();
  auto second = pollAll(io, drivers);
  EXPECT_DOUBLE_EQ(temperature(second[0]), 25.8) << errorsOf(second[0]);
  EXPECT_TRUE(second[1].failed());
}

// ---- Real switch walks (LibreNMS fixtures) served by snmpsim ----

struct CorpusCase {
  std::string file;
  // Port and lane of a LibreNMS sensor, parsed from its description.
  std::function<std::pair<std::string, int>(const std::string&)> locate;
};

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s) {
    if (c == ' ') {
      if (!w.empty()) out.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

TEST(SnmpCorpus, RealWalksDecodeToLibreNmsValues) {
  std::string dir = std::string(OPTICSD_SHARED_DATA_DIR) + "/snmp";
  if (const char* env = std::getenv("OPTICSD_SHARED_DATA_DIR")) dir = std::string(env) + "/snmp";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " absent";
  if (!hasSnmpsim()) GTEST_SKIP() << "snmpsimd not installed";
  std::vector<CorpusCase> cases = {
      {"arista-eos-dcs7050s52", [](const std::string& d) { return std::make_pair(words(d).back(), 1); }},
      {"dell-sonic-e3248p",
       [](const std::string& d) {
         auto p = words(d).back();
         auto slash = p.find('/');
         if (slash == std::string::npos) return std::make_pair(p, 1);
         return std::make_pair(p.substr(0, slash), std::atoi(p.c_str() + slash + 1));
       }},
      {"cisco-nexus3064pq",
       [](const std::string& d) {
         auto w = words(d);
         return std::make_pair(w[0], w.size() > 2 && w[1] == "Lane" ? std::atoi(w[2].c_str()) : 1);
       }},
      {"juniper-mx5t",
       [](const std::string& d) {
         auto w = words(d);
         return std::make_pair(w[0], w.size() > 2 && w[1] == "lane" ? std::atoi(w[2].c_str()) + 1 : 1);
       }},
  };
  std::vector<std::string> files;
  for (const auto& c : cases) {
    if (std::filesystem::exists(dir + "/" + c.file + ".snmprec")) files.push_back(dir + "/" + c.file + ".snmprec");
  }
  if (files.empty()) GTEST_SKIP() << "no corpus files";
  Agent agent;
  ASSERT_TRUE(agent.startSnmpsim(files));
  ASSERT_TRUE(agent.waitReady("-v2c -c " + std::filesystem::path(files[0]).stem().string(), 60000));

  for (const auto& c : cases) {
    std::string json_path = dir + "/" + c.file + ".expected.json";
    if (!std::filesystem::exists(json_path)) continue;
    SCOPED_TRACE(c.file);
    boost::asio::io_context io;
    std::vector<std::unique_ptr<Driver>> drivers;
    drivers.push_back(makeDriver(io, c.file, "address: 127.0.0.1\nport: " + std::to_string(agent.port()) +
                                                 "\ncommunity: " + c.file + "\ntimeout: 10s\nretries: 0\n"));
    auto r = pollAll(io, drivers)[0];
    ASSERT_FALSE(r.samples.empty()) << errorsOf(r);
    auto expected = nlohmann::json::parse(std::ifstream(json_path));
    int compared = 0;
    for (const auto& s : expected["sensors"]) {
      std::string cls = s["sensor_class"];
      std::string descr = s["sensor_descr"];
      if (s["sensor_current"].is_null()) continue;
      double want = s["sensor_current"];
      // Junos gives power and bias twice: jnxDomCurrentTable (module) and
      // jnxDomModuleLaneTable (per lane); they can differ by 0.01-0.02 and
      // opticsd keeps the per-lane value, compared through the lane entries.
      std::string oid_text = s["sensor_oid"];
      if (oid_text.find(".2636.3.60.1.1.1.1.") != std::string::npos && cls != "temperature" && cls != "voltage") {
        continue;
      }
      auto [port_name, lane] = c.locate(descr);
      const Sample* sample = port(r, port_name);
      ASSERT_NE(sample, nullptr) << descr << " -> port " << port_name;
      auto laneValue = [&](LaneMetric m) -> std::optional<double> {
        for (const auto& l : sample->lanes) {
          if (l.number == lane) return l.values[m];
        }
        return std::nullopt;
      };
      bool rx = descr.find("Rx") != std::string::npos || descr.find("RX") != std::string::npos ||
                descr.find("Receive") != std::string::npos;
      std::optional<double> got;
      double tolerance = 0.006;
      if (cls == "temperature") {
        got = sample->module[ModuleMetric::kTemperatureCelsius];
      } else if (cls == "voltage") {
        got = sample->module[ModuleMetric::kSupplyVoltageVolts];
      } else if (cls == "current") {
        auto ma = laneValue(LaneMetric::kTxBiasMilliamperes);
        if (ma) got = *ma / 1000.0;  // LibreNMS: amperes
        tolerance = 1e-6;
      } else if (cls == "dbm" || cls == "power") {
        got = laneValue(rx ? LaneMetric::kRxPowerDbm : LaneMetric::kTxPowerDbm);
        if (cls == "power") want = want > 0 ? 10.0 * std::log10(want * 1000.0) : -40.0;  // caveat 3: dell "power" is W
        // Caveat 2: LibreNMS maps no light to 0 dBm on NX-OS; opticsd says -40 dBm + no-light.
        if (want == 0.0 && got && *got == -40.0) want = -40.0;
      } else {
        continue;
      }
      ASSERT_TRUE(got) << descr << " (" << cls << ") not decoded";
      EXPECT_NEAR(*got, want, tolerance) << descr << " (" << cls << ")";
      ++compared;
    }
    EXPECT_GT(compared, 0);
    std::cout << c.file << ": compared " << compared << " sensors, " << r.samples.size() << " samples\n";
  }
}

}  // namespace
}  // namespace opticsd::snmp
