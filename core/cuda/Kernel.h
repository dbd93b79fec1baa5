// A __global__ function in a loaded Module, with the attributes the launch panel shows (registers,
// shared and local memory) and its occupancy for a block size. A light handle: the Module owns it.
#pragma once

#include <cuda.h>
#include <string>

namespace kp::cuda {

struct KernelAttributes {
    int registersPerThread = 0;
    int staticSharedBytes = 0;
    int localBytesPerThread = 0;
    int constBytes = 0;
    int maxThreadsPerBlock = 0; // the most this kernel can launch with, given its registers
    int maxDynamicSharedBytes = 0;
    int ptxVersion = 0; // e.g. 90 for 9.0
    int binaryVersion = 0;
    bool operator==(const KernelAttributes&) const = default;
};

struct Occupancy {
    int blockSize = 0;
    int activeBlocksPerMultiprocessor = 0;
    int activeWarpsPerMultiprocessor = 0;
    int maxWarpsPerMultiprocessor = 0;
    // Active warps over the most an SM can hold, 0..1.
    double ratio() const {
        return maxWarpsPerMultiprocessor ? double(activeWarpsPerMultiprocessor) / maxWarpsPerMultiprocessor
                                         : 0.0;
    }
    bool operator==(const Occupancy&) const = default;
};

class Kernel {
public:
    Kernel(CUfunction handle, std::string name) : handle_(handle), name_(std::move(name)) {}

    CUfunction handle() const noexcept { return handle_; }
    const std::string& name() const noexcept { return name_; }
    KernelAttributes attributes() const;
    // For the device of the current context.
    Occupancy occupancy(int blockSize, std::size_t dynamicSharedBytes = 0) const;
    // The block size that maximises occupancy (cuOccupancyMaxPotentialBlockSize).
    int suggestedBlockSize(std::size_t dynamicSharedBytes = 0) const;
    // Lets the kernel use more than 48 KiB of dynamic shared memory (up to the device's opt-in limit).
    void setMaxDynamicSharedBytes(int bytes) const;

private:
    CUfunction handle_;
    std::string name_;
};

} // namespace kp::cuda
