#include "LaunchGeometry.h"

#include "core/cuda/Device.h"

#include <algorithm>

namespace kp::launch {

namespace {

std::string triple(const std::array<std::uint32_t, 3>& v) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
}

std::string bytesText(std::uint64_t bytes) {
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " B";
}

constexpr const char* kAxis[3] = {"x", "y", "z"};

} // namespace

std::string toString(const LaunchGeometry& geometry) {
    return "grid " + triple(geometry.grid) + " x block " + triple(geometry.block) + ", " +
           bytesText(geometry.sharedBytes) + " dynamic shared";
}

LaunchLimits LaunchLimits::of(const cuda::DeviceProperties& device) {
    LaunchLimits limits;
    limits.backend = device.name;
    limits.maxThreadsPerBlock = static_cast<std::uint32_t>(device.maxThreadsPerBlock);
    for (std::size_t axis = 0; axis < 3; ++axis) {
        limits.maxBlock[axis] = static_cast<std::uint32_t>(device.maxBlockDim[axis]);
        limits.maxGrid[axis] = static_cast<std::uint32_t>(device.maxGridDim[axis]);
    }
    limits.maxSharedBytesPerBlock =
        static_cast<std::uint64_t>(std::max(device.sharedPerBlockOptin, device.sharedPerBlock));
    return limits;
}

LaunchLimits LaunchLimits::cpu() {
    LaunchLimits limits;
    limits.backend = "the CPU backend";
    return limits;
}

std::vector<std::string> validate(const LaunchGeometry& geometry, const LaunchLimits& limits,
                                  std::uint64_t staticSharedBytes, std::uint32_t kernelMaxThreads,
                                  int registersPerThread) {
    std::vector<std::string> problems;
    for (std::size_t axis = 0; axis < 3; ++axis) {
        if (geometry.block[axis] == 0)
            problems.push_back(std::string("launch.block: the ") + kAxis[axis] +
                               " dimension is 0; every dimension of a block must be at least 1");
        else if (geometry.block[axis] > limits.maxBlock[axis])
            problems.push_back(std::string("launch.block: ") + kAxis[axis] + " = " +
                               std::to_string(geometry.block[axis]) + " is over " + limits.backend +
                               "'s limit of " + std::to_string(limits.maxBlock[axis]) +
                               " for that dimension");
        if (geometry.grid[axis] == 0)
            problems.push_back(std::string("launch.grid: the ") + kAxis[axis] +
                               " dimension is 0; every dimension of a grid must be at least 1");
        else if (geometry.grid[axis] > limits.maxGrid[axis])
            problems.push_back(std::string("launch.grid: ") + kAxis[axis] + " = " +
                               std::to_string(geometry.grid[axis]) + " is over " + limits.backend +
                               "'s limit of " + std::to_string(limits.maxGrid[axis]) +
                               " blocks for that dimension");
    }
    const std::uint64_t threads = geometry.threadsPerBlock();
    const bool blockDimensionReported = std::any_of(
        problems.begin(), problems.end(), [](const std::string& p) { return p.starts_with("launch.block"); });
    if (blockDimensionReported) {
        // One message per mistake: a dimension over its limit is also too many threads.
    } else if (threads > limits.maxThreadsPerBlock)
        problems.push_back("launch.block: " + triple(geometry.block) + " is " + std::to_string(threads) +
                           " threads per block; " + limits.backend + " allows at most " +
                           std::to_string(limits.maxThreadsPerBlock));
    else if (kernelMaxThreads > 0 && threads > kernelMaxThreads)
        problems.push_back(
            "launch.block: " + triple(geometry.block) + " is " + std::to_string(threads) +
            " threads per block, but this kernel can launch at most " + std::to_string(kernelMaxThreads) +
            (registersPerThread > 0
                 ? " because it uses " + std::to_string(registersPerThread) + " registers per thread"
                 : std::string()));
    const std::uint64_t shared = staticSharedBytes + geometry.sharedBytes;
    if (shared > limits.maxSharedBytesPerBlock)
        problems.push_back(
            "launch.shared_bytes: " + bytesText(geometry.sharedBytes) + " dynamic" +
            (staticSharedBytes ? " + " + bytesText(staticSharedBytes) + " static" : std::string()) +
            " shared memory per block is over " + limits.backend + "'s limit of " +
            bytesText(limits.maxSharedBytesPerBlock));
    return problems;
}

} // namespace kp::launch
