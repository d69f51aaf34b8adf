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
# The same intent for each compiler family: GCC and Clang share most spellings; where they
# differ (GCC's -Wshadow=local), each gets its nearest equivalent; MSVC has its own set.
set(_sb_gnu $<CXX_COMPILER_ID:GNU>)
set(_sb_clang $<CXX_COMPILER_ID:Clang,AppleClang>)
set(_sb_gnulike $<OR:${_sb_gnu},${_sb_clang}>)
set(_sb_msvc $<CXX_COMPILER_ID:MSVC>)
set(_sb_common_flags -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Woverloaded-virtual
  -Wcast-qual -Wformat=2 -Wimplicit-fallthrough -Wno-missing-field-initializers)
# MSVC: level 4 (C4456/C4457 are its local-shadowing warnings), standard conformance, UTF-8
# sources and a truthful __cplusplus (Qt 6 checks it).
set(_sb_msvc_flags /W4 /permissive- /utf-8 /Zc:__cplusplus)
target_compile_options(sandbar-strict INTERFACE
  "$<${_sb_gnulike}:${_sb_common_flags}>"
  # A local hiding another local. GCC can limit -Wshadow to that; Clang's -Wshadow is the
  # nearest (it also names a local hiding a namespace-scope variable, never a member).
  $<${_sb_gnu}:-Wshadow=local>
  $<${_sb_clang}:-Wshadow>
  # GCC 12 reports std::optional and std::variant members as maybe-uninitialized (GCC bug 105562).
  $<${_sb_gnu}:-Wno-maybe-uninitialized>
  "$<${_sb_msvc}:${_sb_msvc_flags}>")
if(DEFINED ENV{CI} AND "$ENV{CI}" STREQUAL "true")
  set(SANDBAR_WERROR_DEFAULT ON)
else()
  set(SANDBAR_WERROR_DEFAULT OFF)
endif()
option(SANDBAR_WERROR "Treat warnings as errors" ${SANDBAR_WERROR_DEFAULT})
if(SANDBAR_WERROR)
  target_compile_options(sandbar-strict INTERFACE $<${_sb_gnulike}:-Werror> $<${_sb_msvc}:/WX>)
endif()

# Precompiled headers: cmake/SandbarPch.cmake (SANDBAR_PCH).

# Calls FN(target folder) for every target defined in DIR or a folder below it: how the
# deferred build settings (precompiled headers, unity batches) reach each target once all
# exist.
function(sandbar_for_each_target dir fn)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    cmake_language(CALL ${fn} ${t} ${dir})
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    sandbar_for_each_target(${sub} ${fn})
  endforeach()
endfunction()

# Test programs (sandbar_add_test) are compiled at -O1 in optimised builds: the product's
# libraries they exercise keep the build type's -O2, and a test's own code, mostly Qt Test
# macros and lambdas, compiles in two thirds of the time at -O1 and runs no slower that anyone
# would notice. sandbar-bench and the contract server keep -O2, as they take measurements.
set(SANDBAR_TEST_COMPILE_OPTIONS $<$<CONFIG:RelWithDebInfo,Release,MinSizeRel>:-O1>)
function(sandbar_test_target target)
  target_compile_options(${target} PRIVATE ${SANDBAR_TEST_COMPILE_OPTIONS})
  set_target_properties(${target} PROPERTIES SANDBAR_TEST_PROGRAM TRUE)
endfunction()

# mold links the hundred and more test programs in a fraction of GNU ld's time (GCC 12.1 and
# Clang know -fuse-ld=mold); without it the default linker is used.
find_program(SANDBAR_MOLD mold)
option(SANDBAR_USE_MOLD "Link with mold when it is installed" ON)
if(SANDBAR_USE_MOLD AND SANDBAR_MOLD AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang"
   AND NOT CMAKE_CXX_COMPILER_VERSION VERSION_LESS 12.1)
  add_link_options(-fuse-ld=mold)
endif()
