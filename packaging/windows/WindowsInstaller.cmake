# Windows: the GUI subsystem for sandbar.exe, its icon, windeployqt, and the WiX (MSI)
# installer. Included by the top-level CMakeLists.txt only if(WIN32), after the targets
# exist. Written to the platform's conventions, but never built yet: PORTING.md lists what is
# left (ConPTY first) and how to test it.
#   cmake --build build && cmake --install build --prefix dist   (exe + windeployqt)
#   cd build && cpack -G WIX                                     (sandbar-<version>-win64.msi)
set(_sb_win ${CMAKE_CURRENT_LIST_DIR})

# No console window behind the GUI; sandbarctl stays a console program.
set_target_properties(sandbar PROPERTIES WIN32_EXECUTABLE TRUE)

# The executable's icon comes from a resource script; sandbar.ico (16-256 px) is made once
# from resources/icons/sandbar.svg with make-ico.py and committed here.
set(_sb_ico ${_sb_win}/sandbar.ico)
if(EXISTS ${_sb_ico})
  configure_file(${_sb_win}/sandbar.rc.in ${PROJECT_BINARY_DIR}/packaging/windows/sandbar.rc @ONLY)
  target_sources(sandbar PRIVATE ${PROJECT_BINARY_DIR}/packaging/windows/sandbar.rc)
  set(CPACK_WIX_PRODUCT_ICON ${_sb_ico})
else()
  message(WARNING "WindowsInstaller.cmake: ${_sb_ico} is missing, sandbar.exe and the installer get no icon")
endif()

# windeployqt: the Qt DLLs and plugins (platforms/qwindows, sqldrivers/qsqlite,
# imageformats/qsvg, styles) next to sandbar.exe at install time; sandbarctl.exe, installed
# into the same folder, uses the same ones.
include(${PROJECT_SOURCE_DIR}/cmake/QtDeploy.cmake)
sandbar_install_qt_deploy(sandbar)

# WiX. The upgrade code never changes: it is how a newer MSI finds and replaces an older one.
set(CPACK_WIX_UPGRADE_GUID "CFD0C2DE-DF0D-49EC-AD1A-FF36D99AAC9B")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Sandbar")
set(CPACK_WIX_PROGRAM_MENU_FOLDER "Sandbar")
set(CPACK_WIX_PROPERTY_ARPURLINFOABOUT "${PROJECT_HOMEPAGE_URL}")
set(CPACK_WIX_PROPERTY_ARPHELPLINK "${PROJECT_HOMEPAGE_URL}")
# A Start menu entry for the window; sandbarctl is for a terminal, so it gets none.
set(CPACK_PACKAGE_EXECUTABLES "sandbar;Sandbar")
# WiX shows the licence as RTF and converts a .txt one; LICENSE has no extension, and
# Packaging.cmake (included after this file) sets CPACK_RESOURCE_FILE_LICENSE to it, so the
# .txt copy is chosen per generator, at cpack time, by CPackWix.cmake.
configure_file(${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_BINARY_DIR}/packaging/windows/LICENSE.txt COPYONLY)
set(CPACK_SANDBAR_LICENSE_TXT ${PROJECT_BINARY_DIR}/packaging/windows/LICENSE.txt)
set(CPACK_PROJECT_CONFIG_FILE ${_sb_win}/CPackWix.cmake)
