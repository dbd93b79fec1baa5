// The CUDA driver API, loaded from libcuda.so.1 on first use. Every core/cuda class calls the driver
// through Driver::api(); `available()` tells the GUI and CLI, in words, why CUDA cannot be used here.
#pragma once

#include "CudaError.h"

#include <cuda.h>
#include <string>

// Each driver function Kernelpad uses. cuda.h maps many names to versioned symbols (cuMemAlloc ->
// cuMemAlloc_v2); the table follows the same macros, so a member has the symbol's real name and type.
#define KP_CUDA_DRIVER_FUNCTIONS(X)                                                                          \
    X(cuInit)                                                                                                \
    X(cuDriverGetVersion)                                                                                    \
    X(cuGetErrorName)                                                                                        \
    X(cuGetErrorString)                                                                                      \
    X(cuDeviceGetCount)                                                                                      \
    X(cuDeviceGet)                                                                                           \
    X(cuDeviceGetName)                                                                                       \
    X(cuDeviceGetAttribute)                                                                                  \
    X(cuDeviceTotalMem)                                                                                      \
    X(cuDevicePrimaryCtxRetain)                                                                              \
    X(cuDevicePrimaryCtxRelease)                                                                             \
    X(cuDevicePrimaryCtxReset)                                                                               \
    X(cuCtxSetCurrent)                                                                                       \
    X(cuCtxGetCurrent)                                                                                       \
    X(cuCtxGetDevice)                                                                                        \
    X(cuCtxSynchronize)                                                                                      \
    X(cuMemGetInfo)                                                                                          \
    X(cuMemAlloc)                                                                                            \
    X(cuMemFree)                                                                                             \
    X(cuMemAllocHost)                                                                                        \
    X(cuMemFreeHost)                                                                                         \
    X(cuMemHostRegister)                                                                                     \
    X(cuMemHostUnregister)                                                                                   \
    X(cuMemcpyHtoD)                                                                                          \
    X(cuMemcpyDtoH)                                                                                          \
    X(cuMemcpyDtoD)                                                                                          \
    X(cuMemcpyHtoDAsync)                                                                                     \
    X(cuMemcpyDtoHAsync)                                                                                     \
    X(cuMemcpyDtoDAsync)                                                                                     \
    X(cuMemsetD8)                                                                                            \
    X(cuMemsetD8Async)                                                                                       \
    X(cuMemsetD16Async)                                                                                      \
    X(cuMemsetD32Async)                                                                                      \
    X(cuMemsetD2D8Async)                                                                                     \
    X(cuMemsetD2D16Async)                                                                                    \
    X(cuMemsetD2D32Async)                                                                                    \
    X(cuModuleLoadData)                                                                                      \
    X(cuModuleLoadDataEx)                                                                                    \
    X(cuModuleUnload)                                                                                        \
    X(cuModuleGetFunction)                                                                                   \
    X(cuModuleGetGlobal)                                                                                     \
    X(cuFuncGetAttribute)                                                                                    \
    X(cuFuncSetAttribute)                                                                                    \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                                                           \
    X(cuOccupancyMaxPotentialBlockSize)                                                                      \
    X(cuLaunchKernel)                                                                                        \
    X(cuLaunchCooperativeKernel)                                                                             \
    X(cuStreamCreate)                                                                                        \
    X(cuStreamDestroy)                                                                                       \
    X(cuStreamSynchronize)                                                                                   \
    X(cuStreamQuery)                                                                                         \
    X(cuEventCreate)                                                                                         \
    X(cuEventDestroy)                                                                                        \
    X(cuEventRecord)                                                                                         \
    X(cuEventSynchronize)                                                                                    \
    X(cuEventQuery)                                                                                          \
    X(cuEventElapsedTime)

namespace kp::cuda {

class Driver {
public:
    struct Api {
#define KP_CUDA_DRIVER_MEMBER(fn) decltype(&::fn) fn = nullptr; // NOLINT(bugprone-macro-parentheses): a name
        KP_CUDA_DRIVER_FUNCTIONS(KP_CUDA_DRIVER_MEMBER)
#undef KP_CUDA_DRIVER_MEMBER
    };

    // The loaded, initialised driver; throws Unavailable saying why (no libcuda, no device, too old).
    static const Api& api();
    // Whether api() would succeed; loads the driver on first call.
    static bool available();
    // Why CUDA cannot be used here, in words a person understands; empty when it can.
    static std::string unavailableReason();
    // True once the driver is loaded (without trying to load it): used while formatting errors.
    static bool loaded() noexcept;
    // The driver's CUDA version as an integer (13000 for 13.0).
    static int version();
};

} // namespace kp::cuda

// Calls a driver function and throws CudaError naming it when it fails:
// KP_CU(cuMemAlloc, &ptr, bytes);
#define KP_CU(fn, ...) ::kp::cuda::check(::kp::cuda::Driver::api().fn(__VA_ARGS__), #fn)
