// Occupancy without a GPU call: how many blocks of a launch one SM holds at once and what stops it holding
// more. The launch panel updates it as the user types a block size; it follows CUDA's occupancy rules
// (cuda_occupancy.h), which cuOccupancyMaxActiveBlocksPerMultiprocessor agrees with
// (tests/cuda/tst_occupancy).
#pragma once

#include <cstdint>
#include <string>

namespace kp::cuda {
struct DeviceProperties;
}

namespace kp::run {

// The per-architecture allocation rules DeviceProperties does not report, by compute capability.
struct OccupancyRules {
    int registerAllocationUnit = 256; // registers, per warp
    int sharedAllocationUnit = 128;   // bytes, per block
    int reservedSharedPerBlock = 0;   // bytes the driver keeps in every block's shared memory
    int maxRegistersPerThread = 255;
    int subPartitions = 4; // each holds a quarter of the SM's registers

    bool operator==(const OccupancyRules&) const = default;
};

OccupancyRules occupancyRules(int ccMajor, int ccMinor);

// What bounds the blocks resident on an SM. When several bound it equally the first in this order is
// named: an SM full of threads is as good as it gets, and the block count follows from the block size.
enum class OccupancyLimit { Warps, Blocks, Registers, SharedMemory };

struct OccupancyEstimate {
    int activeBlocksPerMultiprocessor = 0;
    int activeWarpsPerMultiprocessor = 0;
    int maxWarpsPerMultiprocessor = 0;
    OccupancyLimit limit = OccupancyLimit::Warps;
    // "registers: 64 per thread allow 4 blocks of 256 threads per SM"; when not one block fits, why not.
    std::string reason;
    // Blocks per SM each resource alone allows.
    int blocksByWarps = 0;
    int blocksByBlocks = 0;
    int blocksByRegisters = 0;
    int blocksBySharedMemory = 0;
    std::uint64_t sharedBytesPerBlock = 0; // as allocated: static + dynamic + reserved, rounded up

    // Active warps over the most an SM can hold, 0..1.
    double ratio() const {
        return maxWarpsPerMultiprocessor ? double(activeWarpsPerMultiprocessor) / maxWarpsPerMultiprocessor
                                         : 0.0;
    }
    bool operator==(const OccupancyEstimate&) const = default;
};

// The launch's occupancy on `device` for a kernel using `registersPerThread` and `staticSharedBytes`,
// assuming the default shared memory carveout and, above 48 KiB, the opt-in the runners set (CudaRunner).
// Throws InputError when `device` lacks the properties it needs (an SM's threads, registers, shared memory).
OccupancyEstimate estimateOccupancy(const cuda::DeviceProperties& device, int registersPerThread,
                                    std::uint64_t staticSharedBytes, std::uint64_t dynamicSharedBytes,
                                    std::uint64_t threadsPerBlock);

} // namespace kp::run
