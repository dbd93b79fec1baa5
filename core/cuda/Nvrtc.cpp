#include "Nvrtc.h"

#include "core/SharedLibrary.h"

#include <charconv>
#include <cstdlib>
#include <vector>

#ifndef KP_CUDA_LIBRARY_DIR
#define KP_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace kp::cuda {

namespace {

struct LoadedNvrtc {
    SharedLibrary library;
    Nvrtc::Api api;
    std::string unavailable;
    std::string version;
};

// KERNELPAD_NVRTC names a library explicitly; otherwise the loader's search path, then the toolkit
// folders, newest major version first.
std::vector<std::string> candidates() {
    std::vector<std::string> paths;
    if (const char* explicitPath = std::getenv("KERNELPAD_NVRTC"); explicitPath && *explicitPath)
        paths.emplace_back(explicitPath);
    const std::vector<std::string> dirs = {"", std::string(KP_CUDA_LIBRARY_DIR) + "/",
                                           "/usr/local/cuda/lib64/",
                                           "/usr/local/cuda/targets/x86_64-linux/lib/"};
    for (const auto& dir : dirs)
        for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"})
            paths.push_back(dir + name);
    return paths;
}

LoadedNvrtc load() {
    LoadedNvrtc n;
    n.library = SharedLibrary::openFirst(candidates());
    if (!n.library.isOpen()) {
        n.unavailable = "NVRTC (libnvrtc.so) was not found: install the CUDA toolkit or set KERNELPAD_NVRTC "
                        "to the library's path";
        return n;
    }
    std::string missing;
#define KP_STR_EXPANDED(x) KP_STR(x)
#define KP_STR(x) #x
#define KP_NVRTC_RESOLVE(fn)                                                                                 \
    n.api.fn = reinterpret_cast<decltype(n.api.fn)>(n.library.symbol(KP_STR_EXPANDED(fn)));                  \
    if (!n.api.fn) missing += std::string(missing.empty() ? "" : ", ") + KP_STR_EXPANDED(fn);
    KP_NVRTC_FUNCTIONS(KP_NVRTC_RESOLVE)
#undef KP_NVRTC_RESOLVE
    if (!missing.empty()) {
        n.unavailable =
            "NVRTC at " + n.library.path() + " is too old (CUDA 12 or newer is needed); it lacks " + missing;
        return n;
    }
    int major = 0;
    int minor = 0;
    n.api.nvrtcVersion(&major, &minor);
    n.version = std::to_string(major) + "." + std::to_string(minor);
    return n;
}

const LoadedNvrtc& nvrtc() {
    static const LoadedNvrtc instance = load();
    return instance;
}

} // namespace

const Nvrtc::Api& Nvrtc::api() {
    const auto& n = nvrtc();
    if (!n.unavailable.empty()) throw Unavailable("cannot compile CUDA code: " + n.unavailable);
    return n.api;
}

bool Nvrtc::available() {
    return nvrtc().unavailable.empty();
}

std::string Nvrtc::unavailableReason() {
    return nvrtc().unavailable;
}

std::string Nvrtc::path() {
    return nvrtc().library.path();
}

std::string Nvrtc::version() {
    api();
    return nvrtc().version;
}

bool Nvrtc::keepsItsOwnCache() {
    const auto text = version();
    int major = 0;
    int minor = 0;
    const auto dot = text.find('.');
    std::from_chars(text.data(), text.data() + text.size(), major);
    if (dot != std::string::npos) std::from_chars(text.data() + dot + 1, text.data() + text.size(), minor);
    return major > 12 || (major == 12 && minor >= 9);
}

void checkNvrtc(nvrtcResult result, const char* call) {
    if (result == NVRTC_SUCCESS) return;
    const auto& n = nvrtc();
    const char* text = n.api.nvrtcGetErrorString ? n.api.nvrtcGetErrorString(result) : nullptr;
    throw NvrtcError(call, static_cast<int>(result), text ? text : "NVRTC error " + std::to_string(result));
}

} // namespace kp::cuda
