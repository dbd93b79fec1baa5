// Runs a sweep's points (Sweep.h) on its backends and checks each against the reference, with the same
// runners as a single run (CudaRunner, the CPU backend, the C++ reference): the CLI calls it in its own
// process, the app through the worker, which sends each row back as it is measured.
#pragma once
#include "Sweep.h"
#include "SweepResult.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kp::run {

struct SweepOptions {
    // Called after each row with the rows done so far and the number there will be.
    std::function<void(const SweepRow& row, std::size_t done, std::size_t total)> progress;
    const std::atomic<bool>* cancel = nullptr; // checked between repeats and rows
    bool check = true; // compare each row's outputs with the reference's (or, without one, the CPU backend's)
};

// Each CUDA device here, the CPU backend on all cores, and the reference when the playground has one.
std::vector<std::string> defaultSweepBackends(const model::Playground& playground);

// Throws what planSweep throws; launch::CompileError when the kernel or the reference does not compile, and
// cuda::Unavailable when a CUDA backend is named on a machine without one (before anything runs). A
// point that fails on one backend (a block over the limits, a fault, a host out of memory) is a row
// with its error; the sweep goes on. After a GPU fault the device is not used again: its later rows
// say so.
SweepResult runSweep(const model::Playground& playground, const SweepSpec& spec,
                     const SweepOptions& options = {});

} // namespace kp::run
