// One run of a playground as the CLI and the worker do it, so there is one data path (architecture.md):
// prepare the arguments, run on the chosen backend, run the reference (or, for a CUDA run without one,
// the CPU backend) and check. Throws what the steps throw: InputError (and its launch::SetupError,
// launch::CompileError, launch::KernelFault), cuda::CudaError, SystemError.
#pragma once

#include "core/launch/RunResult.h"
#include "core/launch/RunSetup.h"
#include "core/model/Playground.h"
#include "core/run/Backend.h"
#include "core/run/Check.h"
#include "core/run/Reference.h"
#include "core/run/RunReport.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kp::run {

struct ExecuteOptions {
    run::Backend backend = run::Backend::cpu(); // cpu or cuda:N (run::parseRunBackend)
    int repeat = 1;
    int warmup = 0;
    bool checkBounds = false; // the CPU backend's bounds-checking mode
    const std::atomic<bool>* cancel = nullptr;
    std::shared_ptr<model::HostAllocator> resultAllocator =
        nullptr; // the CPU backend's results (default: heap)
};

struct Execution {
    launch::RunSetup setup;
    launch::RunResult result;
    std::optional<run::ReferenceResult> reference;
    bool referenceIsCpuBackend = false;
    std::string uncheckedBecause;
    std::vector<run::CheckResult> checks;

    // Points into this object: keep the Execution alive (and in place) while the report is used.
    run::RunReport report() const;
};

// The CUDA device `backend` names, or none for the CPU backend; InputError naming the backend for one a
// run cannot use (cpu:N, reference).
std::optional<int> cudaOrdinal(const run::Backend& backend);

// Throws cuda::Unavailable when the backend is CUDA and there is none here (saying why), after checking
// the playground, so that a bad playground is reported as such on any machine.
std::unique_ptr<Execution> execute(const model::Playground& playground, const ExecuteOptions& options);

} // namespace kp::run
