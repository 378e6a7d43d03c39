#pragma once
// Thin RAII owners for sqlite3 connections and prepared statements, with
// errors as values. Not thread-safe: one thread uses a connection at a time
// (SQLite itself is built serialized, but our statements carry state).

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "drivers/result.hpp"

namespace opticsd {

class SqliteStatement {
 public:
  SqliteStatement() = default;
  explicit SqliteStatement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  SqliteStatement(SqliteStatement&& other) noexcept : stmt_(other.stmt_) { other.stmt_ = nullptr; }
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement() { sqlite3_finalize(stmt_); }

  sqlite3_stmt* get() const { return stmt_; }
  explicit operator bool() const { return stmt_ != nullptr; }

  // Parameters are 1-based as in SQLite. nullopt binds NULL.
  void bind(int index, std::optional<double> v);
  void bind(int index, std::optional<std::int64_t> v);
  void bind(int index, std::optional<bool> v);
  void bind(int index, std::string_view text);  // empty text binds NULL
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  // One step; SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return sqlite3_step(stmt_); }

  std::optional<double> columnDouble(int index) const;
  std::optional<std::int64_t> columnInt(int index) const;
  std::string columnText(int index) const;  // NULL reads as ""

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  // flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, or SQLITE_OPEN_READONLY.
  static Result<SqliteDb> open(const std::string& path, int flags);

  SqliteDb() = default;
  SqliteDb(SqliteDb&&) noexcept = default;
  SqliteDb& operator=(SqliteDb&&) noexcept = default;

  sqlite3* get() const { return db_.get(); }
  explicit operator bool() const { return db_ != nullptr; }

  // Runs one or more statements without results.
  Result<void> exec(std::string_view sql);
  Result<SqliteStatement> prepare(std::string_view sql);
  // The text of the last error on this connection, prefixed with `what`.
  std::string error(std::string_view what) const;

 private:
  struct Closer {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
  };
  std::unique_ptr<sqlite3, Closer> db_;
};

// Removes the -wal and -shm files beside a database file that is gone: they
// belong to the deleted file, and replayed onto a new one they would corrupt it.
void removeOrphanedWal(const std::filesystem::path& database);

// Double-quotes an identifier for SQL ("a""b").
std::string quoteIdentifier(std::string_view name);

}  // namespace opticsd
