// Runs one launch's blocks on the CPU backend's workers, inside the contained child: blocks taken a chunk
// at a time by the workers of a pool kept from launch to launch, each from its own share of the grid
// first, or, for a kernel that syncs its grid, every block at once on a thread of its own. Each worker
// keeps its fibers and its shared memory between launches.
#pragma once

#include "WorkerPool.h"
#include "core/launch/KernelFault.h"
#include "core/launch/LaunchGeometry.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kp::cpu {

class ThreadFibers;

// A kernel's entry points in the compiled library (CpuRunner's generated kernelpad_run_* functions).
struct Entry {
    int (*arity)() = nullptr;
    // Bit i: parameter i may run on private copies; bit 32 + i: its adds are of 8 bytes (the header's
    // kernelpad::privateParameters).
    unsigned long long (*privateParameters)() = nullptr;
    void (*runBlock)(void* const*) = nullptr; // the block's threads in a loop
    void (*runThread)(void* const*, unsigned, unsigned,
                      unsigned) = nullptr; // one thread; a split kernel: the block
};

// A parameter a launch runs on private copies (kernelpad_cuda_host.h, "Private copies"): each worker gets a
// zeroed copy of the buffer the parameter points into and passes the kernel a pointer at the same offset in
// it; when the worker's blocks are done, what its copy holds is added into the buffer with atomics.
struct PrivateCopy {
    unsigned parameter = 0;      // its index in the kernel's parameter list (under 10)
    std::byte* buffer = nullptr; // the buffer's first byte
    std::uint64_t bytes = 0;     // the buffer's size, a multiple of elementBytes
    std::uint64_t offset = 0;    // where the parameter points, in bytes from `buffer`
    unsigned elementBytes = 4;   // the adds' type: 4 or 8 bytes, an unsigned sum either way
    // A large buffer (a histogram of 100,000 bins): its copies are not added one by one with atomics as
    // each worker ends, but summed once every worker is done, each worker a slice of the buffer
    // (GridRun::mergePrivate).
    bool merged = false;
};

// How a kernel's block runs.
enum class BlockExecution {
    Loop,  // a loop over the threads: the kernel never synchronises
    Split, // split at its barriers: one call runs the whole block
    Fibers // one fiber per thread, switching at each barrier
};

class GridRun {
public:
    // `workers` at most; `mostBlocks`, the largest grid of the program, caps the pool. A program whose
    // kernels sync their grid (`wholeGrid`) starts threads per launch instead of keeping a pool.
    // `prepareWorker` runs first on every worker thread (signal stack, denormal mode).
    GridRun(unsigned workers, std::uint64_t mostBlocks, bool wholeGrid, std::function<void()> prepareWorker);
    ~GridRun();
    GridRun(const GridRun&) = delete;
    GridRun& operator=(const GridRun&) = delete;

    // Runs every block of `g` with the kernel's parameters `pointers`; returns when all have ended. A fault
    // of a fiber-run kernel is thrown as a launch::KernelFault that names `kernelName`.
    // `deferAtomics`: the kernel's deferred atomics (DeferredAtomics.h) fold into each worker's table, which
    // is applied when the worker's blocks are done; otherwise they act at once.
    // `privateCopies` (only where `deferAtomics`, and not for a kernel that syncs its grid): parameters each
    // worker runs on a copy of.
    void run(const Entry& entry, BlockExecution how, const launch::LaunchGeometry& g, void* const* pointers,
             const std::string& kernelName, bool deferAtomics = false,
             const std::vector<PrivateCopy>& privateCopies = {});

    // The loaded library's way to apply a table of deferred atomics, and the table's size.
    void setDeferredAtomics(void (*flush)(void*), std::size_t tableBytes);

    // A launch comes soon: the workers wake now rather than when it starts (WorkerPool::rouse). Not where
    // the last round's launches all ran on this thread (one block, or a small grid run alone): the roused
    // workers would spin for nothing beside it, and on a 2-vCPU machine whose vCPUs share a core, a
    // 16x16 doublify's median time doubled.
    void rouse() {
        if (pool_ && pooledSinceRouse_) pool_->rouse();
        pooledSinceRouse_ = false;
    }

private:
    // What a worker needs to run blocks of one launch.
    struct Launch;
    void worker(Launch& launch, unsigned w);
    // Gives each of the launch's workers its share of the blocks.
    void divideBlocks(Launch& launch);
    // The next blocks worker w runs, [first, first + count); count 0 when the grid is done.
    static std::pair<std::uint64_t, std::uint64_t> takeBlocks(Launch& launch, unsigned w);
    // A grid of one block, not as fibers, its atomics acting at once: run here, without the bookkeeping of
    // sharing blocks (a 4x4 array's launch is tens of nanoseconds).
    void runOneBlock(const Entry& entry, BlockExecution how, const launch::LaunchGeometry& g,
                     void* const* pointers, const std::string& kernelName);
    // The block whose state is prepared, as a loop over its threads or as the split kernel (not fibers).
    static void runLoopOrSplit(const Entry& entry, BlockExecution how, void* const* pointers,
                               const std::string& kernelName);
    // This thread's block state for blocks of `g` on worker w (its shared memory; run() has sized the
    // per-worker vectors before any worker starts).
    void prepareBlocks(const launch::LaunchGeometry& g, unsigned w, void* deferredAtomics,
                       unsigned long long privateParameters = 0);
    // Worker w's arguments for a launch with private copies: its copies, zeroed, and the kernel's
    // parameters with the private ones pointing into them.
    void* const* privateArguments(const Launch& launch, unsigned w);
    // Adds what worker w's copies hold into their buffers and zeroes them, all but the merged ones.
    void flushPrivate(const Launch& launch, unsigned w);
    // Adds what the launch's workers' merged copies hold into their buffers and zeroes them: on the pool,
    // a slice of each buffer a worker, where `pooled`; else on this thread.
    void mergePrivate(const Launch& launch, bool pooled) noexcept;
    // A block whose threads cannot go on (a warp operation's misuse, threads waiting at different
    // barriers), said with the kernel's name.
    static launch::KernelFault blockFault(const std::string& kernelName, const launch::KernelFault& e);
    void runWholeGrid(Launch& launch);
    void startPool();
    // A small grid (kernel, blocks, threads per block: up to kAloneThreads threads) runs its blocks on the
    // calling thread alone unless its first launches showed it takes longer than waking the workers.
    struct SmallGrid {
        const void* kernel;
        std::uint64_t blocks, threads;
        int timed = 0; // launches timed so far, up to kSmallGridTimings
        int slow = 0;  // of them, those that took longer than kAloneAtMost
        bool shared = false;
    };
    SmallGrid* smallGrid(const Entry& entry, const launch::LaunchGeometry& g); // null: not small
    static constexpr std::uint64_t kAloneThreads = 16384;
    static constexpr int kSmallGridTimings = 3;
    static constexpr std::chrono::microseconds kAloneAtMost{50};

    unsigned workers_;
    bool wholeGrid_;
    bool pooledSinceRouse_ = true; // a launch since the last rouse() used the pool (the first round: assumed)
    std::function<void()> prepareWorker_;
    std::uint64_t mostBlocks_;
    std::optional<WorkerPool> pool_;
    std::vector<std::unique_ptr<ThreadFibers>> fiberSets_; // per worker, made when a kernel needs them
    std::vector<std::vector<unsigned char>> sharedMemory_; // per worker
    void (*flushDeferred_)(void*) = nullptr;
    std::size_t deferredBytes_ = 0;
    std::vector<std::unique_ptr<std::byte[]>> deferredTables_; // per worker, zeroed, made at first need
    // Per worker: its private copies (zero between launches) and the arguments it passes the kernel.
    struct PrivateSet {
        std::vector<std::uint64_t> words;
        std::vector<void*> arguments;
    };
    std::vector<PrivateSet> privateSets_;
    std::vector<SmallGrid> smallGrids_;
    // Per worker: its share of a launch's blocks, [next, end), a cache line each (takeBlocks in the .cpp).
    struct alignas(64) Share {
        std::atomic<std::uint64_t> next{0};
        std::uint64_t end = 0;
    };
    std::unique_ptr<Share[]> shares_;
    unsigned shareCount_ = 0;
};

} // namespace kp::cpu
