# One INTERFACE target of strict settings, linked by every Sandbar target.
add_library(sandbar-strict INTERFACE)
target_compile_features(sandbar-strict INTERFACE cxx_std_20)
target_compile_definitions(sandbar-strict INTERFACE
  QT_NO_CAST_FROM_ASCII
  QT_NO_CAST_TO_ASCII
  QT_NO_CAST_FROM_BYTEARRAY
  QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_NO_CONTEXTLESS_CONNECT
  QT_NO_URL_CAST_FROM_STRING
  QT_USE_QSTRINGBUILDER
  QT_NO_KEYWORDS
  QT_DISABLE_DEPRECATED_UP_TO=0x060000)
target_compile_options(sandbar-strict INTERFACE
  -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Woverloaded-virtual -Wshadow=local
  -Wcast-qual -Wformat=2 -Wimplicit-fallthrough -Wno-missing-field-initializers
  # GCC 12 reports std::optional and std::variant members as maybe-uninitialized (GCC bug 105562).
  $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
if(DEFINED ENV{CI} AND "$ENV{CI}" STREQUAL "true")
  set(SANDBAR_WERROR_DEFAULT ON)
else()
  set(SANDBAR_WERROR_DEFAULT OFF)
endif()
option(SANDBAR_WERROR "Treat warnings as errors" ${SANDBAR_WERROR_DEFAULT})
if(SANDBAR_WERROR)
  target_compile_options(sandbar-strict INTERFACE -Werror)
endif()
