#include "Driver.h"

#include "core/SharedLibrary.h"

#include <atomic>

namespace kp::cuda {

namespace {

#define KP_STRINGIFY_EXPANDED(x) KP_STRINGIFY(x)
#define KP_STRINGIFY(x) #x

struct LoadedDriver {
    SharedLibrary library;
    Driver::Api api;
    std::string unavailable; // empty when usable
    int version = 0;
};

std::atomic<bool> g_loaded{false};

std::string missingSymbols(const SharedLibrary& lib, Driver::Api& api) {
    std::string missing;
#define KP_CUDA_DRIVER_RESOLVE(fn)                                                                           \
    api.fn = reinterpret_cast<decltype(api.fn)>(lib.symbol(KP_STRINGIFY_EXPANDED(fn)));                      \
    if (!api.fn) missing += std::string(missing.empty() ? "" : ", ") + KP_STRINGIFY_EXPANDED(fn);
    KP_CUDA_DRIVER_FUNCTIONS(KP_CUDA_DRIVER_RESOLVE)
#undef KP_CUDA_DRIVER_RESOLVE
    return missing;
}

std::string describeInitFailure(const Driver::Api& api, CUresult result) {
    if (result == CUDA_ERROR_NO_DEVICE) return "the NVIDIA driver is installed but found no CUDA device";
    const char* name = nullptr;
    api.cuGetErrorName(result, &name);
    const char* text = nullptr;
    api.cuGetErrorString(result, &text);
    return std::string("the NVIDIA driver could not start: cuInit failed with ") + (name ? name : "?") +
           " (" + (text ? text : "no description") + ")";
}

LoadedDriver load() {
    LoadedDriver d;
    d.library = SharedLibrary::openFirst({"libcuda.so.1", "libcuda.so"});
    if (!d.library.isOpen()) {
        d.unavailable = "no NVIDIA driver: libcuda.so.1 could not be loaded (" + d.library.error() + ")";
        return d;
    }
    if (auto missing = missingSymbols(d.library, d.api); !missing.empty()) {
        d.unavailable = "the NVIDIA driver at " + d.library.path() +
                        " is too old for Kernelpad (CUDA 12 or newer is needed); it lacks " + missing;
        return d;
    }
    if (CUresult r = d.api.cuInit(0); r != CUDA_SUCCESS) {
        d.unavailable = describeInitFailure(d.api, r);
        return d;
    }
    d.api.cuDriverGetVersion(&d.version);
    g_loaded = true;
    return d;
}

const LoadedDriver& driver() {
    static const LoadedDriver instance = load();
    return instance;
}

} // namespace

const Driver::Api& Driver::api() {
    const auto& d = driver();
    if (!d.unavailable.empty()) throw Unavailable("CUDA is unavailable: " + d.unavailable);
    return d.api;
}

bool Driver::available() {
    return driver().unavailable.empty();
}

std::string Driver::unavailableReason() {
    return driver().unavailable;
}

bool Driver::loaded() noexcept {
    return g_loaded.load();
}

int Driver::version() {
    api();
    return driver().version;
}

} // namespace kp::cuda
