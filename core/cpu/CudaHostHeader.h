// The text of resources/cpu/kernelpad_cuda_host.h, compiled into kpcore (CudaHostHeader.cpp.in): what
// the CPU backend and CPU references put in front of the user's source for the host compiler.
#pragma once

#include "HostCompiler.h"

#include <string>

namespace kp::cpu {
extern const char* const kCudaHostHeader;

// How code behind the header is compiled: C++20 (std::atomic_ref), and -fno-semantic-interposition so
// that the kernel, exported from a -fPIC library, is still inlined into its thread loop. The header is the
// compile's prelude (precompiled once per compiler and flags, HostCompiler), its diagnostics named
// "<kernelpad cuda built-ins>".
inline HostCompileOptions hostKernelOptions() {
    HostCompileOptions options;
    options.flags = {"-std=c++20", "-O2", "-fno-semantic-interposition", "-fno-math-errno"};
    options.prelude = std::string("#line 1 \"<kernelpad cuda built-ins>\"\n") + kCudaHostHeader;
    return options;
}
} // namespace kp::cpu
