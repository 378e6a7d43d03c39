#pragma once
// A backtest report as text for an operator (--format table) and as JSON for
// dashboards (--format json; the fields are listed in README.md).

#include <string>

#include "daemon/backtest/backtest.hpp"

namespace opticsd {

std::string formatBacktestTable(const BacktestReport& report);
std::string formatBacktestJson(const BacktestReport& report);

}  // namespace opticsd
