#include "Device.h"

#include "Driver.h"

namespace kp::cuda {

std::string DeviceProperties::arch() const { return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor); }

double DeviceProperties::peakBandwidthGBs() const {
    return 2.0 * memoryClockKHz * 1e3 * (memoryBusWidthBits / 8.0) / 1e9;
}

int Device::count() {
    int n = 0;
    KP_CU(cuDeviceGetCount, &n);
    return n;
}

Device Device::get(int ordinal) {
    const int n = count();
    if (ordinal < 0 || ordinal >= n)
        throw InputError("no CUDA device " + std::to_string(ordinal) + ": this machine has " + std::to_string(n) +
                         (n == 1 ? " device (0)" : " devices (0 to " + std::to_string(n - 1) + ")"));
    CUdevice handle = 0;
    KP_CU(cuDeviceGet, &handle, ordinal);
    return Device(ordinal, handle);
}

std::vector<Device> Device::all() {
    std::vector<Device> devices;
    for (int i = 0, n = count(); i < n; ++i) devices.push_back(get(i));
    return devices;
}

int Device::attribute(CUdevice_attribute which) const {
    int value = 0;
    KP_CU(cuDeviceGetAttribute, &value, which, handle_);
    return value;
}

DeviceProperties Device::properties() const {
    DeviceProperties p;
    p.ordinal = ordinal_;
    char name[256] = {};
    KP_CU(cuDeviceGetName, name, static_cast<int>(sizeof name), handle_);
    p.name = name;
    KP_CU(cuDeviceTotalMem, &p.totalMemory, handle_);
    p.ccMajor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    p.ccMinor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    p.multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    p.clockKHz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    p.memoryClockKHz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    p.memoryBusWidthBits = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    p.l2CacheBytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    p.maxThreadsPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    p.maxBlockDim = {attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                     attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
    p.maxGridDim = {attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                    attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
    p.sharedPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    p.sharedPerBlockOptin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    p.sharedPerMultiprocessor = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    p.registersPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    p.registersPerMultiprocessor = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    p.warpSize = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    p.maxThreadsPerMultiprocessor = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    p.maxBlocksPerMultiprocessor = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    return p;
}

std::pair<std::size_t, std::size_t> Device::memoryInfo() const {
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    KP_CU(cuMemGetInfo, &freeBytes, &totalBytes);
    return {freeBytes, totalBytes};
}

} // namespace kp::cuda
