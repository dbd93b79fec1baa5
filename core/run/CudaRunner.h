// Runs a launch::RunSetup on a CUDA device, PyCUDA's whole loop in one call: compile (cached), check the
// launch against the device and the kernel, allocate, copy in, launch, copy back, with CUDA events around
// each transfer and launch. Used by the CLI, the worker and the benchmarks.
#pragma once

#include "core/cuda/CompileCache.h"
#include "core/cuda/CompileResult.h"
#include "core/cuda/Context.h"
#include "core/cuda/Device.h"
#include "core/cuda/Kernel.h"
#include "core/launch/LaunchGeometry.h"
#include "core/launch/RunResult.h"
#include "core/launch/RunSetup.h"
#include "core/launch/Runner.h"

#include <memory>

namespace kp::run {

class CudaRunner final : public launch::Runner {
public:
    // Throws cuda::Unavailable (why, in words) without a driver or device, InputError for a bad ordinal.
    explicit CudaRunner(int device = 0, cuda::CompileCache* cache = &cuda::CompileCache::user());

    const cuda::DeviceProperties& properties() const noexcept { return properties_; }
    std::string backendName() const override; // "cuda:0 NVIDIA H100 80GB HBM3"
    launch::LaunchLimits limits() const override { return launch::LaunchLimits::of(properties_); }
    // Pinned memory for launch::prepare, so that the arrays are copied without staging.
    std::shared_ptr<model::HostAllocator> allocator() const override { return allocator_; }

    // Compiles the setup's source for this device (launch::CompileError with diagnostics on failure).
    cuda::CompileResult compile(const launch::RunSetup& setup) const;
    struct Inspected {
        cuda::CompileResult compiled;
        cuda::KernelAttributes
            attributes; // registers, static shared memory, the most threads a block may have
    };
    // Compiles and loads the kernel without running it: what the launch panel's occupancy needs.
    Inspected inspect(const launch::RunSetup& setup) const;
    // Throws launch::CompileError, launch::SetupError (launch problems: block too big, shared memory over the
    // limit, more threads than the kernel's registers allow), launch::KernelFault when the kernel crashes the
    // device, CudaError for anything else the driver refuses. Device memory is freed on every path.
    launch::RunResult run(const launch::RunSetup& setup,
                          const launch::RunOptions& options = {}) const override;

private:
    cuda::Device device_;
    std::shared_ptr<cuda::Context> context_;
    cuda::DeviceProperties properties_;
    cuda::CompileCache* cache_;
    std::shared_ptr<model::HostAllocator> allocator_;
};

} // namespace kp::run
