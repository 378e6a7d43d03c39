#include "daemon/store/history_format.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace opticsd {
namespace {

// One module row and one lane row at 2024-05-01T12:00:00Z, with NULLs.
HistoryResult sample() {
  HistoryResult r;
  r.target = "leaf,1";
  r.port = "Ethernet1";
  r.columns = {{"temperature_celsius", true, false},
               {"rx_power_dbm", false, true},
               {"rx_los", false, true},
               {"ltp_decibels", false, true}};
  const std::int64_t t = 1714564800000;
  r.rows.push_back({t, std::nullopt, {HistoryValue(41.5), {}, {}, {}}});
  r.rows.push_back({t + 250, 3, {{}, HistoryValue(-40.0), HistoryValue(std::int64_t{1}), {}}});
  IdentityRow id;
  id.fields = {{"vendor", "ACME"}, {"serial", "SN1"}};
  id.first_seen_ms = t;
  id.last_seen_ms = t + 250;
  r.identities.push_back(id);
  return r;
}

TEST(HistoryFormatTest, ParsesFormatNames) {
  EXPECT_EQ(*parseHistoryFormat("csv"), HistoryFormat::kCsv);
  EXPECT_EQ(*parseHistoryFormat("json"), HistoryFormat::kJson);
  EXPECT_EQ(*parseHistoryFormat("table"), HistoryFormat::kTable);
  EXPECT_FALSE(parseHistoryFormat("xml"));
}

TEST(HistoryFormatTest, CsvHasEmptyFieldsForNullAndQuotesText) {
  const std::string csv = formatHistoryCsv(sample());
  EXPECT_EQ(csv,
            "time,ts_ms,target,port,lane,temperature_celsius,rx_power_dbm,rx_los,ltp_decibels\n"
            "2024-05-01T12:00:00.000Z,1714564800000,\"leaf,1\",Ethernet1,,41.5,,,\n"
            "2024-05-01T12:00:00.250Z,1714564800250,\"leaf,1\",Ethernet1,3,,-40,1,\n");
}

TEST(HistoryFormatTest, JsonHasNullForNotReportedAndOnlyApplicableColumns) {
  const auto doc = nlohmann::json::parse(formatHistoryJson(sample()));
  EXPECT_EQ(doc["target"], "leaf,1");
  ASSERT_EQ(doc["samples"].size(), 2u);
  const auto& m = doc["samples"][0];
  EXPECT_TRUE(m["lane"].is_null());
  EXPECT_DOUBLE_EQ(m["temperature_celsius"].get<double>(), 41.5);
  EXPECT_FALSE(m.contains("rx_power_dbm"));
  const auto& l = doc["samples"][1];
  EXPECT_EQ(l["lane"], 3);
  EXPECT_EQ(l["time"], "2024-05-01T12:00:00.250Z");
  EXPECT_DOUBLE_EQ(l["rx_power_dbm"].get<double>(), -40.0);
  EXPECT_EQ(l["rx_los"], 1);
  ASSERT_TRUE(l.contains("ltp_decibels"));
  EXPECT_TRUE(l["ltp_decibels"].is_null());
  EXPECT_FALSE(l.contains("temperature_celsius"));
  EXPECT_EQ(doc["identities"][0]["serial"], "SN1");
  EXPECT_EQ(doc["identities"][0]["last_seen"], "2024-05-01T12:00:00.250Z");
}

TEST(HistoryFormatTest, JsonSurvivesInvalidUtf8) {
  HistoryResult r = sample();
  r.identities[0].fields.push_back({"part_number", std::string("AB\xff\xfe")});
  nlohmann::json doc;
  EXPECT_NO_THROW(doc = nlohmann::json::parse(formatHistoryJson(r)));
  EXPECT_EQ(doc["identities"][0]["part_number"].get<std::string>().substr(0, 2), "AB");
}

TEST(HistoryFormatTest, TableShowsDashForNullAndHidesEmptyColumns) {
  const std::string table = formatHistoryTable(sample());
  EXPECT_NE(table.find("target leaf,1 port Ethernet1"), std::string::npos) << table;
  EXPECT_NE(table.find("vendor=ACME serial=SN1"), std::string::npos) << table;
  EXPECT_EQ(table.find("ltp_decibels"), std::string::npos) << table;  // no value anywhere
  EXPECT_NE(table.find("time                      lane  temperature_celsius  rx_power_dbm  rx_los"), std::string::npos)
      << table;
  EXPECT_NE(table.find("2024-05-01T12:00:00.000Z  -                    41.5"), std::string::npos) << table;
  EXPECT_NE(table.find("2024-05-01T12:00:00.250Z  3                                   -40       1"), std::string::npos)
      << table;
}

TEST(HistoryFormatTest, TableSaysWhenThereIsNothing) {
  HistoryResult r = sample();
  r.rows.clear();
  EXPECT_NE(formatHistoryTable(r).find("no samples"), std::string::npos);
  EXPECT_EQ(formatHistoryCsv(r), "time,ts_ms,target,port,lane,temperature_celsius,rx_power_dbm,rx_los,ltp_decibels\n");
}

}  // namespace
}  // namespace opticsd
