# SANDBAR_UNITY compiles each library's and program's sources in batches (CMake's unity
# build): the headers a batch shares are parsed, and their inline code generated, once instead
# of once per file. That is the product's code (core/, ui/, app/): test programs are one
# source each, and sandbar-bench's groups are a file each, by design with the same local
# names. A source whose file-local names clash with a neighbour's is a bug to fix (one helper
# in a header), not a file to exclude; the Clang check (scripts/check-clang.sh) compiles every
# source alone, so each still stands on its own includes.
option(SANDBAR_UNITY "Compile each library's sources in batches" ON)
if(NOT SANDBAR_UNITY)
  return()
endif()
set(SANDBAR_UNITY_BATCH 12 CACHE STRING "Sources per unity batch")

function(_sandbar_apply_unity t dir)
  get_target_property(type ${t} TYPE)
  get_target_property(test_program ${t} SANDBAR_TEST_PROGRAM)
  if(type MATCHES "^(STATIC_LIBRARY|EXECUTABLE)$" AND NOT test_program AND NOT t MATCHES "^sandbar-pch-")
    set_target_properties(${t} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH
      UNITY_BUILD_BATCH_SIZE ${SANDBAR_UNITY_BATCH})
  endif()
endfunction()
# Deferred to the end of the top folder, when every target exists; a deferred call's
# arguments are read then too, so the folders are named inside the function.
function(_sandbar_apply_unity_product)
  foreach(dir core ui app)
    sandbar_for_each_target(${PROJECT_SOURCE_DIR}/${dir} _sandbar_apply_unity)
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _sandbar_apply_unity_product)
