// Compiles a playground's kernel without running it, for the editor and the launch panel: the compiler's
// warnings, the kernel's real attributes (registers, static shared memory) and the device's limits. The
// worker answers the app's "inspect" requests with it, so that compiling as you type never loads CUDA
// into the app and a compiler that crashes takes only the worker down.
#pragma once

#include "core/cuda/Device.h"
#include "core/cuda/Kernel.h"
#include "core/launch/LaunchGeometry.h"
#include "core/model/Diagnostic.h"
#include "core/model/Playground.h"
#include "core/run/Backend.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kp::run {

struct Inspection {
    std::string backend;                              // "cuda:0 NVIDIA H100 80GB HBM3", "cpu (16 threads)"
    std::vector<model::Diagnostic> diagnostics;       // warnings and notes of a kernel that compiled
    std::optional<cuda::KernelAttributes> attributes; // CUDA only
    std::optional<cuda::DeviceProperties> device;     // CUDA only
    launch::LaunchLimits limits;
    std::string execution; // the CPU backend: how the threads of a block will run
    double compileMs = 0;

    nlohmann::json toJson() const;
    // Throws InputError naming the member that is missing or of the wrong type.
    static Inspection fromJson(const nlohmann::json& json);
    bool operator==(const Inspection&) const = default;
};

// Throws what compiling throws: launch::CompileError (diagnostics), launch::SetupError (no such kernel),
// InputError (a bad backend, an unreadable source), cuda::Unavailable (CUDA asked for, none here).
Inspection inspect(const model::Playground& playground, const run::Backend& backend);

} // namespace kp::run
