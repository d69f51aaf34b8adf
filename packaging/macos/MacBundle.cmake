# macOS: Sandbar.app and its disk image. Included by the top-level CMakeLists.txt only
# if(APPLE), after the targets exist. Written to the platform's conventions, but never built
# yet: PORTING.md lists what is left and how to test it.
#   cmake --build build && cmake --install build --prefix dist   (bundle + macdeployqt)
#   cd build && cpack -G DragNDrop                               (Sandbar-<version>-Darwin.dmg)
set(_sb_mac ${CMAKE_CURRENT_LIST_DIR})

# LSMinimumSystemVersion: the deployment target when one is set, otherwise the oldest macOS the
# Qt in use supports (Qt 6.4: 10.14; 6.5-6.7: 11; 6.8-6.9: 12; 6.10 on: 13). A cache entry,
# because the Info.plist is filled in app/'s scope at generate time.
if(CMAKE_OSX_DEPLOYMENT_TARGET)
  set(_sb_macos_min ${CMAKE_OSX_DEPLOYMENT_TARGET})
elseif(Qt6_VERSION VERSION_LESS 6.5)
  set(_sb_macos_min 10.14)
elseif(Qt6_VERSION VERSION_LESS 6.8)
  set(_sb_macos_min 11.0)
elseif(Qt6_VERSION VERSION_LESS 6.10)
  set(_sb_macos_min 12.0)
else()
  set(_sb_macos_min 13.0)
endif()
set(SANDBAR_MACOS_MINIMUM ${_sb_macos_min} CACHE STRING "LSMinimumSystemVersion of Sandbar.app")

set_target_properties(sandbar PROPERTIES
  MACOSX_BUNDLE TRUE
  OUTPUT_NAME Sandbar
  MACOSX_BUNDLE_INFO_PLIST ${_sb_mac}/Info.plist.in
  MACOSX_BUNDLE_GUI_IDENTIFIER dev.sandbar.Sandbar
  MACOSX_BUNDLE_BUNDLE_NAME Sandbar
  MACOSX_BUNDLE_BUNDLE_VERSION ${PROJECT_VERSION}
  MACOSX_BUNDLE_SHORT_VERSION_STRING ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}.${PROJECT_VERSION_PATCH}
  MACOSX_BUNDLE_ICON_FILE sandbar.icns
  MACOSX_BUNDLE_COPYRIGHT "Sandbar developers, GPL-3.0-or-later")

# The icon: resources/icons/sandbar.svg rendered by the build's own sandbar-iconrender (Qt
# Svg, no image converter needed) into an .iconset, which iconutil (Xcode's command line
# tools) packs into sandbar.icns in the bundle's Resources.
set(_sb_icns ${PROJECT_BINARY_DIR}/packaging/macos/sandbar.icns)
if(TARGET sandbar-iconrender)
  set(_sb_png ${PROJECT_BINARY_DIR}/packaging/macos/png)
  set(_sb_iconset ${PROJECT_BINARY_DIR}/packaging/macos/sandbar.iconset)
  # iconutil's names: each point size at 1x and 2x.
  set(_sb_icon_copies
    16:icon_16x16 32:icon_16x16@2x 32:icon_32x32 64:icon_32x32@2x 128:icon_128x128 256:icon_128x128@2x
    256:icon_256x256 512:icon_256x256@2x 512:icon_512x512 1024:icon_512x512@2x)
  set(_sb_copy_cmds)
  foreach(pair IN LISTS _sb_icon_copies)
    string(REPLACE ":" ";" pair ${pair})
    list(GET pair 0 px)
    list(GET pair 1 name)
    list(APPEND _sb_copy_cmds COMMAND ${CMAKE_COMMAND} -E copy ${_sb_png}/${px}.png ${_sb_iconset}/${name}.png)
  endforeach()
  add_custom_command(OUTPUT ${_sb_icns}
    COMMAND sandbar-iconrender ${PROJECT_SOURCE_DIR}/resources/icons/sandbar.svg ${_sb_png} 16 32 64 128 256 512 1024
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_sb_iconset}
    ${_sb_copy_cmds}
    COMMAND iconutil --convert icns --output ${_sb_icns} ${_sb_iconset}
    DEPENDS sandbar-iconrender ${PROJECT_SOURCE_DIR}/resources/icons/sandbar.svg
    COMMENT "Making sandbar.icns" VERBATIM)
  target_sources(sandbar PRIVATE ${_sb_icns})
  set_source_files_properties(${_sb_icns} PROPERTIES MACOSX_PACKAGE_LOCATION Resources GENERATED TRUE)
else()
  message(WARNING "MacBundle.cmake: no sandbar-iconrender target, Sandbar.app gets no icon")
endif()

# sandbarctl lives inside the bundle, next to Sandbar, so that it shares the frameworks
# macdeployqt copies in (Contents/Frameworks, found through @executable_path/../Frameworks).
set_target_properties(sandbarctl PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY $<TARGET_FILE_DIR:sandbar>
  INSTALL_RPATH "@executable_path/../Frameworks")

# macdeployqt: Qt frameworks and plugins (platforms/cocoa, sqldrivers/qsqlite,
# imageformats/qsvg) and the other libraries the executables need, copied into the bundle
# at install time.
include(${PROJECT_SOURCE_DIR}/cmake/QtDeploy.cmake)
sandbar_install_qt_deploy(sandbar)

# The disk image: Sandbar.app and a link to /Applications to drag it onto (Packaging.cmake
# picks DragNDrop on macOS).
set(CPACK_DMG_VOLUME_NAME "Sandbar")
set(CPACK_DMG_FORMAT "UDZO")
set(CPACK_DMG_SLA_USE_RESOURCE_FILE_LICENSE OFF)
set(CPACK_PACKAGE_ICON ${_sb_icns})
set(CPACK_SYSTEM_NAME "macOS")
