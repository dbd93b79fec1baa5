// NVRTC, CUDA's run-time compiler, loaded on first use from the toolkit or the system. The Compiler
// calls it through Nvrtc::api(); it needs no GPU, so compiling works on any machine that has it.
#pragma once

#include "CudaError.h"

#include <nvrtc.h>
#include <string>

#define KP_NVRTC_FUNCTIONS(X)                                                                                \
    X(nvrtcVersion)                                                                                          \
    X(nvrtcGetErrorString)                                                                                   \
    X(nvrtcGetNumSupportedArchs)                                                                             \
    X(nvrtcGetSupportedArchs)                                                                                \
    X(nvrtcCreateProgram)                                                                                    \
    X(nvrtcDestroyProgram)                                                                                   \
    X(nvrtcCompileProgram)                                                                                   \
    X(nvrtcGetPTXSize)                                                                                       \
    X(nvrtcGetPTX)                                                                                           \
    X(nvrtcGetCUBINSize)                                                                                     \
    X(nvrtcGetCUBIN)                                                                                         \
    X(nvrtcGetProgramLogSize)                                                                                \
    X(nvrtcGetProgramLog)                                                                                    \
    X(nvrtcAddNameExpression)                                                                                \
    X(nvrtcGetLoweredName)

namespace kp::cuda {

class Nvrtc {
public:
    struct Api {
#define KP_NVRTC_MEMBER(fn) decltype(&::fn) fn = nullptr; // NOLINT(bugprone-macro-parentheses): a name
        KP_NVRTC_FUNCTIONS(KP_NVRTC_MEMBER)
#undef KP_NVRTC_MEMBER
    };

    // The loaded library; throws Unavailable saying where it looked and what failed.
    static const Api& api();
    static bool available();
    static std::string unavailableReason();
    // Where NVRTC was loaded from (empty when it was not).
    static std::string path();
    // "13.0": part of every compile-cache key.
    static std::string version();
    // NVRTC 12.9 and newer keep the CUBINs they make in the driver's compute cache (~/.nv/ComputeCache,
    // where there is a driver), and a CUBIN found there comes without ptxas's report (registers, spills):
    // seen on the GPU machine, where every compile after the first had an empty log. A compile that needs
    // the report passes --no-cache when this is true.
    static bool keepsItsOwnCache();
};

// Checks an nvrtcResult; throws NvrtcError naming `call` unless it is NVRTC_SUCCESS.
void checkNvrtc(nvrtcResult result, const char* call);

} // namespace kp::cuda

#define KP_NVRTC(fn, ...) ::kp::cuda::checkNvrtc(::kp::cuda::Nvrtc::api().fn(__VA_ARGS__), #fn)
