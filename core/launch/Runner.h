// What every backend's runner is. The CUDA runner (run/CudaRunner.h) and the CPU backend
// (cpu/CpuRunner.h) run a prepared RunSetup the same way: warm-ups, timed repeats, a cancel flag, one
// RunResult. Execute and the sweep runner hold a Runner without knowing which backend it is.
#pragma once

#include "core/launch/LaunchGeometry.h"
#include "core/launch/RunResult.h"
#include "core/launch/RunSetup.h"

#include <memory>
#include <string>

namespace kp::launch {

class Runner {
public:
    virtual ~Runner() = default;

    virtual std::string backendName() const = 0; // "cuda:0 NVIDIA H100 80GB HBM3", "cpu (16 threads)"
    virtual LaunchLimits limits() const = 0;
    // The memory prepare() should give the arrays (the CUDA runner's pinned memory: no staging copy).
    virtual std::shared_ptr<model::HostAllocator> allocator() const { return model::heapAllocator(); }
    // Throws CompileError (diagnostics), SetupError (a launch over the limits), KernelFault (the kernel
    // crashed, faulted or overran its arrays) and what the backend itself throws.
    virtual RunResult run(const RunSetup& setup, const RunOptions& options = {}) const = 0;

protected:
    Runner() = default;
    Runner(const Runner&) = default;
    Runner& operator=(const Runner&) = default;
};

} // namespace kp::launch
