// A CUDA device and the attributes people need to reason about a launch (limits, memory, peak
// bandwidth). Used by the launch validation, the occupancy display and `kernelpad-cli devices`.
#pragma once

#include <array>
#include <cstddef>
#include <cuda.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kp::cuda {

struct DeviceProperties {
    int ordinal = 0;
    std::string name;
    int ccMajor = 0;
    int ccMinor = 0;
    int multiprocessors = 0;
    std::size_t totalMemory = 0; // bytes
    int clockKHz = 0;            // SM clock
    int memoryClockKHz = 0;      // peak memory clock
    int memoryBusWidthBits = 0;
    int l2CacheBytes = 0;
    int maxThreadsPerBlock = 0;
    std::array<int, 3> maxBlockDim{};
    std::array<int, 3> maxGridDim{};
    int sharedPerBlock = 0;      // bytes, without opt-in
    int sharedPerBlockOptin = 0; // bytes, the most a kernel can opt into
    int sharedPerMultiprocessor = 0;
    int registersPerBlock = 0;
    int registersPerMultiprocessor = 0;
    int warpSize = 0;
    int maxThreadsPerMultiprocessor = 0;
    int maxBlocksPerMultiprocessor = 0;

    // "sm_90": what NVRTC needs to produce a CUBIN for this device.
    std::string arch() const;
    // DRAM peak in GB/s: memory clock x 2 (double data rate) x bus width.
    double peakBandwidthGBs() const;
    // FP32 peak in GFLOP/s: a fused multiply-add (2 operations) per FP32 lane per clock on every
    // multiprocessor; 0 for an architecture whose lane count is not known here.
    double peakGflops() const;
    // FP32 lanes per multiprocessor for this compute capability, 0 where not known.
    int fp32LanesPerMultiprocessor() const;
    bool operator==(const DeviceProperties&) const = default;
};

// The properties as `kernelpad-cli devices --json` prints them and the worker sends them to the app
// (peak_bandwidth_gbs is derived, written for people, ignored on reading). fromJson throws
// nlohmann::json::exception for a missing or mistyped member.
nlohmann::json toJson(const DeviceProperties& properties);
DeviceProperties devicePropertiesFromJson(const nlohmann::json& json);

class Device {
public:
    // Number of CUDA devices; throws Unavailable when the driver cannot be used.
    static int count();
    // Throws InputError naming the ordinal and the device count when there is no such device.
    static Device get(int ordinal);
    static std::vector<Device> all();

    int ordinal() const noexcept { return ordinal_; }
    CUdevice handle() const noexcept { return handle_; }
    int attribute(CUdevice_attribute attribute) const;
    DeviceProperties properties() const;
    // Free and total device memory, in bytes; needs a current context on this device.
    std::pair<std::size_t, std::size_t> memoryInfo() const;

private:
    Device(int ordinal, CUdevice handle) : ordinal_(ordinal), handle_(handle) {}
    int ordinal_;
    CUdevice handle_;
};

} // namespace kp::cuda
