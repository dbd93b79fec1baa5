// The CPU backend: runs a launch::RunSetup's CUDA kernel on the host. The .cu source is compiled by the host
// C++ compiler behind Kernelpad's header of CUDA built-ins (resources/cpu/kernelpad_cuda_host.h),
// blocks are spread over all cores, and the threads of a block run in a loop, or as fibers when the
// kernel synchronises. The same launch::RunResult as the CUDA runner, so Check, the CLI and the app use
// either.
#pragma once

#include "DeferredAtomics.h"
#include "HostCompiler.h"
#include "core/launch/LaunchGeometry.h"
#include "core/launch/Program.h"
#include "core/launch/RunResult.h"
#include "core/launch/RunSetup.h"
#include "core/launch/Runner.h"

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kp::cpu {

class ChildInputs;

class CpuRunner final : public launch::Runner {
public:
    // `workers` 0: one per core. `checkBounds`: the bounds-checking mode (array parameters are checked on
    // every index; a run with an access outside its array throws launch::KernelFault naming the array, the
    // index, the thread, the block and the source line). Kernels in that mode may only index their
    // array parameters (p[i], *p, p + i), not turn them into raw pointers.
    explicit CpuRunner(HostCompiler compiler = HostCompiler(), unsigned workers = 0,
                       bool checkBounds = false);

    // On by default: kernels run split at their barriers where they can (see BarrierSplit.h), else as
    // fibers. Off: always fibers for kernels that synchronise (tests and benchmarks compare the two).
    void setSplitAtBarriers(bool on) noexcept { splitAtBarriers_ = on; }
    // Whether atomics nobody reads during a launch are folded per worker (DeferredAtomics.h); on by
    // default, off to measure what it saves.
    void setDeferAtomics(bool on) noexcept { deferAtomics_ = on; }

    unsigned workers() const noexcept { return workers_; }
    std::string backendName() const override; // "cpu (16 threads)"
    launch::LaunchLimits limits() const override { return launch::LaunchLimits::cpu(); }

    // Precompiles the built-ins for kernels (with this processor's arithmetic flags) and for references
    // into `cacheDirectory`'s prelude folder, removing any older ones there: a build step
    // (kernelpad-worker --precompile-built-ins). False, saying why on `why`, when they were not.
    static bool precompileBuiltIns(const std::filesystem::path& cacheDirectory, std::string& why);

    // The translation unit the host compiler sees behind the built-ins (hostKernelOptions()'s prelude): the
    // user's source under #line, the entry points.
    static std::string hostSource(const launch::RunSetup& setup, bool checkBounds = false,
                                  bool deferAtomics = true);
    struct HostProgram {
        std::string text;
        struct Kernel {
            std::string notSplitBecause; // empty: split at its barriers (or not asked to be)
            int barriers = 0;
            std::vector<DeferredParameter> deferred; // parameters whose atomics are folded per worker
            int sharedAtomics = 0; // atomic calls on the kernel's own shared memory, run without a lock
            int aggregatedAtomics =
                0;                  // warp-aggregated atomicAdds run as each lane's own (undoWarpAggregation)
            int warpOperations = 0; // statements calling warp operations, where the split also cuts
            int gatheredAtomics = 0; // statements using an atomicAdd's result, also cut, gathered per warp
            int computedActiveMasks = 0; // of the warp operations, __activemask() found once per block
            int gridStrideLoops = 0;     // run in passes of the whole block
            std::string insideOut;       // a loop run around each row of threads (SplitKernel::insideOut)
        };
        std::vector<Kernel> kernels; // per kernel instance of the setup's program, when asked to split
    };
    // The same, with each kernel split at its barriers where `trySplit` and the kernel allow it.
    static HostProgram hostProgram(const launch::RunSetup& setup, bool checkBounds, bool trySplit,
                                   bool deferAtomics = true);
    // Whether the source synchronises threads of a block (then they run as fibers).
    static bool needsFibers(const std::string& source);

    struct Compiled {
        HostCompileResult
            compiled;            // ok, the library compiled (not loaded) and any warnings in the user's lines
        std::string execution;   // how its threads will run, in words
        std::vector<bool> split; // per kernel instance: split at its barriers, one call runs a whole block
        bool fibers = false; // the source synchronises: a kernel not split runs a block's threads as fibers
        std::vector<std::vector<std::size_t>>
            deferred; // per kernel instance: parameters with deferred atomics
    };
    // Compiles the setup's kernels as run() would (split at their barriers where they can), without loading
    // or running them: the editor's diagnostics for the CPU backend, safe on a file just opened. Needs only
    // launch::prepareKernel()'s fields (no arguments) unless bounds checking is on. Throws
    // launch::CompileError with diagnostics in the user's file and lines.
    Compiled compile(const launch::RunSetup& setup) const;
    // The same diagnostics sooner, as you type: the source checked (-fsyntax-only, behind the precompiled
    // built-ins), no library built; `execution` says how a run will split the kernels.
    Compiled check(const launch::RunSetup& setup) const;

    // Runs in a child process under the sandbox (cpu/ContainedRun.h): the kernel's crash, exit() or
    // stack overflow is a launch::KernelFault naming it, never this process's end, and where the sandbox is
    // needed and missing, sandbox::Unavailable.
    // Throws launch::CompileError with diagnostics in the user's file and lines, launch::SetupError for a
    // launch over the limits. "h2d" times are the copies of inputs into the kernel's working memory
    // (so that repeats start from the same inputs); "d2h" times are 0: out and inout arrays are
    // written where the results are kept, nothing is copied out.
    // In the bounds-checking mode the first violation is kept process-wide: run one such run at a time.
    launch::RunResult run(const launch::RunSetup& setup,
                          const launch::RunOptions& options = {}) const override;

private:
    // How the setup's kernels are compiled: the built-ins, its arithmetic flags, its folder's headers.
    HostCompileOptions optionsFor(const launch::RunSetup& setup) const;
    // The execution words and deferred parameters of `program`'s kernels into `out` (out.fibers set).
    void describe(Compiled& out, const HostProgram& program,
                  const std::vector<launch::KernelInstance>& kernels, bool splitCompiled) const;
    struct Loaded {
        std::filesystem::path library;
        std::vector<bool> split;                        // per kernel instance
        std::vector<std::vector<std::size_t>> deferred; // per kernel instance, parameter indices
        bool fibers = false;
        bool wholeGrid = false;      // the kernel syncs its grid: every block at once, on a thread of its own
        bool flushDenormals = false; // --ftz=true or -use_fast_math
        std::uint64_t* operation = nullptr; // where the child notes the operation it is at (shared memory)
    };
    // In the contained child: loads the kernel and runs the repeats, writing the results into `outputs`
    // (memory shared with the parent). The answer holds the timings.
    nlohmann::json runLoaded(const launch::RunSetup& setup, const launch::Program& program,
                             const launch::RunOptions& options, const Loaded& loaded,
                             const ChildInputs& inputs, launch::NamedArrays& outputs,
                             const std::atomic<bool>& cancel) const;

    HostCompiler compiler_;
    unsigned workers_;
    bool checkBounds_;
    bool splitAtBarriers_ = true;
    bool deferAtomics_ = true;
};

} // namespace kp::cpu
