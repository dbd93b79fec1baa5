#include "GridRun.h"

#include "BlockState.h"
#include "ThreadFibers.h"
#include "core/Error.h"
#include "core/launch/KernelFault.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstring>
#include <exception>
#include <latch>
#include <mutex>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>

namespace kp::cpu {

struct GridRun::Launch {
    const Entry& entry;
    BlockExecution how;
    const launch::LaunchGeometry& g;
    void* const* pointers;
    const std::string& kernelName;
    unsigned workers; // that take part in this launch
    std::uint64_t blocks;
    std::uint64_t chunk;              // the most blocks a worker takes at a time
    GridRun::Share* shares = nullptr; // one per worker
    // A whole grid at once: one block per worker, which meet at each grid.sync().
    std::barrier<>* gridBarrier = nullptr;
    std::latch* started = nullptr;
    const std::atomic<bool>* abandon = nullptr;
    bool deferAtomics = false;
    const std::vector<PrivateCopy>* privateCopies = nullptr; // non-empty, or null
};

GridRun::GridRun(unsigned workers, std::uint64_t mostBlocks, bool wholeGrid,
                 std::function<void()> prepareWorker)
    : workers_(workers), wholeGrid_(wholeGrid), prepareWorker_(std::move(prepareWorker)),
      mostBlocks_(std::max<std::uint64_t>(mostBlocks, 1)), fiberSets_(workers), sharedMemory_(workers) {
    if (!wholeGrid_) startPool();
}

void GridRun::startPool() {
    pool_.emplace(static_cast<unsigned>(std::min<std::uint64_t>(workers_, mostBlocks_)), prepareWorker_);
}

GridRun::~GridRun() = default;

void GridRun::setDeferredAtomics(void (*flush)(void*), std::size_t tableBytes) {
    flushDeferred_ = flush;
    deferredBytes_ = tableBytes;
}

void GridRun::run(const Entry& entry, BlockExecution how, const launch::LaunchGeometry& g,
                  void* const* pointers, const std::string& kernelName, bool deferAtomics,
                  const std::vector<PrivateCopy>& privateCopies) {
    const std::uint64_t blocks = g.blocks();
    if (blocks == 1 && how != BlockExecution::Fibers &&
        !(deferAtomics && flushDeferred_ && deferredBytes_ > 0)) {
        runOneBlock(entry, how, g, pointers, kernelName); // a 4x4 array: the launch is most of its time
        return;
    }
    const bool wholeGrid = wholeGrid_ && how == BlockExecution::Fibers;
    const unsigned workers =
        wholeGrid ? static_cast<unsigned>(blocks)
                  : static_cast<unsigned>(std::min<std::uint64_t>(pool_ ? pool_->size() : workers_, blocks));
    if (fiberSets_.size() < workers) fiberSets_.resize(workers);
    if (sharedMemory_.size() < workers) sharedMemory_.resize(workers);
    if (deferredTables_.size() < workers) deferredTables_.resize(workers);
    // The most blocks a worker takes at once (takeBlocks: fewer as the grid runs out).
    constexpr std::uint64_t chunk = 64;
    Launch launch{entry, how, g, pointers, kernelName, workers, blocks, chunk};
    launch.deferAtomics = deferAtomics && flushDeferred_ && deferredBytes_ > 0;
    if (launch.deferAtomics && !wholeGrid && !privateCopies.empty()) {
        launch.privateCopies = &privateCopies;
        if (privateSets_.size() < workers) privateSets_.resize(workers);
    }
    // Merged private copies are summed once every worker is done, or one failed: the copies must be zero
    // for the next launch.
    struct Merge {
        GridRun* run;
        const Launch* launch;
        ~Merge() {
            if (launch) run->mergePrivate(*launch, false);
        }
    } merge{this, nullptr};
    if (launch.privateCopies && std::any_of(launch.privateCopies->begin(), launch.privateCopies->end(),
                                            [](const PrivateCopy& c) { return c.merged; }))
        merge.launch = &launch;
    SmallGrid* small = wholeGrid ? nullptr : smallGrid(entry, g);
    if (small && !small->shared) {
        // A small grid runs on this thread alone: waking the workers costs more than its blocks (a 4x4
        // array took 11 us on 16 cores, 0.5 us on one). Unless its blocks take longer than the wake-up:
        // its first launches are timed, and if two of them took longer (the first may be slow only for
        // its cold memory), the workers share its blocks from then on.
        launch.workers = 1;
        launch.chunk = blocks;
        divideBlocks(launch);
        if (small->timed >= kSmallGridTimings) { // decided: not timed (two clock reads per launch)
            worker(launch, 0);
            return;
        }
        const auto start = std::chrono::steady_clock::now();
        worker(launch, 0);
        ++small->timed;
        if (std::chrono::steady_clock::now() - start > kAloneAtMost) small->shared = ++small->slow >= 2;
        return;
    }
    if (!wholeGrid) {
        if (!pool_) startPool(); // a kernel of the program that does not sync its grid
        divideBlocks(launch);
        pooledSinceRouse_ = true;
        pool_->run([&](unsigned w) { worker(launch, w); });
        if (merge.launch) mergePrivate(launch, true);
        merge.launch = nullptr;
        return;
    }
    runWholeGrid(launch);
}

namespace {

// The next blocks to run from `share`, [first, first + count); count 0 when none are left. Guided: a
// quarter of what is left (at most `chunk`), fewer and fewer as the share runs out.
std::pair<std::uint64_t, std::uint64_t> takeFrom(std::atomic<std::uint64_t>& next, std::uint64_t end,
                                                 std::uint64_t chunk, bool alone) {
    std::uint64_t first = next.load(std::memory_order_relaxed);
    for (;;) {
        if (first >= end) return {first, 0};
        const std::uint64_t left = end - first;
        const std::uint64_t count =
            alone ? std::min(left, chunk) : std::clamp<std::uint64_t>(left / 4, 1, chunk);
        if (next.compare_exchange_weak(first, first + count, std::memory_order_relaxed))
            return {first, count};
    }
}

} // namespace

void GridRun::divideBlocks(Launch& launch) {
    if (shareCount_ < launch.workers) {
        shares_ = std::make_unique<Share[]>(launch.workers);
        shareCount_ = launch.workers;
    }
    // Worker w: [w * blocks / workers, (w + 1) * blocks / workers), without the product's overflow.
    const std::uint64_t each = launch.blocks / launch.workers, extra = launch.blocks % launch.workers;
    for (unsigned w = 0; w < launch.workers; ++w) {
        shares_[w].next.store(each * w + std::min<std::uint64_t>(w, extra), std::memory_order_relaxed);
        shares_[w].end = each * (w + 1) + std::min<std::uint64_t>(w + 1, extra);
    }
    launch.shares = shares_.get();
}

// Each worker starts with its own contiguous share of the grid (divideBlocks: the blocks in order, cut in
// as many pieces as there are workers), and takes from its front; once it is done, it takes from the front of
// the share with the most left. Before, the workers took turns from one counter: two workers ran neighbouring
// rows of blocks at the same time, and in transpose_naive, where the blocks of rows 8k and 8k + 8 write the
// two halves of the same cache lines, each line moved between the cores for every write (2 cores: 53 ms
// against the one-core reference's 39). A worker's own counter also stays in its own cache until the grid
// runs out.
std::pair<std::uint64_t, std::uint64_t> GridRun::takeBlocks(Launch& launch, unsigned w) {
    const bool alone = launch.workers == 1;
    if (auto taken = takeFrom(launch.shares[w].next, launch.shares[w].end, launch.chunk, alone); taken.second)
        return taken;
    for (;;) {
        unsigned most = w;
        std::uint64_t mostLeft = 0;
        for (unsigned v = 0; v < launch.workers; ++v) {
            const Share& share = launch.shares[v];
            const std::uint64_t next = share.next.load(std::memory_order_relaxed);
            if (next < share.end && share.end - next > mostLeft) {
                most = v;
                mostLeft = share.end - next;
            }
        }
        if (mostLeft == 0) return {0, 0};
        if (auto taken = takeFrom(launch.shares[most].next, launch.shares[most].end, launch.chunk, alone);
            taken.second)
            return taken;
    }
}

void GridRun::worker(Launch& launch, unsigned w) {
    if (w >= launch.workers) return; // the pool is larger than this launch's grid
    const auto& g = launch.g;
    const bool fibers = launch.how == BlockExecution::Fibers;
    if (fibers && !fiberSets_[w]) fiberSets_[w] = std::make_unique<ThreadFibers>();
    ThreadFibers* threadFibers = fibers ? fiberSets_[w].get() : nullptr;
    const auto threads = static_cast<std::size_t>(g.threadsPerBlock());
    // Blocks are taken a chunk at a time and their indices counted up, not divided out for each block:
    // with 2^16 small blocks, per-block bookkeeping showed in a memory-bound kernel's time.
    auto& state = kernelpad_block_state;
    // The worker's deferred atomics, applied once its blocks are done, or if one fails (the results of a
    // failed launch are not shown, but the next launch must start from an empty table).
    struct Flush {
        void (*flush)(void*);
        void* table;
        ~Flush() {
            if (table) flush(table);
        }
    } flush{flushDeferred_, nullptr};
    if (launch.deferAtomics) {
        auto& table = deferredTables_[w];
        if (!table) table = std::make_unique<std::byte[]>(deferredBytes_); // zeroed: every slot free
        flush.table = table.get();
    }
    // The worker's private copies, added into their buffers once its blocks are done (or one failed: the
    // copies must be zero for the next launch).
    struct FlushPrivate {
        GridRun* run;
        const Launch* launch;
        unsigned w;
        ~FlushPrivate() {
            if (launch) run->flushPrivate(*launch, w);
        }
    } flushPrivate{this, nullptr, w};
    void* const* const pointers = launch.privateCopies ? privateArguments(launch, w) : launch.pointers;
    unsigned long long privateParameters = 0;
    if (launch.privateCopies) {
        flushPrivate.launch = &launch;
        for (const PrivateCopy& copy : *launch.privateCopies)
            privateParameters |= 1ull << copy.parameter;
    }
    prepareBlocks(g, w, flush.table, privateParameters);
    const std::function<void()> gridSync =
        launch.gridBarrier ? std::function<void()>([&launch] { launch.gridBarrier->arrive_and_wait(); })
                           : nullptr;
    const auto runBlock = [&] {
        if (!threadFibers) {
            runLoopOrSplit(launch.entry, launch.how, pointers, launch.kernelName);
            return;
        }
        const auto body = [&](std::size_t t) {
            launch.entry.runThread(pointers, static_cast<unsigned>(t % g.block[0]),
                                   static_cast<unsigned>(t / g.block[0] % g.block[1]),
                                   static_cast<unsigned>(t / (std::size_t{g.block[0]} * g.block[1])));
        };
        // A block that ends, or fails, leaves the grid's meetings, so the others are never left waiting.
        struct Leave {
            std::barrier<>* grid;
            ~Leave() {
                if (grid) grid->arrive_and_drop();
            }
        } leave{launch.gridBarrier};
        try {
            threadFibers->run(threads, body, gridSync);
        } catch (const launch::KernelFault& e) {
            throw blockFault(launch.kernelName, e);
        }
    };
    if (launch.gridBarrier) { // block w, whatever the other workers do, once every worker has started
        launch.started->arrive_and_wait();
        if (*launch.abandon) return;
        state.blockIndex[0] = static_cast<std::uint32_t>(w % g.grid[0]);
        state.blockIndex[1] = static_cast<std::uint32_t>(w / g.grid[0] % g.grid[1]);
        state.blockIndex[2] = static_cast<std::uint32_t>(w / (std::uint64_t{g.grid[0]} * g.grid[1]));
        runBlock();
        return;
    }
    for (auto [first, count] = takeBlocks(launch, w); count > 0;
         std::tie(first, count) = takeBlocks(launch, w)) {
        auto x = static_cast<std::uint32_t>(first % g.grid[0]);
        auto y = static_cast<std::uint32_t>(first / g.grid[0] % g.grid[1]);
        auto z = static_cast<std::uint32_t>(first / (std::uint64_t{g.grid[0]} * g.grid[1]));
        for (std::uint64_t b = first, end = first + count; b < end; ++b) {
            state.blockIndex[0] = x;
            state.blockIndex[1] = y;
            state.blockIndex[2] = z;
            runBlock();
            if (++x == g.grid[0]) {
                x = 0;
                if (++y == g.grid[1]) {
                    y = 0;
                    ++z;
                }
            }
        }
    }
}

void GridRun::runOneBlock(const Entry& entry, BlockExecution how, const launch::LaunchGeometry& g,
                          void* const* pointers, const std::string& kernelName) {
    prepareBlocks(g, 0, nullptr);
    kernelpad_block_state.blockIndex[0] = kernelpad_block_state.blockIndex[1] =
        kernelpad_block_state.blockIndex[2] = 0;
    runLoopOrSplit(entry, how, pointers, kernelName);
}

void GridRun::runLoopOrSplit(const Entry& entry, BlockExecution how, void* const* pointers,
                             const std::string& kernelName) {
    if (how != BlockExecution::Split) {
        entry.runBlock(pointers);
        return;
    }
    try {
        entry.runThread(pointers, 0, 0, 0);  // the split kernel runs the whole block
    } catch (const launch::KernelFault& e) { // WarpExchange.h
        throw blockFault(kernelName, e);
    }
}

void* const* GridRun::privateArguments(const Launch& launch, unsigned w) {
    PrivateSet& set = privateSets_[w];
    std::uint64_t words = 0;
    for (const PrivateCopy& copy : *launch.privateCopies)
        words += (copy.bytes + 7) / 8;
    if (set.words.size() < words) set.words.resize(words, 0); // zero: flushPrivate leaves them so
    const auto parameters = static_cast<std::size_t>(launch.entry.arity());
    set.arguments.assign(launch.pointers, launch.pointers + parameters);
    std::uint64_t at = 0;
    for (const PrivateCopy& copy : *launch.privateCopies) {
        // A pointer parameter's argument is the address itself (the header's kernelpad::argument).
        set.arguments[copy.parameter] = reinterpret_cast<std::byte*>(set.words.data() + at) + copy.offset;
        at += (copy.bytes + 7) / 8;
    }
    return set.arguments.data();
}

void GridRun::flushPrivate(const Launch& launch, unsigned w) {
    PrivateSet& set = privateSets_[w];
    std::uint64_t at = 0;
    for (const PrivateCopy& copy : *launch.privateCopies) {
        // Words of eight bytes, most of them zero (a histogram's empty bins); unsigned sums wrap as the
        // kernel's adds did.
        const std::uint64_t words = (copy.bytes + 7) / 8;
        if (copy.merged) {
            at += words;
            continue;
        }
        for (std::uint64_t i = 0; i < words; ++i) {
            std::uint64_t& word = set.words[at + i];
            if (word == 0) continue;
            std::byte* const target = copy.buffer + i * 8;
            if (copy.elementBytes == 8) {
                std::atomic_ref(*reinterpret_cast<std::uint64_t*>(target))
                    .fetch_add(word, std::memory_order_relaxed);
            } else {
                std::uint32_t halves[2];
                std::memcpy(halves, &word, sizeof halves);
                for (unsigned h = 0; h < 2; ++h)
                    if (halves[h] != 0 && i * 8 + 4 * h < copy.bytes) // not the padding of an odd count
                        std::atomic_ref(*reinterpret_cast<std::uint32_t*>(target + 4 * h))
                            .fetch_add(halves[h], std::memory_order_relaxed);
            }
            word = 0;
        }
        at += words;
    }
}

void GridRun::prepareBlocks(const launch::LaunchGeometry& g, unsigned w, void* deferredAtomics,
                            unsigned long long privateParameters) {
    if (sharedMemory_.size() <= w) sharedMemory_.resize(w + 1);
    std::vector<unsigned char>& shared = sharedMemory_[w];
    if (shared.size() < std::max<std::size_t>(g.sharedBytes, 1))
        shared.resize(std::max<std::size_t>(g.sharedBytes, 1));
    // The block's built-ins live in this worker thread's state, which the kernel reads.
    auto& state = kernelpad_block_state;
    std::copy(g.grid.begin(), g.grid.end(), state.gridDimension);
    std::copy(g.block.begin(), g.block.end(), state.blockDimension);
    state.dynamicShared = shared.data();
    state.dynamicSharedBytes = g.sharedBytes;
    state.blockThreads = static_cast<unsigned>(g.threadsPerBlock());
    state.deferredAtomics = deferredAtomics;
    state.privateParameters = privateParameters;
}

void GridRun::mergePrivate(const Launch& launch, bool pooled) noexcept {
    const unsigned sets = std::min(launch.workers, static_cast<unsigned>(privateSets_.size()));
    std::vector<std::pair<const PrivateCopy*, std::uint64_t>> merged; // a copy and its first word in a set
    std::uint64_t at = 0;
    for (const PrivateCopy& copy : *launch.privateCopies) {
        if (copy.merged) merged.emplace_back(&copy, at);
        at += (copy.bytes + 7) / 8;
    }
    // Elements [from, to) of each merged buffer: the sets' values summed (unsigned: wrapping as the adds
    // did), zeroed, and added into the buffer with plain adds. Nothing else touches the buffer now: the
    // launch's blocks are done, the kernel's only uses of it were these adds, and each part is its own.
    const auto mergePart = [&](unsigned part, unsigned parts) {
        for (const auto& entry : merged) {
            const PrivateCopy* const copy = entry.first; // not a structured binding: the lambda below uses it
            const std::uint64_t first = entry.second;
            const std::uint64_t elements = copy->bytes / copy->elementBytes;
            const std::uint64_t from = elements * part / parts, to = elements * (part + 1) / parts;
            const auto sum = [&]<typename U>(U) {
                for (std::uint64_t e = from; e < to; ++e) {
                    U total = 0;
                    for (unsigned k = 0; k < sets; ++k) {
                        std::byte* const word =
                            reinterpret_cast<std::byte*>(privateSets_[k].words.data() + first) +
                            e * sizeof(U);
                        U value;
                        std::memcpy(&value, word, sizeof value);
                        if (value == 0) continue;
                        total += value;
                        std::memset(word, 0, sizeof value);
                    }
                    if (total == 0) continue;
                    std::byte* const target = copy->buffer + e * sizeof(U);
                    U now;
                    std::memcpy(&now, target, sizeof now);
                    now += total;
                    std::memcpy(target, &now, sizeof now);
                }
            };
            if (copy->elementBytes == 8)
                sum(std::uint64_t{});
            else
                sum(std::uint32_t{});
        }
    };
    if (pooled && pool_ && pool_->size() > 1) {
        try {
            pooledSinceRouse_ = true;
            pool_->run([&](unsigned w) { mergePart(w, pool_->size()); });
            return;
        } catch (...) { // mergePart throws nothing; the pool's hand-off could: the rest on this thread
        }
    }
    mergePart(0, 1);
}

launch::KernelFault GridRun::blockFault(const std::string& kernelName, const launch::KernelFault& e) {
    return launch::KernelFault("the kernel " + kernelName + " cannot go on: " + e.what());
}

GridRun::SmallGrid* GridRun::smallGrid(const Entry& entry, const launch::LaunchGeometry& g) {
    if (g.blocks() * g.threadsPerBlock() > kAloneThreads) return nullptr;
    const auto* kernel = reinterpret_cast<const void*>(entry.runThread);
    const auto found = std::find_if(smallGrids_.begin(), smallGrids_.end(), [&](const SmallGrid& s) {
        return s.kernel == kernel && s.blocks == g.blocks() && s.threads == g.threadsPerBlock();
    });
    if (found != smallGrids_.end()) return &*found;
    // Within one launch: a grid of one block, with nothing to share, is never timed.
    return &smallGrids_.emplace_back(
        SmallGrid{kernel, g.blocks(), g.threadsPerBlock(), g.blocks() == 1 ? kSmallGridTimings : 0});
}

void GridRun::runWholeGrid(Launch& launch) {
    const unsigned workers = launch.workers;
    std::barrier gridBarrier(static_cast<std::ptrdiff_t>(workers));
    std::latch started(static_cast<std::ptrdiff_t>(workers));
    std::atomic<bool> abandon{false};
    launch.gridBarrier = &gridBarrier;
    launch.started = &started;
    launch.abandon = &abandon;
    // An exception a kernel throws (new failing, a throw) ends the launch with the first one, on this
    // thread, where runContainedCode reports it; escaping a thread it would end the process.
    std::mutex failureMutex;
    std::exception_ptr failure;
    const auto guarded = [&](unsigned w) {
        try {
            if (w > 0 && prepareWorker_) prepareWorker_();
            worker(launch, w);
        } catch (...) {
            const std::lock_guard lock(failureMutex);
            if (!failure) failure = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    try {
        for (unsigned w = 1; w < workers; ++w)
            threads.emplace_back(guarded, w);
    } catch (const std::system_error& e) {
        // The system refused a thread: stop those already started (a whole grid's blocks wait for each
        // other, so none has begun) and say so, rather than end the process.
        abandon = true;
        started.count_down(static_cast<std::ptrdiff_t>(workers - threads.size()));
        for (auto& t : threads)
            t.join();
        throw Error("could not start " + std::to_string(workers) + " threads for the kernel's blocks (" +
                    e.what() + ")");
    }
    guarded(0);
    for (auto& t : threads)
        t.join();
    if (failure) std::rethrow_exception(failure);
}

} // namespace kp::cpu
