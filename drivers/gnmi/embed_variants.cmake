# cmake -DFILES=<a.yaml|b.yaml> -DOUT=<file.cpp> -P embed_variants.cmake
# Writes OUT: the text of every shipped gNMI variant file (schemas/gnmi-variants),
# in the order given, as opticsd::gnmi::embeddedVariantFiles(), so the installed
# binary needs no source tree and loads them through the user files' loader.
string(REPLACE "|" ";" FILES "${FILES}")
set(arrays "")
set(rows "")
set(index 0)
foreach(f IN LISTS FILES)
  get_filename_component(name "${f}" NAME)
  file(READ "${f}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND arrays "constexpr char kText${index}[] = {${bytes}0x00};\n")
  string(APPEND rows "    {\"${name}\", std::string_view(kText${index}, sizeof(kText${index}) - 1)},\n")
  math(EXPR index "${index} + 1")
endforeach()
if(index EQUAL 0)
  message(FATAL_ERROR "no gNMI variant files given")
endif()
set(content "// Generated from schemas/gnmi-variants by drivers/gnmi/embed_variants.cmake; do not edit.
#include \"drivers/gnmi/vendor_variants.hpp\"

namespace opticsd::gnmi {
namespace {
${arrays}
constexpr EmbeddedVariantFile kFiles[] = {
${rows}};
}  // namespace

std::span<const EmbeddedVariantFile> embeddedVariantFiles() { return kFiles; }

}  // namespace opticsd::gnmi
")
# Only touch OUT when it changes, so an unrelated reconfigure rebuilds nothing.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${content}")
