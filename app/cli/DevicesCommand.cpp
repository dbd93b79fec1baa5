#include "DevicesCommand.h"

#include "ExitCode.h"
#include "core/cuda/Device.h"
#include "core/cuda/Driver.h"
#include "core/cuda/Nvrtc.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

namespace kp::cli {

namespace {

void printDevice(const cuda::DeviceProperties& p) {
    const double gib = static_cast<double>(p.totalMemory) / (1024.0 * 1024.0 * 1024.0);
    std::cout << "cuda:" << p.ordinal << "  " << p.name << "\n"
              << std::fixed << std::setprecision(1) << "  compute capability " << p.ccMajor << "."
              << p.ccMinor << ", " << p.multiprocessors << " SMs at " << p.clockKHz / 1000 << " MHz, " << gib
              << " GiB, " << p.peakBandwidthGBs() << " GB/s peak (" << p.memoryBusWidthBits << "-bit bus)\n"
              << "  block: at most " << p.maxThreadsPerBlock << " threads, dims " << p.maxBlockDim[0] << " x "
              << p.maxBlockDim[1] << " x " << p.maxBlockDim[2] << "; grid dims " << p.maxGridDim[0] << " x "
              << p.maxGridDim[1] << " x " << p.maxGridDim[2] << "\n"
              << "  shared memory: " << p.sharedPerBlock / 1024 << " KiB per block ("
              << p.sharedPerBlockOptin / 1024 << " KiB opt-in), " << p.sharedPerMultiprocessor / 1024
              << " KiB per SM; registers: " << p.registersPerBlock << " per block, "
              << p.registersPerMultiprocessor << " per SM; warp size " << p.warpSize << "\n";
}

} // namespace

CLI::App* addDevicesCommand(CLI::App& root, DevicesCommandOptions& options) {
    auto* cmd = root.add_subcommand("devices", "List CUDA devices and their limits");
    cmd->add_flag("--json", options.json, "Print the devices as JSON");
    return cmd;
}

int runDevicesCommand(const DevicesCommandOptions& options) {
    nlohmann::json out = {{"cuda_available", cuda::Driver::available()},
                          {"devices", nlohmann::json::array()}};
    if (!cuda::Driver::available()) {
        out["cuda_unavailable_reason"] = cuda::Driver::unavailableReason();
    } else {
        out["driver_version"] = cuda::Driver::version();
        for (const auto& device : cuda::Device::all())
            out["devices"].push_back(toJson(device.properties()));
    }
    out["nvrtc"] = cuda::Nvrtc::available() ? nlohmann::json(cuda::Nvrtc::version())
                                            : nlohmann::json(cuda::Nvrtc::unavailableReason());
    if (options.json) {
        std::cout << out.dump(2) << "\n";
    } else if (!cuda::Driver::available()) {
        std::cout << "No CUDA device: " << cuda::Driver::unavailableReason() << "\n"
                  << "The CPU backend is always available.\n";
    } else {
        const int v = cuda::Driver::version();
        std::cout << "CUDA driver " << v / 1000 << "." << (v % 1000) / 10 << "\n";
        for (const auto& device : cuda::Device::all())
            printDevice(device.properties());
    }
    if (!options.json)
        std::cout << "NVRTC: "
                  << (cuda::Nvrtc::available() ? cuda::Nvrtc::version() + " (" + cuda::Nvrtc::path() + ")"
                                               : cuda::Nvrtc::unavailableReason())
                  << "\n";
    return cuda::Driver::available() ? ExitCode::Ok : ExitCode::NoBackend;
}

} // namespace kp::cli
