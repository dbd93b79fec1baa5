// The text of resources/cpu/kernelpad_cuda_host.h, compiled into kpcore (CudaHostHeader.cpp.in): what
// the CPU backend and CPU references put in front of the user's source for the host compiler.
#pragma once

#include "HostCompiler.h"

#include <string>

namespace kp::cpu {
extern const char* const kCudaHostHeader;

// How code behind the header is compiled: C++20 (std::atomic_ref), -fno-semantic-interposition so that
// the kernel, exported from a -fPIC library, is still inlined into its thread loop, and -fopenmp-simd for
// the thread loops BarrierSplit marks `omp simd` (a leading guard's rows: vectorised with no check that
// the arrays do not overlap, which -O2's cost model would want; the kernel's own loops keep -O2's
// model, under which a float sum stays one fused multiply-add at a time, as NVRTC computes it). The
// header is the compile's prelude (precompiled once per compiler and flags, HostCompiler), its
// diagnostics named "<kernelpad cuda built-ins>". Kernels and references alike are compiled for this
// processor (processorFlags).
inline HostCompileOptions hostKernelOptions() {
    HostCompileOptions options;
    options.flags = {"-std=c++20", "-O2", "-fno-semantic-interposition", "-fno-math-errno", "-fopenmp-simd"};
    const auto processor = processorFlags();
    options.flags.insert(options.flags.end(), processor.begin(), processor.end());
    options.prelude = std::string("#line 1 \"<kernelpad cuda built-ins>\"\n") + kCudaHostHeader;
    return options;
}
} // namespace kp::cpu
