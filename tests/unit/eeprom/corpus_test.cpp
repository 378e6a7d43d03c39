// Real module dumps under OPTICSD_SHARED_DATA_DIR/eeprom (*.hex) decoded and
// compared with the values independent decoders published beside them:
// *.oracle.json (SONiC sonic_xcvr) and *.expected.txt (go-ethtool assertions).
// Skips when the data directory is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

namespace fs = std::filesystem;

fs::path dataDir() {
  if (const char* env = std::getenv("OPTICSD_SHARED_DATA_DIR")) return fs::path(env) / "eeprom";
  return fs::path(OPTICSD_SHARED_DATA_DIR) / "eeprom";
}

std::vector<fs::path> dumps() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dataDir(), ec)) {
    if (entry.path().extension() == ".hex") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Sample decodePath(const fs::path& path) {
  const auto bytes = readFile(path.string());
  auto memory = parseDumpFile(bytes);
  EXPECT_TRUE(memory) << path;
  Sample s;
  if (memory) decodeModule(*memory, s);
  return s;
}

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// A SONiC value: number, "-inf" (0 mW), or "N/A" (not reported). SONiC rounds mW to 3 decimals
// before taking dBm, so dBm comparisons allow 5e-3 dB.
void expectValue(const nlohmann::json& want, const std::optional<double>& got, double tolerance,
                 const std::string& what) {
  if (want.is_string() && want.get<std::string>() == "N/A") {
    EXPECT_FALSE(got) << what;
  } else if (want.is_string() && want.get<std::string>() == "-inf") {
    ASSERT_TRUE(got) << what;
    EXPECT_DOUBLE_EQ(*got, -40.0) << what << " (opticsd floors 0 mW at -40 dBm)";
  } else if (want.is_number()) {
    ASSERT_TRUE(got) << what;
    EXPECT_NEAR(*got, want.get<double>(), tolerance) << what;
  }
}

TEST(EepromCorpus, MatchesSonicOracle) {
  const auto files = dumps();
  if (files.empty()) GTEST_SKIP() << "no real dumps under " << dataDir();
  int compared = 0;
  for (const auto& hex : files) {
    fs::path oracle_path = hex;
    oracle_path.replace_extension(".oracle.json");
    if (!fs::exists(oracle_path)) continue;
    SCOPED_TRACE(hex.filename().string());
    std::ifstream in(oracle_path);
    const auto oracle = nlohmann::json::parse(in);
    const Sample s = decodePath(hex);

    const auto& id = oracle.at("identity");
    EXPECT_EQ(s.identity().vendor, rtrim(id.at("manufacturer")));
    EXPECT_EQ(s.identity().part_number, rtrim(id.at("model")));
    EXPECT_EQ(s.identity().serial, rtrim(id.at("serial")));
    EXPECT_EQ(s.identity().revision, rtrim(id.at("vendor_rev")));
    EXPECT_EQ(s.identity().connector, id.at("connector").get<std::string>());
    EXPECT_EQ(s.identity().date_code, rtrim(id.at("vendor_date")));
    std::string oui = id.at("vendor_oui");
    std::replace(oui.begin(), oui.end(), '-', ':');
    EXPECT_EQ(s.identity().vendor_oui, oui);
    ++compared;

    const auto& dom = oracle.at("dom");
    expectValue(dom.at("temperature_c"), s.module[ModuleMetric::kTemperatureCelsius], 1e-3, "temperature");
    expectValue(dom.at("vcc_v"), s.module[ModuleMetric::kSupplyVoltageVolts], 1e-3, "vcc");
    for (const auto& l : dom.at("lanes")) {
      const std::size_t n = l.at("lane");
      ASSERT_LE(n, s.lanes.size());
      const auto& values = s.lanes[n - 1].values;
      const std::string lane = "lane " + std::to_string(n);
      expectValue(l.at("tx_bias_ma"), values[LaneMetric::kTxBiasMilliamperes], 1e-3, lane + " bias");
      expectValue(l.at("tx_power_dbm"), values[LaneMetric::kTxPowerDbm], 5e-3, lane + " tx power");
      expectValue(l.at("rx_power_dbm"), values[LaneMetric::kRxPowerDbm], 5e-3, lane + " rx power");
    }
    const auto& t = oracle.at("thresholds");
    auto th = [&](const std::optional<Thresholds>& got, const char* prefix, double tol) {
      const std::string p = prefix;
      for (const auto& [suffix, member] :
           {std::pair{"highalarm", &Thresholds::high_alarm}, std::pair{"lowalarm", &Thresholds::low_alarm},
            std::pair{"highwarning", &Thresholds::high_warning}, std::pair{"lowwarning", &Thresholds::low_warning}}) {
        if (!t.contains(p + suffix)) continue;
        expectValue(t.at(p + suffix), got ? (*got).*member : std::nullopt, tol, p + suffix);
      }
    };
    th(s.thresholds(ModuleMetric::kTemperatureCelsius), "temp", 1e-3);
    th(s.thresholds(ModuleMetric::kSupplyVoltageVolts), "vcc", 1e-3);
    th(s.thresholds(LaneMetric::kTxBiasMilliamperes), "txbias", 1e-3);
    th(s.thresholds(LaneMetric::kTxPowerDbm), "txpower", 5e-3);
    th(s.thresholds(LaneMetric::kRxPowerDbm), "rxpower", 5e-3);
  }
  if (compared == 0) GTEST_SKIP() << "no *.oracle.json beside the dumps";
}

// go-ethtool assertions, "name = value   [accessor]"; the keys opticsd can answer.
TEST(EepromCorpus, MatchesGoEthtoolAssertions) {
  const auto files = dumps();
  if (files.empty()) GTEST_SKIP() << "no real dumps under " << dataDir();
  int checked = 0;
  for (const auto& hex : files) {
    fs::path expected_path = hex;
    expected_path.replace_extension(".expected.txt");
    if (!fs::exists(expected_path)) continue;
    SCOPED_TRACE(hex.filename().string());
    const Sample s = decodePath(hex);
    std::ifstream in(expected_path);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto eq = line.find(" = ");
      if (eq == std::string::npos) continue;
      const std::string key = line.substr(0, eq);
      std::string value = line.substr(eq + 3);
      value = value.substr(0, value.find("   ["));
      if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
      const double number = std::atof(value.c_str());
      const auto& bias = s.thresholds(LaneMetric::kTxBiasMilliamperes);
      const auto& rx = s.thresholds(LaneMetric::kRxPowerDbm);
      auto dbm = [](double mw) { return 10 * std::log10(mw); };
      bool known = true;
      if (key == "eeprom.GetVendorName") {
        EXPECT_EQ(s.identity().vendor, value);
      } else if (key == "eeprom.GetVendorPN") {
        EXPECT_EQ(s.identity().part_number, value);
      } else if (key == "eeprom.GetVendorRev") {
        EXPECT_EQ(s.identity().revision, value);
      } else if (key == "eeprom.GetVendorSN") {
        EXPECT_EQ(s.identity().serial, value);
      } else if (key == "eeprom.GetVendorOUI().String()") {
        std::string lower = value;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        EXPECT_EQ(s.identity().vendor_oui, lower);
      } else if (key == "eeprom.GetWavelength") {
        EXPECT_NEAR(s.identity().wavelength_nm.value_or(-1), number, 1e-6);
      } else if (key == "eeprom.Wavelength") {
        EXPECT_FALSE(s.identity().wavelength_nm);  // 0: copper, no wavelength
      } else if (key == "eeprom.GetConnectorType().String") {
        EXPECT_EQ(s.identity().connector, value);
      } else if (key == "eeprom.GetIdentifier().String") {
        EXPECT_EQ(s.identity().form_factor, value);
      } else if (key == "eeprom.GetPowerClass().GetMaxPower") {
        EXPECT_DOUBLE_EQ(s.identity().max_power_watts.value_or(-1), number);
      } else if (key == "eeprom.GetDateCode (YYMMDD)") {
        EXPECT_EQ(s.identity().date_code,
                  "20" + value.substr(0, 2) + "-" + value.substr(2, 2) + "-" + value.substr(4, 2));
      } else if (key == "len(lasers)") {
        EXPECT_EQ(s.lanes.size(), static_cast<std::size_t>(number));
      } else if (key == "eeprom.SupportsMonitoring") {
        EXPECT_EQ(s.identity().has_diagnostics, value == "true");
      } else if (key == "eeprom.SpecificationCompliance.IsNonOpticalImplementation") {
        EXPECT_EQ(s.identity().passive_copper, value == "true");
      } else if (key == "moduleTemp.GetValue formatted %.2f") {
        EXPECT_NEAR(*s.module[ModuleMetric::kTemperatureCelsius], number, 0.005);
      } else if (key == "moduleVoltage.GetValue formatted %.2f") {
        EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], number, 0.005);
      } else if (key == "bias.GetValue" || key == "lane0 bias.GetValue (mA)") {
        EXPECT_NEAR(lane(s, 1, LaneMetric::kTxBiasMilliamperes), number, 1e-6);
      } else if (key == "rxPower.GetValue") {
        EXPECT_EQ(number, 0.0);
        EXPECT_EQ(s.lanes.at(0).status.rx_no_light, true);
      } else if (key == "lane0 bias thresholds.GetHighAlarm") {
        EXPECT_NEAR(*bias->high_alarm, number, 1e-6);
      } else if (key == "lane0 bias thresholds.GetLowAlarm") {
        EXPECT_NEAR(*bias->low_alarm, number, 1e-6);
      } else if (key == "lane0 bias thresholds.GetHighWarning") {
        EXPECT_NEAR(*bias->high_warning, number, 1e-6);
      } else if (key == "lane0 bias thresholds.GetLowWarning") {
        EXPECT_NEAR(*bias->low_warning, number, 1e-6);
      } else if (key == "rxPower thresholds.GetHighWarning") {
        EXPECT_NEAR(*rx->high_warning, dbm(number), 1e-3);
      } else if (key == "rxPower thresholds.GetLowAlarm") {
        EXPECT_NEAR(*rx->low_alarm, dbm(number), 1e-3);
      } else if (key == "rxPower thresholds.GetLowWarning") {
        EXPECT_NEAR(*rx->low_warning, dbm(number), 1e-3);
      } else {
        known = false;  // encoding, signalling rate, copper attenuation ...: not in the Sample
      }
      if (known) ++checked;
    }
  }
  if (checked == 0) GTEST_SKIP() << "no *.expected.txt with keys opticsd decodes";
  RecordProperty("assertions_checked", checked);
}

}  // namespace
}  // namespace opticsd::eeprom::test
