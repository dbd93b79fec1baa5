#include "Kernel.h"

#include "Driver.h"

namespace kp::cuda {

namespace {
int functionAttribute(CUfunction f, CUfunction_attribute which) {
    int value = 0;
    KP_CU(cuFuncGetAttribute, &value, which, f);
    return value;
}
} // namespace

KernelAttributes Kernel::attributes() const {
    KernelAttributes a;
    a.registersPerThread = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_NUM_REGS);
    a.staticSharedBytes = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    a.localBytesPerThread = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    a.constBytes = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    a.maxThreadsPerBlock = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    a.maxDynamicSharedBytes = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    a.ptxVersion = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_PTX_VERSION);
    a.binaryVersion = functionAttribute(handle_, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
    return a;
}

Occupancy Kernel::occupancy(int blockSize, std::size_t dynamicSharedBytes) const {
    Occupancy o;
    o.blockSize = blockSize;
    KP_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor, &o.activeBlocksPerMultiprocessor, handle_, blockSize,
          dynamicSharedBytes);
    CUdevice device = 0;
    KP_CU(cuCtxGetDevice, &device);
    int warpSize = 32;
    int maxThreads = 0;
    KP_CU(cuDeviceGetAttribute, &warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device);
    KP_CU(cuDeviceGetAttribute, &maxThreads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, device);
    const int warpsPerBlock = (blockSize + warpSize - 1) / warpSize;
    o.activeWarpsPerMultiprocessor = o.activeBlocksPerMultiprocessor * warpsPerBlock;
    o.maxWarpsPerMultiprocessor = maxThreads / warpSize;
    return o;
}

int Kernel::suggestedBlockSize(std::size_t dynamicSharedBytes) const {
    int minGrid = 0;
    int blockSize = 0;
    KP_CU(cuOccupancyMaxPotentialBlockSize, &minGrid, &blockSize, handle_, nullptr, dynamicSharedBytes, 0);
    return blockSize;
}

void Kernel::setMaxDynamicSharedBytes(int bytes) const {
    KP_CU(cuFuncSetAttribute, handle_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

} // namespace kp::cuda
