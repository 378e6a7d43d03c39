#pragma once
// Renders a HistoryResult for `opticsd history --format table|csv|json`.
// Pure functions of the result. "Not reported" is "-" in tables, an empty
// field in CSV and null in JSON; never 0.

#include <string>
#include <string_view>

#include "daemon/store/history_query.hpp"
#include "drivers/result.hpp"

namespace opticsd {

enum class HistoryFormat { kTable, kCsv, kJson };
Result<HistoryFormat> parseHistoryFormat(std::string_view name);

// Aligned columns for a terminal; columns with no value in any row are left out.
std::string formatHistoryTable(const HistoryResult& result);
// RFC 4180 with a header row; every column of the result, in a fixed order.
std::string formatHistoryCsv(const HistoryResult& result);
// {"target", "port", "identities": [...], "samples": [{"time", "ts_ms", "lane", <column>: value|null}]}
std::string formatHistoryJson(const HistoryResult& result);

std::string formatHistory(const HistoryResult& result, HistoryFormat format);

}  // namespace opticsd
