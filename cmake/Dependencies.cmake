# Finds what Kernelpad builds on. Every package here comes from Debian 12 (see setup.sh), except the
# CUDA toolkit, whose headers we compile against; the driver and NVRTC themselves load at run time.
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)

find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
find_library(XXHASH_LIBRARY xxhash REQUIRED)
add_library(kp_xxhash INTERFACE)
target_include_directories(kp_xxhash SYSTEM INTERFACE ${XXHASH_INCLUDE_DIR})
target_link_libraries(kp_xxhash INTERFACE ${XXHASH_LIBRARY})

# muparser evaluates the formulas of array inits ("sin(i*0.1) + j"). Debian's libmuparser-dev ships a
# CMake package; pkg-config is the fallback for builds of muparser that install only muparser.pc.
find_package(muparser 2.2 CONFIG QUIET)
if(TARGET muparser::muparser)
  add_library(kp_muparser INTERFACE)
  target_link_libraries(kp_muparser INTERFACE muparser::muparser)
else()
  find_package(PkgConfig)
  if(PkgConfig_FOUND)
    pkg_check_modules(MUPARSER IMPORTED_TARGET muparser>=2.2)
  endif()
  if(NOT MUPARSER_FOUND)
    message(FATAL_ERROR "muparser not found: install the Debian package libmuparser-dev.")
  endif()
  add_library(kp_muparser INTERFACE)
  target_link_libraries(kp_muparser INTERFACE PkgConfig::MUPARSER)
endif()

# libseccomp builds the sandbox's system-call filter (core/sandbox/Confinement).
find_package(PkgConfig)
if(PkgConfig_FOUND)
  pkg_check_modules(SECCOMP IMPORTED_TARGET libseccomp>=2.4)
endif()
if(NOT SECCOMP_FOUND)
  message(FATAL_ERROR "libseccomp not found: install the Debian package libseccomp-dev.")
endif()
add_library(kp_seccomp INTERFACE)
target_link_libraries(kp_seccomp INTERFACE PkgConfig::SECCOMP)

# Boost.Context: the fibers that let the CPU backend's threads of a block meet at __syncthreads.
find_path(BOOST_CONTEXT_INCLUDE_DIR boost/context/fiber.hpp)
find_library(BOOST_CONTEXT_LIBRARY boost_context)
if(NOT BOOST_CONTEXT_INCLUDE_DIR OR NOT BOOST_CONTEXT_LIBRARY)
  message(FATAL_ERROR "Boost.Context not found: install the Debian package libboost-context-dev.")
endif()
add_library(kp_boost_context INTERFACE)
target_include_directories(kp_boost_context SYSTEM INTERFACE ${BOOST_CONTEXT_INCLUDE_DIR})
target_link_libraries(kp_boost_context INTERFACE ${BOOST_CONTEXT_LIBRARY})

# The CUDA headers only: libcuda.so.1 and libnvrtc are opened with dlopen, so that Kernelpad starts
# and runs its CPU backend on machines without a driver.
if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
find_package(CUDAToolkit 12.0)
if(NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR
    "Kernelpad needs the CUDA toolkit's headers (cuda.h, nvrtc.h) to build, even on a machine without "
    "a GPU. None was found (looked in /usr/local/cuda and CUDAToolkit_ROOT). Install CUDA 12 or 13 from "
    "NVIDIA (e.g. the cuda-toolkit package of NVIDIA's Debian 12 repository), or pass "
    "-DCUDAToolkit_ROOT=/path/to/cuda.")
endif()
add_library(kp_cuda_headers INTERFACE)
target_include_directories(kp_cuda_headers SYSTEM INTERFACE ${CUDAToolkit_INCLUDE_DIRS})
# Where NVRTC was at build time: a hint for the run-time loader, never a requirement.
set(KP_CUDA_LIBRARY_DIR "${CUDAToolkit_LIBRARY_DIR}")

if(KP_BUILD_GUI OR KP_BUILD_TESTS)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Svg PrintSupport Test)
endif()
if(KP_BUILD_GUI)
  find_package(QCustomPlotQt6 REQUIRED)
  # lupdate and lrelease for the window's translations (Debian: qt6-tools-dev and qt6-l10n-tools).
  find_package(Qt6 6.4 REQUIRED COMPONENTS LinguistTools)
  # QScintilla's Qt 6 build ships no CMake package: find its header and library.
  find_path(QSCINTILLA_INCLUDE_DIR Qsci/qsciscintilla.h
    PATHS /usr/include/x86_64-linux-gnu/qt6 /usr/include/qt6 ${Qt6_DIR}/../../../include/qt6)
  find_library(QSCINTILLA_LIBRARY NAMES qscintilla2_qt6)
  if(NOT QSCINTILLA_INCLUDE_DIR OR NOT QSCINTILLA_LIBRARY)
    message(FATAL_ERROR "QScintilla for Qt 6 not found: install the Debian package libqscintilla2-qt6-dev.")
  endif()
  add_library(kp_qscintilla INTERFACE)
  target_include_directories(kp_qscintilla SYSTEM INTERFACE ${QSCINTILLA_INCLUDE_DIR})
  target_link_libraries(kp_qscintilla INTERFACE ${QSCINTILLA_LIBRARY} Qt6::Widgets)
endif()
