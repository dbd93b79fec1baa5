// Runs a sweep's points (Sweep.h) on its backends and checks each against the reference, with the same
// runners as a single run (CudaRunner, the CPU backend, the C++ reference): the CLI calls it in its own
// process, the app through the worker, which sends each row back as it is measured.
#pragma once
#include "Sweep.h"
#include "SweepResult.h"
#include "core/launch/RunSetup.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kp::run {

struct SweepOptions {
    // Called after each row with the rows done so far and the number there will be.
    std::function<void(const SweepRow& row, std::size_t done, std::size_t total)> progress;
    const std::atomic<bool>* cancel = nullptr; // checked between repeats and rows
    bool check = true; // compare each row's outputs with the reference's (or, without one, the CPU backend's)
};

// The sweep's arrays, made once at the largest size each argument takes: a point gets a view of the
// leading part (its first rows, in the same memory: model::leadingView), which is what generating it
// would have given (model::generatedInIndexOrder), or zeros for out arrays and arrays without an init.
// Generating multiply_them's normal draws cost more than all its kernels in a sweep, and copying (and,
// for a GPU, page-locking) each point's part cost a second more. The arrays are made in memory a forked
// child inherits (the CPU backend's and the reference's); an allocator whose memory it does not inherit
// (a GPU's pinned memory) gets views of one copy in its own memory, made when first asked, except for out
// arrays, which nothing copies to a GPU (they stay in the host's memory). Nothing writes
// a run's input arrays, so the views are safe to share. Where the largest cannot be made (no memory for
// it), each point makes its own as before.
class SweepInputs {
public:
    explicit SweepInputs(const SweepPlan& plan); // kept by reference
    // Makes the first point's arrays at their largest size now (forPoint would on first asking), in memory
    // a forked child inherits.
    void prepare();
    // For launch::prepare of plan.points[point].
    launch::MadeArrays forPoint(std::size_t point);

private:
    const model::ArgumentSpec& spec(std::size_t point, std::size_t argument) const;
    // Arrays of `a`'s and `b`'s specs are leading parts of one array: the same init and dtype, the same
    // dimensions after the first.
    static bool sameKind(const model::ArgumentSpec& a, const model::ArgumentSpec& b);
    std::optional<model::Array> take(std::size_t point, std::size_t argument,
                                     const std::shared_ptr<model::HostAllocator>& allocator);

    // Whether an argument's arrays are zeros: out arrays and arrays without an init.
    static bool zeros(const model::ArgumentSpec& spec);

    struct Held {
        bool tried = false;
        std::shared_ptr<const model::Array> array; // at the largest size, in inherited memory
        std::shared_ptr<const model::Array> other; // the same in the other allocator's memory, when asked
        std::size_t lastUser = 0;
    };
    const SweepPlan& plan_;
    std::map<std::size_t, Held> held_; // by argument
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
