#include "Device.h"

#include "Driver.h"

namespace kp::cuda {

std::string DeviceProperties::arch() const {
    return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
}

double DeviceProperties::peakBandwidthGBs() const {
    return 2.0 * memoryClockKHz * 1e3 * (memoryBusWidthBits / 8.0) / 1e9;
}

int DeviceProperties::fp32LanesPerMultiprocessor() const {
    // From the CUDA C++ Programming Guide's table of arithmetic throughput per multiprocessor.
    switch (ccMajor) {
    case 5:
        return 128;
    case 6:
        return ccMinor == 0 ? 64 : 128;
    case 7:
        return 64;
    case 8:
        return ccMinor == 0 ? 64 : 128;
    case 9:
    case 10:
    case 11:
    case 12:
        return 128;
    default:
        return 0;
    }
}

double DeviceProperties::peakGflops() const {
    return 2.0 * fp32LanesPerMultiprocessor() * multiprocessors * (clockKHz * 1e3) / 1e9;
}

int Device::count() {
    int n = 0;
    KP_CU(cuDeviceGetCount, &n);
    return n;
}

Device Device::get(int ordinal) {
    const int n = count();
    if (ordinal < 0 || ordinal >= n)
        throw InputError("no CUDA device " + std::to_string(ordinal) + ": this machine has " +
                         std::to_string(n) +
                         (n == 1 ? " device (0)" : " devices (0 to " + std::to_string(n - 1) + ")"));
    CUdevice handle = 0;
    KP_CU(cuDeviceGet, &handle, ordinal);
    return Device(ordinal, handle);
}

std::vector<Device> Device::all() {
    std::vector<Device> devices;
    for (int i = 0, n = count(); i < n; ++i)
        devices.push_back(get(i));
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
    p.maxBlockDim = {attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                     attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                     attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
    p.maxGridDim = {attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                    attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
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

nlohmann::json toJson(const DeviceProperties& p) {
    return {{"ordinal", p.ordinal},
            {"name", p.name},
            {"compute_capability", std::to_string(p.ccMajor) + "." + std::to_string(p.ccMinor)},
            {"multiprocessors", p.multiprocessors},
            {"total_memory_bytes", p.totalMemory},
            {"clock_khz", p.clockKHz},
            {"memory_clock_khz", p.memoryClockKHz},
            {"memory_bus_width_bits", p.memoryBusWidthBits},
            {"peak_bandwidth_gbs", p.peakBandwidthGBs()},
            {"peak_gflops", p.peakGflops()},
            {"l2_cache_bytes", p.l2CacheBytes},
            {"max_threads_per_block", p.maxThreadsPerBlock},
            {"max_block_dim", p.maxBlockDim},
            {"max_grid_dim", p.maxGridDim},
            {"shared_per_block", p.sharedPerBlock},
            {"shared_per_block_optin", p.sharedPerBlockOptin},
            {"shared_per_multiprocessor", p.sharedPerMultiprocessor},
            {"registers_per_block", p.registersPerBlock},
            {"registers_per_multiprocessor", p.registersPerMultiprocessor},
            {"warp_size", p.warpSize},
            {"max_threads_per_multiprocessor", p.maxThreadsPerMultiprocessor},
            {"max_blocks_per_multiprocessor", p.maxBlocksPerMultiprocessor}};
}

DeviceProperties devicePropertiesFromJson(const nlohmann::json& j) {
    DeviceProperties d;
    d.ordinal = j.at("ordinal").get<int>();
    d.name = j.at("name").get<std::string>();
    const auto cc = j.at("compute_capability").get<std::string>();
    const auto dot = cc.find('.');
    if (dot == std::string::npos)
        throw nlohmann::json::other_error::create(501, "compute_capability \"" + cc + "\" is not MAJOR.MINOR",
                                                  &j);
    d.ccMajor = std::stoi(cc.substr(0, dot));
    d.ccMinor = std::stoi(cc.substr(dot + 1));
    d.multiprocessors = j.at("multiprocessors").get<int>();
    d.totalMemory = j.at("total_memory_bytes").get<std::size_t>();
    d.clockKHz = j.at("clock_khz").get<int>();
    d.memoryClockKHz = j.at("memory_clock_khz").get<int>();
    d.memoryBusWidthBits = j.at("memory_bus_width_bits").get<int>();
    d.l2CacheBytes = j.at("l2_cache_bytes").get<int>();
    d.maxThreadsPerBlock = j.at("max_threads_per_block").get<int>();
    d.maxBlockDim = j.at("max_block_dim").get<std::array<int, 3>>();
    d.maxGridDim = j.at("max_grid_dim").get<std::array<int, 3>>();
    d.sharedPerBlock = j.at("shared_per_block").get<int>();
    d.sharedPerBlockOptin = j.at("shared_per_block_optin").get<int>();
    d.sharedPerMultiprocessor = j.at("shared_per_multiprocessor").get<int>();
    d.registersPerBlock = j.at("registers_per_block").get<int>();
    d.registersPerMultiprocessor = j.at("registers_per_multiprocessor").get<int>();
    d.warpSize = j.at("warp_size").get<int>();
    d.maxThreadsPerMultiprocessor = j.at("max_threads_per_multiprocessor").get<int>();
    d.maxBlocksPerMultiprocessor = j.at("max_blocks_per_multiprocessor").get<int>();
    return d;
}

} // namespace kp::cuda
