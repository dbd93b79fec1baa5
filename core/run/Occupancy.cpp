#include "Occupancy.h"

#include "core/Bytes.h"
#include "core/Error.h"
#include "core/cuda/Device.h"

#include <algorithm>
#include <climits>

namespace kp::run {

namespace {

std::uint64_t roundUp(std::uint64_t value, std::uint64_t unit) {
    return (value + unit - 1) / unit * unit;
}

int clampToInt(std::uint64_t value) {
    return static_cast<int>(std::min<std::uint64_t>(value, INT_MAX));
}

std::string blocksOf(int blocks, std::uint64_t threads) {
    return std::to_string(blocks) + (blocks == 1 ? " block of " : " blocks of ") + std::to_string(threads) +
           " threads per SM";
}

void requireProperties(const cuda::DeviceProperties& device) {
    if (device.warpSize <= 0 || device.maxThreadsPerMultiprocessor <= 0 || device.maxThreadsPerBlock <= 0 ||
        device.registersPerMultiprocessor <= 0 || device.registersPerBlock <= 0 ||
        device.sharedPerMultiprocessor <= 0 || device.maxBlocksPerMultiprocessor <= 0)
        throw InputError("occupancy of " + (device.name.empty() ? std::string("this device") : device.name) +
                         ": its properties lack the SM's threads, registers, shared memory or blocks");
}

// The resource that gives `blocks`, in OccupancyLimit's order of preference.
OccupancyLimit limitOf(const OccupancyEstimate& e, int blocks) {
    if (e.blocksByWarps == blocks) return OccupancyLimit::Warps;
    if (e.blocksByBlocks == blocks) return OccupancyLimit::Blocks;
    if (e.blocksByRegisters == blocks) return OccupancyLimit::Registers;
    return OccupancyLimit::SharedMemory;
}

} // namespace

// NVIDIA documents these per architecture (CUDA C++ Programming Guide, "Technical Specifications per
// Compute Capability", and cuda_occupancy.h), not as device attributes. Ampere (sm_80) started reserving
// 1 KiB of shared memory per block for the driver and halved the shared allocation unit; Volta raised the
// register limit to 256; GP100 (sm_60) alone splits its SM in two.
OccupancyRules occupancyRules(int ccMajor, int ccMinor) {
    OccupancyRules rules;
    rules.registerAllocationUnit = 256;
    rules.sharedAllocationUnit = ccMajor >= 8 ? 128 : 256;
    rules.reservedSharedPerBlock = ccMajor >= 8 ? 1024 : 0;
    rules.maxRegistersPerThread = ccMajor >= 7 ? 256 : 255;
    rules.subPartitions = ccMajor == 6 && ccMinor == 0 ? 2 : 4;
    return rules;
}

OccupancyEstimate estimateOccupancy(const cuda::DeviceProperties& device, int registersPerThread,
                                    std::uint64_t staticSharedBytes, std::uint64_t dynamicSharedBytes,
                                    std::uint64_t threadsPerBlock) {
    requireProperties(device);
    const OccupancyRules rules = occupancyRules(device.ccMajor, device.ccMinor);
    const auto warpSize = static_cast<std::uint64_t>(device.warpSize);
    const std::uint64_t warpsPerBlock = (threadsPerBlock + warpSize - 1) / warpSize;
    const auto registers = static_cast<std::uint64_t>(std::max(registersPerThread, 0));

    OccupancyEstimate e;
    e.maxWarpsPerMultiprocessor = device.maxThreadsPerMultiprocessor / device.warpSize;

    // Threads: an SM holds a fixed number of warps; a partial warp takes a whole one.
    const bool blockFits = threadsPerBlock > 0 && threadsPerBlock <= std::uint64_t(device.maxThreadsPerBlock);
    e.blocksByWarps = blockFits ? clampToInt(std::uint64_t(e.maxWarpsPerMultiprocessor) / warpsPerBlock) : 0;
    e.blocksByBlocks = device.maxBlocksPerMultiprocessor;

    // Registers go to warps in allocation units, and each sub-partition of the SM holds its own share of
    // them: a warp cannot straddle two. A block must also fit the per-block register file, which the
    // hardware checks as if its warps were spread evenly over the sub-partitions.
    const std::uint64_t registersPerWarp =
        roundUp(registers * warpSize, std::uint64_t(rules.registerAllocationUnit));
    const std::uint64_t subPartitions = std::uint64_t(rules.subPartitions);
    const std::uint64_t registersChecked = registersPerWarp * roundUp(warpsPerBlock, subPartitions);
    const bool registersFit = registers <= std::uint64_t(rules.maxRegistersPerThread) &&
                              registersChecked <= std::uint64_t(device.registersPerBlock);
    if (!registersFit || warpsPerBlock == 0)
        e.blocksByRegisters = 0;
    else if (registersPerWarp == 0)
        e.blocksByRegisters = INT_MAX;
    else
        e.blocksByRegisters =
            clampToInt((std::uint64_t(device.registersPerMultiprocessor) / subPartitions / registersPerWarp) *
                       subPartitions / warpsPerBlock);

    // Shared memory: the driver's reserve joins the kernel's, rounded up to the allocation unit. With the
    // default carveout the whole of the SM's shared memory is available to blocks.
    const std::uint64_t sharedUsed =
        staticSharedBytes + dynamicSharedBytes + std::uint64_t(rules.reservedSharedPerBlock);
    e.sharedBytesPerBlock = roundUp(sharedUsed, std::uint64_t(rules.sharedAllocationUnit));
    const auto sharedPerBlockLimit =
        std::uint64_t(std::max(device.sharedPerBlockOptin, device.sharedPerBlock)) +
        std::uint64_t(rules.reservedSharedPerBlock);
    if (e.sharedBytesPerBlock > sharedPerBlockLimit)
        e.blocksBySharedMemory = 0;
    else if (e.sharedBytesPerBlock == 0)
        e.blocksBySharedMemory = INT_MAX;
    else
        e.blocksBySharedMemory =
            clampToInt(std::uint64_t(device.sharedPerMultiprocessor) / e.sharedBytesPerBlock);

    const int blocks =
        std::min({e.blocksByWarps, e.blocksByBlocks, e.blocksByRegisters, e.blocksBySharedMemory});
    e.activeBlocksPerMultiprocessor = blocks;
    e.activeWarpsPerMultiprocessor = clampToInt(std::uint64_t(blocks) * warpsPerBlock);
    e.limit = limitOf(e, blocks);

    const std::string allow = " allow " + blocksOf(blocks, threadsPerBlock);
    switch (e.limit) {
    case OccupancyLimit::Warps:
        if (threadsPerBlock == 0)
            e.reason = "threads: a block needs at least one thread";
        else if (!blockFits)
            e.reason = "threads: a block of " + std::to_string(threadsPerBlock) + " threads is over the " +
                       std::to_string(device.maxThreadsPerBlock) + " a block can have";
        else
            e.reason = "threads: " + std::to_string(device.maxThreadsPerMultiprocessor) + " per SM" + allow;
        break;
    case OccupancyLimit::Blocks:
        e.reason = "blocks: at most " + std::to_string(device.maxBlocksPerMultiprocessor) +
                   " per SM, here of " + std::to_string(threadsPerBlock) + " threads each";
        break;
    case OccupancyLimit::Registers:
        if (registers > std::uint64_t(rules.maxRegistersPerThread))
            e.reason = "registers: " + std::to_string(registers) + " per thread is over the " +
                       std::to_string(rules.maxRegistersPerThread) + " a thread can have";
        else if (blocks == 0)
            e.reason = "registers: " + std::to_string(registers) + " per thread need " +
                       std::to_string(registersChecked) + " for a block of " +
                       std::to_string(threadsPerBlock) + " threads, over the " +
                       std::to_string(device.registersPerBlock) + " a block can have";
        else
            e.reason = "registers: " + std::to_string(registers) + " per thread" + allow;
        break;
    case OccupancyLimit::SharedMemory:
        if (blocks == 0)
            e.reason = "shared memory: " + humanBytes(double(staticSharedBytes + dynamicSharedBytes)) +
                       " per block is over the " +
                       humanBytes(double(sharedPerBlockLimit - std::uint64_t(rules.reservedSharedPerBlock))) +
                       " a block can have";
        else
            e.reason = "shared memory: " + humanBytes(double(e.sharedBytesPerBlock)) + " per block" +
                       (rules.reservedSharedPerBlock ? " (" + humanBytes(rules.reservedSharedPerBlock) +
                                                           " of it reserved by the driver)"
                                                     : std::string()) +
                       ", of " + humanBytes(device.sharedPerMultiprocessor) + " per SM," + allow;
        break;
    }
    return e;
}

} // namespace kp::run
