// A launch's grid, block and dynamic shared memory, and the limits of the backend that will run it:
// what the runners launch, what the launch panel edits, and what is checked before anything runs so
// that a block of 2048 threads is a sentence, not a CUDA_ERROR_INVALID_VALUE.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kp::cuda {
struct DeviceProperties;
}

namespace kp::launch {

struct LaunchGeometry {
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::uint32_t sharedBytes = 0; // dynamic shared memory per block

    std::uint64_t threadsPerBlock() const { return std::uint64_t{block[0]} * block[1] * block[2]; }
    std::uint64_t blocks() const { return std::uint64_t{grid[0]} * grid[1] * grid[2]; }
    bool operator==(const LaunchGeometry&) const = default;
};

// "grid (16, 1, 1) x block (256, 1, 1), 0 B shared"
std::string toString(const LaunchGeometry& geometry);

struct LaunchLimits {
    std::string backend; // "NVIDIA H100 80GB HBM3", "the CPU backend": named in messages
    std::uint32_t maxThreadsPerBlock = 1024;
    std::array<std::uint32_t, 3> maxBlock{1024, 1024, 64};
    std::array<std::uint32_t, 3> maxGrid{2147483647u, 65535u, 65535u};
    std::uint64_t maxSharedBytesPerBlock = 48 * 1024; // static + dynamic, with opt-in where the device has it

    static LaunchLimits of(const cuda::DeviceProperties& device);
    // The CPU backend keeps CUDA's limits, so a launch that works there works on a GPU too.
    static LaunchLimits cpu();
    bool operator==(const LaunchLimits&) const = default;
};

// Every way `geometry` breaks `limits`, one message each, starting with "launch.block", "launch.grid"
// or "launch.shared_bytes" (the playground's JSON path). `staticSharedBytes` is the kernel's own
// __shared__ memory; `kernelMaxThreads` the kernel's limit from its registers (0: unknown).
std::vector<std::string> validate(const LaunchGeometry& geometry, const LaunchLimits& limits,
                                  std::uint64_t staticSharedBytes = 0, std::uint32_t kernelMaxThreads = 0,
                                  int registersPerThread = 0);

} // namespace kp::launch
