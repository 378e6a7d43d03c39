#pragma once
// Row mapping of the rules engine's tables (schemas/migrations/0002_findings.sql
// and 0003_bias_baselines.sql) for the one history writer: a finding is upserted
// by (target, port, lane, rule, start_ms), a target's suspects are replaced as a
// whole, a port's bias baseline replaces the previous one. Statements are
// prepared once per connection; write() runs inside the writer's transaction.

#include <vector>

#include "daemon/store/finding_event.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "drivers/result.hpp"

namespace opticsd {

class FindingRows {
 public:
  static Result<FindingRows> prepare(SqliteDb& db);

  Result<void> write(SqliteDb& db, const FindingEvent& event);

 private:
  Result<void> writeFinding(SqliteDb& db, const Finding& finding);
  Result<void> writeSuspects(SqliteDb& db, const SuspectsUpdate& update);
  Result<void> writeBaseline(SqliteDb& db, const BiasBaseline& baseline);

  SqliteStatement upsert_finding_;
  SqliteStatement delete_suspects_;
  SqliteStatement insert_suspect_;
  SqliteStatement delete_baseline_;
  SqliteStatement insert_baseline_;
};

// Every port's stored Tx bias baseline, in (target, port) order.
// Every baseline, or one port's (target non-empty).
Result<std::vector<BiasBaseline>> readBiasBaselines(SqliteDb& db, const std::string& target = {},
                                                    const std::string& port = {});

}  // namespace opticsd
