#!/usr/bin/env bash
# Kernelpad's quick start on Debian 12: installs the Debian packages that are missing, builds, then
#   ./setup.sh app [FILE]   opens Kernelpad (on the multiply_them sample unless FILE is given)
#   ./setup.sh test         runs every test through CTest
#   ./setup.sh lint         checks the formatting (.clang-format) and runs clang-tidy (.clang-tidy) on
#                           every source file; CI runs it after the tests
#   ./setup.sh screenshots  remakes the README's pictures in resources/screenshots (offscreen)
#   ./setup.sh deb          builds the Debian package (BUILD_DIR/kernelpad_VERSION_amd64.deb)
# Environment: BUILD_DIR (default build), CUDAToolkit_ROOT (default /usr/local/cuda), CI=true turns
# compiler warnings into errors.
set -euo pipefail
cd "$(dirname "$(realpath "$0")")"

mode=${1:-}
case $mode in
  app | test | lint | screenshots | deb) shift ;;
  *) echo "usage: $0 app [FILE] | test | lint | screenshots | deb" >&2; exit 2 ;;
esac

packages=(cmake ninja-build g++ pkg-config xz-utils fonts-dejavu-core
  qt6-base-dev qt6-tools-dev qt6-svg-dev libqscintilla2-qt6-dev libqcustomplot-dev libgl-dev
  nlohmann-json3-dev libxxhash-dev libboost-context-dev libmuparser-dev libcli11-dev libseccomp-dev
  qt6-l10n-tools)
# Recommended, not needed to build: Qt's own words (standard buttons, dialogs) in Spanish and Chinese,
# and a font with Chinese glyphs for the window in Simplified Chinese.
packages+=(qt6-translations-l10n fonts-wqy-microhei)
# CPack's Debian generator finds the package's library dependencies with dpkg-shlibdeps and file.
if [[ $mode == deb ]]; then packages+=(dpkg-dev file); fi
if [[ $mode == lint ]]; then packages+=(clang-format clang-tidy); fi

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [[ ${#missing[@]} -eq 0 ]] && return
  command -v apt-get >/dev/null || {
    echo "setup.sh: these packages are missing and there is no apt-get to install them: ${missing[*]}" >&2
    exit 1
  }
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  echo "setup.sh: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

check_cuda() {
  local root=${CUDAToolkit_ROOT:-/usr/local/cuda}
  if [[ ! -f $root/include/cuda.h || ! -f $root/include/nvrtc.h ]]; then
    cat >&2 <<MSG
setup.sh: the CUDA toolkit is missing: no cuda.h and nvrtc.h under $root/include.
Kernelpad compiles against the toolkit's headers and runs kernels with NVRTC, even on a machine
without a GPU. Install CUDA 12 or 13 from NVIDIA's Debian 12 repository (package cuda-toolkit-13-0,
or at least cuda-nvrtc-dev-13-0 and cuda-driver-dev-13-0), then run this command again. A toolkit
elsewhere: CUDAToolkit_ROOT=/path/to/cuda $0 $mode
MSG
    exit 1
  fi
  export CUDAToolkit_ROOT=$root
}

build() {
  local dir=${BUILD_DIR:-build} werror=OFF
  [[ ${CI:-} == true ]] && werror=ON
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKP_WERROR=$werror -DCUDAToolkit_ROOT="$CUDAToolkit_ROOT"
  cmake --build "$dir" -j "$(nproc)"
}

install_missing
check_cuda
build
dir=${BUILD_DIR:-build}
if [[ $mode == test ]]; then
  exec ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
fi
if [[ $mode == lint ]]; then
  mapfile -t sources < <(git ls-files -- 'core/*.h' 'core/*.cpp' 'app/*.h' 'app/*.cpp' 'tests/*.h' 'tests/*.cpp')
  echo "setup.sh: checking the formatting of ${#sources[@]} files (clang-format)"
  clang-format --dry-run --Werror "${sources[@]}"
  mapfile -t units < <(printf '%s\n' "${sources[@]}" | grep '\.cpp$' | grep -v '^tests/fuzz/')
  echo "setup.sh: clang-tidy on ${#units[@]} files"
  run-clang-tidy -quiet -p "$dir" -j "$(nproc)" "${units[@]/#/$PWD/}" >"$dir/clang-tidy.log" 2>&1 ||
    { grep -E 'error:|warning:' "$dir/clang-tidy.log" | sort -u >&2; exit 1; }
  echo "setup.sh: formatting and clang-tidy are clean"
  exit 0
fi
if [[ $mode == deb ]]; then
  cd "$dir" && exec cpack -G DEB
fi
if [[ $mode == screenshots ]]; then
  QT_QPA_PLATFORM=offscreen exec "$dir/app/kernelpad" --screenshots resources/screenshots
fi
if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} && -z ${QT_QPA_PLATFORM:-} ]]; then
  echo "setup.sh: built $dir/app/kernelpad, but there is no display to open it on (DISPLAY and WAYLAND_DISPLAY are unset)." >&2
  echo "Run it from a desktop session, or headless with QT_QPA_PLATFORM=offscreen." >&2
  exit 1
fi
exec "$dir/app/kernelpad" "${@:-samples/multiply_them/multiply_them.kpad.json}"
