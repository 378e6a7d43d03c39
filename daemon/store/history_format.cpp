#include "daemon/store/history_format.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "daemon/output/time_text.hpp"

namespace opticsd {
namespace {

// Shortest text that reads back as the same double.
std::string numberText(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "nan";
  return std::string(buf, end);
}

std::string valueText(const HistoryValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return numberText(*d);
  return {};
}

bool applies(const HistoryColumn& c, const HistoryRow& r) { return r.lane ? c.lane : c.module; }

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Result<HistoryFormat> parseHistoryFormat(std::string_view name) {
  if (name == "table") return HistoryFormat::kTable;
  if (name == "csv") return HistoryFormat::kCsv;
  if (name == "json") return HistoryFormat::kJson;
  return fail("unknown format '" + std::string(name) + "' (expected table, csv or json)");
}

std::string formatHistoryTable(const HistoryResult& result) {
  std::string out = "target " + result.target + " port " + result.port + "\n";
  for (const auto& id : result.identities) {
    out += "module";
    for (const auto& [key, value] : id.fields) {
      if (key == "vendor" || key == "part_number" || key == "serial" || key == "media" || key == "firmware_version") {
        out += " " + key + "=" + value;
      }
    }
    out += " seen " + formatRfc3339Ms(id.first_seen_ms) + " .. " + formatRfc3339Ms(id.last_seen_ms) + "\n";
  }
  if (result.rows.empty()) return out + "no samples in the selected range\n";

  std::vector<std::size_t> shown;
  for (std::size_t c = 0; c < result.columns.size(); ++c) {
    const bool any = std::any_of(result.rows.begin(), result.rows.end(), [&](const HistoryRow& r) {
      return !std::holds_alternative<std::monostate>(r.values[c]);
    });
    if (any) shown.push_back(c);
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header{"time", "lane"};
  for (auto c : shown) header.push_back(result.columns[c].name);
  cells.push_back(header);
  for (const auto& r : result.rows) {
    std::vector<std::string> line{formatRfc3339Ms(r.ts_ms) + (r.heartbeat ? " ~" : ""),
                                  r.lane ? std::to_string(*r.lane) : "-"};
    for (auto c : shown) {
      if (!applies(result.columns[c], r)) {
        line.emplace_back("");
      } else {
        std::string text = valueText(r.values[c]);
        line.push_back(text.empty() ? "-" : text);
      }
    }
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> width(header.size(), 0);
  for (const auto& line : cells) {
    for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  }
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (i > 0) text += "  ";
      // Text left, numbers right, as terminals read best.
      const std::size_t pad = width[i] - line[i].size();
      if (i < 2) {
        text += line[i] + std::string(pad, ' ');
      } else {
        text += std::string(pad, ' ') + line[i];
      }
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  if (std::any_of(result.rows.begin(), result.rows.end(), [](const HistoryRow& r) { return r.heartbeat; })) {
    out += "~ heartbeat: nothing moved beyond its deadband since the row before\n";
  }
  return out;
}

std::string formatHistoryCsv(const HistoryResult& result) {
  std::string out = "time,ts_ms,target,port,lane";
  for (const auto& c : result.columns) out += "," + csvField(c.name);
  out += "\n";
  const std::string target = csvField(result.target);
  const std::string port = csvField(result.port);
  for (const auto& r : result.rows) {
    out += formatRfc3339Ms(r.ts_ms) + "," + std::to_string(r.ts_ms) + "," + target + "," + port + "," +
           (r.lane ? std::to_string(*r.lane) : "");
    for (std::size_t c = 0; c < result.columns.size(); ++c) out += "," + valueText(r.values[c]);
    out += "\n";
  }
  return out;
}

std::string formatHistoryJson(const HistoryResult& result) {
  nlohmann::ordered_json doc;
  doc["target"] = result.target;
  doc["port"] = result.port;
  auto& identities = doc["identities"] = nlohmann::ordered_json::array();
  for (const auto& id : result.identities) {
    nlohmann::ordered_json j;
    for (const auto& [key, value] : id.fields) j[key] = value;
    j["first_seen"] = formatRfc3339Ms(id.first_seen_ms);
    j["last_seen"] = formatRfc3339Ms(id.last_seen_ms);
    identities.push_back(std::move(j));
  }
  auto& samples = doc["samples"] = nlohmann::ordered_json::array();
  for (const auto& r : result.rows) {
    nlohmann::ordered_json j;
    j["time"] = formatRfc3339Ms(r.ts_ms);
    j["ts_ms"] = r.ts_ms;
    j["lane"] = r.lane ? nlohmann::ordered_json(*r.lane) : nlohmann::ordered_json(nullptr);
    if (r.heartbeat) j["heartbeat"] = true;
    for (std::size_t c = 0; c < result.columns.size(); ++c) {
      if (!applies(result.columns[c], r)) continue;
      const auto& v = r.values[c];
      if (const auto* i = std::get_if<std::int64_t>(&v)) {
        j[result.columns[c].name] = *i;
      } else if (const auto* d = std::get_if<double>(&v)) {
        j[result.columns[c].name] = *d;
      } else {
        j[result.columns[c].name] = nullptr;
      }
    }
    samples.push_back(std::move(j));
  }
  // Invalid UTF-8 from a module's vendor field is replaced, never fatal.
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string formatHistory(const HistoryResult& result, HistoryFormat format) {
  switch (format) {
    case HistoryFormat::kCsv:
      return formatHistoryCsv(result);
    case HistoryFormat::kJson:
      return formatHistoryJson(result);
    case HistoryFormat::kTable:
      break;
  }
  return formatHistoryTable(result);
}

}  // namespace opticsd
