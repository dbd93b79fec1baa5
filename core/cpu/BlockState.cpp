// The one definition of the CPU backend's per-thread CUDA built-ins (threadIdx, blockIdx, ...), which
// every compiled kernel refers to (resources/cpu/kernelpad_cuda_host.h declares the same layout). It
// lives in the executable's static TLS and is exported from it (kpcore's link options), so that loading
// a new kernel library costs no static TLS: with a copy in every kernel, a process failed to load its
// twentieth or so kernel ("cannot allocate memory in static TLS block").
#include "BlockState.h"

extern "C" {

__attribute__((visibility("default"))) __thread KernelpadBlockStateLayout kernelpad_block_state = {
    {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, nullptr, 0, 1, nullptr, 0, 0, 0, 0, nullptr, 0, 0};

} // extern "C"
