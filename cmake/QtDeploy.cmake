# sandbar_install_qt_deploy(TARGET): at install time, copy the Qt libraries and plugins the
# target needs next to it (macdeployqt on macOS, windeployqt on Windows). Qt 6.5 renamed
# FILENAME_VARIABLE to OUTPUT_SCRIPT.
function(sandbar_install_qt_deploy target)
  if(Qt6_VERSION VERSION_LESS 6.5)
    qt_generate_deploy_app_script(TARGET ${target} FILENAME_VARIABLE deploy NO_UNSUPPORTED_PLATFORM_ERROR)
  else()
    qt_generate_deploy_app_script(TARGET ${target} OUTPUT_SCRIPT deploy NO_UNSUPPORTED_PLATFORM_ERROR)
  endif()
  install(SCRIPT ${deploy})
endfunction()
