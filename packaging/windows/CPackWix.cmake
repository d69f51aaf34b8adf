# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE, set in WindowsInstaller.cmake).
if(CPACK_GENERATOR STREQUAL "WIX")
  set(CPACK_RESOURCE_FILE_LICENSE "${CPACK_SANDBAR_LICENSE_TXT}")
endif()
