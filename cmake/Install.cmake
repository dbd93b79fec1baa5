# `cmake --install` (GNUInstallDirs) and `cpack -G DEB`: the programs, the worker beside them in
# libexec, the samples and their lessons, the desktop entry, the icon and the playground's MIME type.
include(GNUInstallDirs)

install(TARGETS kernelpad-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS kernelpad-worker RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/kernelpad)
if(KP_BUILD_GUI)
  install(TARGETS kernelpad RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kernelpad/samples)
install(FILES ${PROJECT_SOURCE_DIR}/resources/kernelpad.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/kernelpad.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/resources/kernelpad-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME kernelpad.xml)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/kernelpad)

set(CPACK_PACKAGE_NAME kernelpad)
set(CPACK_PACKAGE_VENDOR "Kernelpad")
set(CPACK_PACKAGE_CONTACT "Kernelpad developers <kernelpad@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION "Write a CUDA kernel, run it on an NVIDIA GPU or on the CPU backend, check it against a\n\
CPU reference and compare the timings, with the samples of the PyCUDA tutorials and classic teaching\n\
kernels. The CUDA backend needs the NVIDIA driver and the CUDA toolkit's NVRTC; the CPU backend\n\
compiles kernels with the host C++ compiler.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.org/kernelpad")
# The shared libraries the programs link, found by dpkg-shlibdeps; the CPU backend compiles kernels
# with the host compiler at run time, and Qt needs its platform plugins to open a window; no library
# dependency names either.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++, qt6-qpa-plugins")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cuda-nvrtc-13-0")
# The window in Spanish and Chinese: Qt's own words, and glyphs for Chinese.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n, fonts-noto-cjk | fonts-wqy-microhei")
set(CPACK_STRIP_FILES ON)
include(CPack)
