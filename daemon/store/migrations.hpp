#pragma once
// The numbered schema migrations from schemas/migrations/, compiled into the
// binary at build time (embed_migrations.cmake), ordered by version.

#include <span>
#include <string_view>

namespace opticsd {

struct Migration {
  int version;            // NNNN from the file name; 1, 2, 3 ... with no gaps
  std::string_view name;  // the file name, for messages
  std::string_view sql;
};

std::span<const Migration> embeddedMigrations();

}  // namespace opticsd
