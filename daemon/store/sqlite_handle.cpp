#include "daemon/store/sqlite_handle.hpp"

namespace opticsd {

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = other.stmt_;
    other.stmt_ = nullptr;
  }
  return *this;
}

void SqliteStatement::bind(int index, std::optional<double> v) {
  if (v) {
    sqlite3_bind_double(stmt_, index, *v);
  } else {
    sqlite3_bind_null(stmt_, index);
  }
}

void SqliteStatement::bind(int index, std::optional<std::int64_t> v) {
  if (v) {
    sqlite3_bind_int64(stmt_, index, *v);
  } else {
    sqlite3_bind_null(stmt_, index);
  }
}

void SqliteStatement::bind(int index, std::optional<bool> v) {
  if (v) {
    sqlite3_bind_int(stmt_, index, *v ? 1 : 0);
  } else {
    sqlite3_bind_null(stmt_, index);
  }
}

void SqliteStatement::bind(int index, std::string_view text) {
  if (text.empty()) {
    sqlite3_bind_null(stmt_, index);
  } else {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
}

std::optional<double> SqliteStatement::columnDouble(int index) const {
  if (sqlite3_column_type(stmt_, index) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(stmt_, index);
}

std::optional<std::int64_t> SqliteStatement::columnInt(int index) const {
  if (sqlite3_column_type(stmt_, index) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_int64(stmt_, index);
}

std::string SqliteStatement::columnText(int index) const {
  const auto* text = sqlite3_column_text(stmt_, index);
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, index)));
}

Result<SqliteDb> SqliteDb::open(const std::string& path, int flags) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  SqliteDb db;
  db.db_.reset(raw);
  if (rc != SQLITE_OK) {
    std::string message = "cannot open " + path + ": " + (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
    return fail(std::move(message));
  }
  sqlite3_extended_result_codes(raw, 1);
  return db;
}

Result<void> SqliteDb::exec(std::string_view sql) {
  const std::string text(sql);
  char* message = nullptr;
  if (sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string error = message ? message : sqlite3_errmsg(db_.get());
    sqlite3_free(message);
    return fail(std::move(error));
  }
  return {};
}

Result<SqliteStatement> SqliteDb::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt,
                         nullptr) != SQLITE_OK) {
    return fail(error("prepare"));
  }
  return SqliteStatement(stmt);
}

std::string SqliteDb::error(std::string_view what) const {
  return std::string(what) + ": " + sqlite3_errmsg(db_.get()) + " (" +
         sqlite3_errstr(sqlite3_extended_errcode(db_.get())) + ")";
}

std::string quoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void removeOrphanedWal(const std::filesystem::path& database) {
  std::error_code ec;
  if (std::filesystem::exists(database, ec)) return;
  std::filesystem::remove(database.string() + "-wal", ec);
  std::filesystem::remove(database.string() + "-shm", ec);
}

}  // namespace opticsd
