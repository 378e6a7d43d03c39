#include "daemon/rules/findings_format.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "daemon/output/time_text.hpp"

namespace opticsd {
namespace {

std::string orDash(const std::string& s) { return s.empty() ? "-" : s; }

}  // namespace

std::string formatTextTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) width[i] = header[i].size();
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::string out;
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      out += cells[i];
      if (i + 1 < cells.size()) out += std::string(width[i] - cells[i].size() + 2, ' ');
    }
    out += '\n';
  };
  line(header);
  for (const auto& r : rows) line(r);
  return out;
}

std::string formatFindingsTable(const std::vector<Finding>& findings) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : findings) {
    rows.push_back({formatRfc3339Ms(f.start_ms), f.end_ms ? formatRfc3339Ms(*f.end_ms) : "active", f.target, f.port,
                    f.lane > 0 ? std::to_string(f.lane) : "-", f.shadow ? f.rule + " (shadow)" : f.rule,
                    std::string(toString(f.severity)), orDash(f.detail)});
  }
  return formatTextTable({"START", "END", "TARGET", "PORT", "LANE", "RULE", "SEVERITY", "DETAIL"}, rows);
}

std::string formatFindingsJson(const std::vector<Finding>& findings) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : findings) {
    nlohmann::json j{{"target", f.target},
                     {"port", f.port},
                     {"lane", f.lane > 0 ? nlohmann::json(f.lane) : nlohmann::json(nullptr)},
                     {"rule", f.rule},
                     {"mode", f.shadow ? "shadow" : "live"},
                     {"severity", std::string(toString(f.severity))},
                     {"start", formatRfc3339Ms(f.start_ms)},
                     {"start_ms", f.start_ms},
                     {"end", f.end_ms ? nlohmann::json(formatRfc3339Ms(*f.end_ms)) : nlohmann::json(nullptr)},
                     {"end_ms", f.end_ms ? nlohmann::json(*f.end_ms) : nlohmann::json(nullptr)},
                     {"active", f.active()},
                     {"value", f.value ? nlohmann::json(*f.value) : nlohmann::json(nullptr)},
                     {"detail", f.detail}};
    out.push_back(std::move(j));
  }
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string formatSuspectsTable(const std::vector<Suspect>& suspects) {
  std::vector<std::vector<std::string>> rows;
  int rank = 0;
  for (const auto& s : suspects) {
    char score[16];
    std::snprintf(score, sizeof(score), "%.2f", s.score);
    rows.push_back({std::to_string(++rank), score, s.target, s.port, orDash(s.endpoint.host), orDash(s.endpoint.nic),
                    orDash(s.endpoint.gpu), orDash(s.endpoint.rail), s.reason});
  }
  return formatTextTable({"RANK", "SCORE", "TARGET", "PORT", "HOST", "NIC", "GPU", "RAIL", "REASON"}, rows);
}

std::string formatSuspectsJson(const std::vector<Suspect>& suspects) {
  nlohmann::json out = nlohmann::json::array();
  int rank = 0;
  for (const auto& s : suspects) {
    const auto opt = [](const std::string& v) { return v.empty() ? nlohmann::json(nullptr) : nlohmann::json(v); };
    out.push_back({{"rank", ++rank},
                   {"score", s.score},
                   {"target", s.target},
                   {"port", s.port},
                   {"host", opt(s.endpoint.host)},
                   {"nic", opt(s.endpoint.nic)},
                   {"gpu", opt(s.endpoint.gpu)},
                   {"rail", opt(s.endpoint.rail)},
                   {"reason", s.reason},
                   {"updated", formatRfc3339Ms(s.updated_ms)}});
  }
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace opticsd
