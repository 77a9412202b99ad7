# Installs the kdop library, its headers and a relocatable CMake package:
#   find_package(kdop) -> kdop::kdop
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KDOP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kdop)

install(TARGETS kdop EXPORT kdopTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers keep their layer folder: include/kdop/<layer>/*.hpp, matching INSTALL_INTERFACE.
foreach(layer simd geometry builders engine io verify)
  file(GLOB_RECURSE layer_headers ${PROJECT_SOURCE_DIR}/${layer}/*.hpp)
  if(layer_headers)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kdop
      FILES_MATCHING PATTERN "*.hpp")
  endif()
endforeach()

install(EXPORT kdopTargets NAMESPACE kdop:: DESTINATION ${KDOP_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kdopConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kdopConfig.cmake
  INSTALL_DESTINATION ${KDOP_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kdopConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/kdopConfig.cmake
  ${PROJECT_BINARY_DIR}/kdopConfigVersion.cmake
  DESTINATION ${KDOP_INSTALL_CMAKEDIR})
