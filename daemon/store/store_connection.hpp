#pragma once
// The writer's connection to the history file and its lifecycle: open (WAL,
// NORMAL sync, migrations, metric codes, the conversion of an older layout),
// the checks that the file under the path is still the one it writes (not
// deleted, replaced or overwritten), and the size cap. Statements and row
// caches die with it. Writer thread only.

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/store/finding_rows.hpp"
#include "daemon/store/sample_rows.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/store_options.hpp"
#include "drivers/result.hpp"

namespace opticsd {

struct StoreConnection {
  SqliteDb db;
  dev_t dev = 0;
  ino_t ino = 0;
  SqliteStatement begin, commit, rollback;
  std::optional<SampleRows> samples;
  std::optional<FindingRows> findings;
  int last_error_code = SQLITE_OK;  // of the last failed statement, to judge whether to keep the connection

  static Result<std::unique_ptr<StoreConnection>> open(const StoreOptions& options);

  // Steps a statement to completion, remembering the error code on failure.
  Result<void> stepDone(SqliteStatement& stmt, std::string_view what);
  // Remembers the connection's current error code, for an error from elsewhere.
  void noteError() { last_error_code = sqlite3_extended_errcode(db.get()); }

  // The path still names the file this connection writes.
  bool stillAt(const std::string& path) const;
  // PRAGMA max_page_count for `max_bytes` (0: unlimited).
  Result<void> limitSize(std::uint64_t max_bytes);
  // Bytes in use (pages less free pages), and the cap in bytes (0: none).
  Result<std::pair<std::uint64_t, std::uint64_t>> usedAndLimitBytes();
};

// A file overwritten in place keeps its inode, and in WAL mode SQLite keeps
// trusting its cached pages: the 16-byte header magic (SQLite file format,
// section 1.3) is checked before each batch. An empty or missing file passes.
bool headerIsSqlite(const std::string& path);

// Errors the connection survives (busy, locked, full); anything else reopens.
bool keepsConnection(int extended_code);

}  // namespace opticsd
