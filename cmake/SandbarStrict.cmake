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

# SANDBAR_PCH precompiles the Qt headers most sources include, once per library: it halves a
# Clang build (scripts/check-clang.sh uses it). Off by default: the main build keeps each
# source's own includes honest, which a precompiled header would hide.
option(SANDBAR_PCH "Precompile common Qt headers for each library" OFF)
set(SANDBAR_PCH_CORE <QObject> <QString> <QByteArray> <QList> <QHash> <QTimer> <QPointer>
  <QCoreApplication> <QDir> <QFile> <QFileInfo> <QJsonObject> <QJsonArray> <QJsonDocument>
  <QDateTime> <memory> <functional> <optional> <vector>)
set(SANDBAR_PCH_WIDGETS <QWidget> <QLabel> <QBoxLayout> <QPushButton> <QLineEdit>
  <QApplication> <QToolButton> <QCheckBox> <QHeaderView>)
# Run at the end of the top-level CMakeLists.txt, when every library exists: the Qt static
# libraries under core/, ui/ and app/ get the core set, those that link Qt Widgets both.
function(_sandbar_apply_pch)
  foreach(dir core ui app)
    get_property(targets DIRECTORY ${PROJECT_SOURCE_DIR}/${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      get_target_property(moc ${t} AUTOMOC)
      if(NOT type STREQUAL "STATIC_LIBRARY" OR NOT moc)
        continue()
      endif()
      get_target_property(libs ${t} LINK_LIBRARIES)
      set(headers ${SANDBAR_PCH_CORE})
      if("Qt6::Widgets" IN_LIST libs OR t STREQUAL "sandbar-app")
        list(APPEND headers ${SANDBAR_PCH_WIDGETS})
      endif()
      target_precompile_headers(${t} PRIVATE ${headers})
    endforeach()
  endforeach()
endfunction()
if(SANDBAR_PCH)
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _sandbar_apply_pch)
endif()
