# SANDBAR_PCH precompiles the headers nearly every source includes (QtCore's, the C++
# library's, nlohmann/json in core/, QtWidgets' outside core/, QtTest's in the test programs)
# a few times for the whole build, in donor targets (core/'s, the rest's, and one per set of
# Qt modules the test programs use), and every Qt target of the tree reuses one: a cold build
# parses Qt's headers a few times instead of once per source.
#
# What goes in is weighed: GCC loads the whole file for every source (about 200 MB; 2.7 s of
# CPU for an empty source with nlohmann/json in it, 1.7 s without), so a header only some
# sources use costs the others more than it saves them. nlohmann/json is in core/'s, where the
# providers parse JSON, and not in the others, where few sources use it.
#
# A precompiled header hides a source's missing #include, so the second compiler's build
# (scripts/check-clang.sh) turns this off: that build keeps every source's own includes
# honest, and the GCC build here is the fast one.
#
# GCC uses a precompiled header only when the flags that matter match the donor's (-fPIC,
# -O, -g, -std) and when each macro its headers test is defined the same way; CMake adds
# -Winvalid-pch, so with warnings as errors a mismatch fails the build instead of silently
# compiling the slow way.
#
# The test programs' donors hold QtTest too. QtTest's headers declare what they do by the Qt
# modules a program uses (QT_NETWORK_LIB, QT_GUI_LIB, QT_WIDGETS_LIB), so each set of those
# modules gets its donor, made when a test first needs it. Qt6::Test also gives every program
# its own folders (QT_TESTCASE_BUILDDIR, QT_TESTCASE_SOURCEDIR) for QFINDTESTDATA, which would
# make every folder's header differ; Sandbar's tests find their data through SANDBAR_TEST_DATA,
# so those two are left out.
set_property(TARGET Qt6::Test PROPERTY INTERFACE_COMPILE_DEFINITIONS QT_TESTLIB_LIB)
option(SANDBAR_PCH "Precompile common headers once for the whole build" ON)
if(NOT SANDBAR_PCH)
  return()
endif()

set(SANDBAR_PCH_CORE <QObject> <QString> <QStringList> <QByteArray> <QList> <QHash> <QMap> <QSet>
  <QVariant> <QTimer> <QPointer> <QCoreApplication> <QDir> <QFile> <QFileInfo> <QJsonObject> <QJsonArray>
  <QJsonDocument> <QJsonValue> <QDateTime> <QElapsedTimer> <QUrl> <QIODevice> <QRegularExpression>
  <algorithm> <functional> <memory> <optional> <string> <utility> <vector>)
set(SANDBAR_PCH_WIDGETS <QWidget> <QLabel> <QBoxLayout> <QPushButton> <QLineEdit> <QApplication>
  <QToolButton> <QCheckBox> <QComboBox> <QHeaderView> <QTableView> <QAction> <QMenu> <QPainter>
  <QDialog> <QMessageBox>)

set(_sb_pch_dir ${PROJECT_BINARY_DIR}/pch)
file(MAKE_DIRECTORY ${_sb_pch_dir})
file(WRITE ${_sb_pch_dir}/donor.cpp "// The precompiled header's donor: no code of its own.\n")
# A donor's macros must all be defined, the same way, where its header is used, so donors take
# QtWidgets' and QtGui's include folders without their QT_WIDGETS_LIB and QT_GUI_LIB: the
# macros a donor has are QtCore's and sandbar-strict's, which every Qt target here has.
set(_sb_pch_includes $<TARGET_PROPERTY:Qt6::Gui,INTERFACE_INCLUDE_DIRECTORIES>
  $<TARGET_PROPERTY:Qt6::Widgets,INTERFACE_INCLUDE_DIRECTORIES>
  $<TARGET_PROPERTY:nlohmann_json::nlohmann_json,INTERFACE_INCLUDE_DIRECTORIES>)
function(_sandbar_pch_donor name)
  cmake_parse_arguments(D "" "" "HEADERS;OPTIONS;LIBS" ${ARGN})
  add_library(${name} STATIC ${_sb_pch_dir}/donor.cpp)
  target_link_libraries(${name} PRIVATE sandbar-strict Qt6::Core ${D_LIBS})
  target_include_directories(${name} SYSTEM PRIVATE ${_sb_pch_includes})
  target_compile_options(${name} PRIVATE ${D_OPTIONS})
  target_precompile_headers(${name} PRIVATE ${D_HEADERS})
  set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
endfunction()
_sandbar_pch_donor(sandbar-pch-core HEADERS ${SANDBAR_PCH_CORE} <nlohmann/json.hpp>)
_sandbar_pch_donor(sandbar-pch-widgets HEADERS ${SANDBAR_PCH_CORE} ${SANDBAR_PCH_WIDGETS})

# The Qt modules among QT_NETWORK_LIB, QT_GUI_LIB and QT_WIDGETS_LIB that target T compiles
# with: those it links and those its libraries pass on (INTERFACE_LINK_LIBRARIES; a
# $<LINK_ONLY:> entry passes on no macro), as CMake itself gathers them.
function(_sandbar_qt_modules t out)
  get_target_property(queue ${t} LINK_LIBRARIES)
  set(seen "")
  set(found "")
  while(queue)
    list(POP_FRONT queue lib)
    if(lib MATCHES "^\\$<" OR lib IN_LIST seen OR NOT TARGET "${lib}")
      continue()
    endif()
    list(APPEND seen ${lib})
    if(lib MATCHES "^Qt6?::(Network|Gui|Widgets)$")
      list(APPEND found ${CMAKE_MATCH_1})
    endif()
    get_target_property(next ${lib} INTERFACE_LINK_LIBRARIES)
    if(next)
      list(APPEND queue ${next})
    endif()
  endwhile()
  list(REMOVE_DUPLICATES found)
  list(SORT found)
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# The donor for test programs that use Qt modules MODULES (a sorted list), made on first use;
# a test program's own options (SANDBAR_TEST_COMPILE_OPTIONS: another -O) are in it, since -O
# changes what the headers compile to (__OPTIMIZE__).
function(_sandbar_test_donor modules out)
  string(JOIN "-" key core ${modules})
  string(TOLOWER ${key} key)
  set(name sandbar-pch-tests-${key})
  if(NOT TARGET ${name})
    set(headers ${SANDBAR_PCH_CORE} <QTest> <QSignalSpy>)
    if("Widgets" IN_LIST modules)
      list(APPEND headers ${SANDBAR_PCH_WIDGETS})
    endif()
    list(TRANSFORM modules PREPEND Qt6:: OUTPUT_VARIABLE libs)
    _sandbar_pch_donor(${name} HEADERS ${headers} OPTIONS ${SANDBAR_TEST_COMPILE_OPTIONS}
      LIBS Qt6::Test ${libs})
  endif()
  set(${out} ${name} PARENT_SCOPE)
endfunction()

# Every static library and program of a folder (and its subfolders) that builds on Qt or on
# Sandbar's libraries reuses a donor: core/'s the one without QtWidgets, as core never uses it.
function(_sandbar_apply_pch t dir)
  get_target_property(type ${t} TYPE)
  get_target_property(moc ${t} AUTOMOC)
  get_target_property(test_program ${t} SANDBAR_TEST_PROGRAM)
  if(NOT type MATCHES "^(STATIC_LIBRARY|EXECUTABLE)$" OR NOT (moc OR test_program) OR t MATCHES "^sandbar-pch-")
    return()
  endif()
  get_target_property(libs ${t} LINK_LIBRARIES)
  list(FILTER libs INCLUDE REGEX "^(Qt6::|sandbar-)")
  list(REMOVE_ITEM libs sandbar-strict)
  if(NOT libs)
    return()
  endif()
  if(test_program)
    _sandbar_qt_modules(${t} modules)
    _sandbar_test_donor("${modules}" donor)
    target_precompile_headers(${t} REUSE_FROM ${donor})
  elseif(dir MATCHES "^${PROJECT_SOURCE_DIR}/core(/|$)")
    target_precompile_headers(${t} REUSE_FROM sandbar-pch-core)
  else()
    target_precompile_headers(${t} REUSE_FROM sandbar-pch-widgets)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL sandbar_for_each_target ${PROJECT_SOURCE_DIR} _sandbar_apply_pch)
