# Debian's hardening flags on every target, as the package is built:
# what `DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags` gives on
# Debian 12 (stack protector, fortified libc calls, read-only relocations
# bound at start) plus PIE, which Debian's GCC builds by default and is asked
# for here too so another compiler does the same. The package test checks
# the installed binary with hardening-check (devscripts).
#
# Not with the sanitizers or the fuzzer: they bring their own instrumentation.
option(OPTICSD_HARDENING "Build with Debian's hardening flags" ON)
if(OPTICSD_HARDENING AND NOT OPTICSD_SANITIZE AND NOT OPTICSD_FUZZ)
  include(CheckPIESupported)
  check_pie_supported()
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  add_compile_options(-fstack-protector-strong -Wformat -Werror=format-security)
  # glibc's fortified calls need the optimiser (and warn without it).
  add_compile_definitions($<$<NOT:$<CONFIG:Debug>>:_FORTIFY_SOURCE=2>)
  add_link_options(-Wl,-z,relro -Wl,-z,now)
endif()
