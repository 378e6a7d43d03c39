# cmake -DDIR=<schemas/migrations> -DOUT=<file.cpp> -P embed_migrations.cmake
# Writes OUT: every DIR/NNNN_name.sql as bytes in opticsd::embeddedMigrations(),
# ordered by file name, so the installed binary needs no source tree.
file(GLOB files "${DIR}/*.sql")
list(SORT files)
set(arrays "")
set(rows "")
set(index 0)
foreach(f IN LISTS files)
  get_filename_component(name "${f}" NAME)
  if(NOT name MATCHES "^([0-9]+)_([a-z0-9_]+)\\.sql$")
    message(FATAL_ERROR "migration file name must be NNNN_name.sql: ${name}")
  endif()
  math(EXPR version "${CMAKE_MATCH_1}")
  file(READ "${f}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND arrays "constexpr char kSql${index}[] = {${bytes}0x00};\n")
  string(APPEND rows "    {${version}, \"${name}\", std::string_view(kSql${index}, sizeof(kSql${index}) - 1)},\n")
  math(EXPR index "${index} + 1")
endforeach()
if(index EQUAL 0)
  message(FATAL_ERROR "no migrations found in ${DIR}")
endif()
set(content "// Generated from ${DIR} by daemon/store/embed_migrations.cmake; do not edit.
#include \"daemon/store/migrations.hpp\"

namespace opticsd {
namespace {
${arrays}
constexpr Migration kMigrations[] = {
${rows}};
}  // namespace

std::span<const Migration> embeddedMigrations() { return kMigrations; }

}  // namespace opticsd
")
# Only touch OUT when it changes, so an unrelated reconfigure rebuilds nothing.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${content}")
