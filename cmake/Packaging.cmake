# CPack: `cmake --build build --target package` makes sandbar_VERSION_ARCH.deb and a .tar.gz
# of the same tree. tests/package installs the .deb on a clean Debian 12 and runs it there.
set(CPACK_PACKAGE_NAME "sandbar")
set(CPACK_PACKAGE_VENDOR "Sandbar")
set(CPACK_PACKAGE_CONTACT "Sandbar developers <dev@sandbar.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
# Each platform's native package; the macOS and Windows settings come from packaging/.
if(APPLE)
  set(CPACK_GENERATOR "DragNDrop")
elseif(WIN32)
  set(CPACK_GENERATOR "WIX")
else()
  set(CPACK_GENERATOR "DEB;TGZ")
endif()
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
# The extended description: CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY before it as the
# synopsis and indents these lines.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Sandbar keeps every sandbox an AI agent runs in one native Qt window: local
bubblewrap sandboxes, Docker and Podman engines and cloud sandbox services.
It opens terminals into sessions, charts their CPU, memory and network use,
copies files in and out, audits what agents do and estimates what each
provider costs.

The sandbarctl command drives the same sessions from scripts and serves
them to AI agents over the Model Context Protocol.")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Merged with what dpkg-shlibdeps finds in the binaries. The Local provider (the default)
# runs sessions under bubblewrap with slirp4netns for their network; the SQLite driver and
# the SVG plugins are loaded at run time, so shlibdeps cannot see them.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "bubblewrap, slirp4netns, libqt6sql6-sqlite, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnome-keyring | kwalletmanager, qt6-wayland, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "docker.io | podman")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)

# Debian policy: the copyright (machine-readable, covering the statically linked libvterm)
# and a changelog, both under usr/share/doc/sandbar.
if(UNIX AND NOT APPLE)
  set(VTERM_VERSION "${VTERM_VERSION}")
  set(_sb_doc ${CMAKE_INSTALL_DATADIR}/doc/sandbar)
  configure_file(${PROJECT_SOURCE_DIR}/packaging/linux/copyright.in ${PROJECT_BINARY_DIR}/packaging/copyright @ONLY)
  configure_file(${PROJECT_SOURCE_DIR}/packaging/linux/changelog.in ${PROJECT_BINARY_DIR}/packaging/changelog @ONLY)
  # gzip -n: no name or time stamp, so the package is reproducible (lintian checks it).
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/packaging/changelog.gz
    COMMAND sh -c "gzip -9n < changelog > changelog.gz"
    DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/packaging VERBATIM)
  add_custom_target(sandbar-changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
  install(FILES ${PROJECT_BINARY_DIR}/packaging/copyright ${PROJECT_BINARY_DIR}/packaging/changelog.gz
          DESTINATION ${_sb_doc})
  if(EXISTS ${PROJECT_SOURCE_DIR}/packaging/linux/lintian-overrides)
    install(FILES ${PROJECT_SOURCE_DIR}/packaging/linux/lintian-overrides
            DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME sandbar)
  endif()
endif()
include(CPack)
