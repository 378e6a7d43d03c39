# Writes OUT: a C++ file defining opticsd::embedded::SYMBOL as the text of IN.
file(READ "${IN}" text HEX)
string(LENGTH "${text}" hex_length)
set(bytes "")
if(hex_length GREATER 0)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${text}")
endif()
file(WRITE "${OUT}" "// Generated from ${IN}; do not edit.\nnamespace opticsd::embedded {\nstatic const char k${SYMBOL}[] = {${bytes}0x00};\nextern const char* const ${SYMBOL};\nconst char* const ${SYMBOL} = k${SYMBOL};\n}  // namespace opticsd::embedded\n")
