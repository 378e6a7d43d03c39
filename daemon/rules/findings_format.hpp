#pragma once
// Renders findings and suspects for `opticsd findings` and `opticsd suspects`
// as aligned tables or JSON. Pure functions.

#include <string>
#include <vector>

#include "daemon/rules/finding.hpp"
#include "daemon/rules/suspect.hpp"

namespace opticsd {

std::string formatFindingsTable(const std::vector<Finding>& findings);
std::string formatFindingsJson(const std::vector<Finding>& findings);
std::string formatSuspectsTable(const std::vector<Suspect>& suspects);
std::string formatSuspectsJson(const std::vector<Suspect>& suspects);

// Columns padded to their widest cell, two spaces apart (the CLI's tables).
std::string formatTextTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

}  // namespace opticsd
