#include "ThreadFibers.h"

#include "BlockState.h"
#include "WarpOperations.h"
#include "core/Error.h"
#include "core/launch/KernelFault.h"

#include <bit>
#include <boost/context/fiber.hpp>
#include <cerrno>
#include <sys/mman.h>
#include <utility>

namespace kp::cpu {

namespace ctx = boost::context;

namespace {
// The fiber currently running on this OS thread keeps here where to switch back to, and the scheduler
// says here which lane it resumed.
thread_local ctx::fiber* currentSink = nullptr;
thread_local ThreadFibers::Lane* currentLane = nullptr;

constexpr std::size_t kWarp = kWarpLanes;

bool isWarpOperation(Meet what) {
    return what != Meet::Barrier && what != Meet::Active && what != Meet::Grid;
}

std::string triple(const unsigned (&v)[3]) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
}
} // namespace

// Stacks for up to the block's thread count, mapped once with a guard page each: a kernel that
// overflows its stack faults on the guard instead of writing into another thread's stack.
struct ThreadFibers::Stacks {
    std::size_t bytes;
    std::size_t pitch;
    std::byte* base = nullptr;
    std::size_t count = 0;

    explicit Stacks(std::size_t stackBytes) : bytes(stackBytes), pitch(reservedPerThread(stackBytes)) {}
    // Thread t's stack: above its guard page, its top moved by a multiple of 64 bytes plus a line.
    std::pair<std::byte*, std::size_t> stack(std::size_t t) const {
        return {base + t * pitch + 4096, bytes + (t * 1088) % kColours / 64 * 64};
    }
    ~Stacks() {
        if (base) ::munmap(base, pitch * count);
    }
    void reserve(std::size_t threads) {
        if (threads <= count) return;
        if (base) ::munmap(base, pitch * count);
        base = nullptr;
        count = 0;
        void* p = ::mmap(nullptr, pitch * threads, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            throw SystemError("mmap", errno, "fiber stacks for " + std::to_string(threads) + " threads");
        base = static_cast<std::byte*>(p);
        count = threads;
        for (std::size_t i = 0; i < threads; ++i)
            ::mprotect(base + i * pitch, 4096, PROT_NONE);
    }
};

struct ThreadFibers::Fibers {
    std::vector<ctx::fiber> fibers;
};

namespace {
// Hands Boost.Context one of the preallocated stacks; nothing is freed per fiber.
struct PreallocatedStack {
    std::byte* low;
    std::size_t size;
    ctx::stack_context allocate() {
        ctx::stack_context sc;
        sc.size = size;
        sc.sp = low + size;
        return sc;
    }
    void deallocate(ctx::stack_context&) noexcept {}
};
} // namespace

ThreadFibers::ThreadFibers(std::size_t stackBytes)
    : stacks_(std::make_unique<Stacks>(stackBytes)), fibers_(std::make_unique<Fibers>()) {}
ThreadFibers::~ThreadFibers() = default;

void ThreadFibers::meet(Meeting& meeting) {
    Lane* lane = currentLane;
    lane->meeting = &meeting;
    lane->state = State::Waiting;
    ctx::fiber* sink = currentSink;
    *sink = std::move(*sink).resume();
    currentSink = sink;
}

void ThreadFibers::run(std::size_t threads, const std::function<void(std::size_t)>& body,
                       const std::function<void()>& gridSync) {
    stacks_->reserve(threads);
    lanes_.assign(threads, Lane{});
    thrown_ = nullptr;
    auto& fibers = fibers_->fibers;
    fibers.clear();
    fibers.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        const auto [low, size] = stacks_->stack(t);
        PreallocatedStack stack{low, size};
        fibers.emplace_back(std::allocator_arg, stack, [this, t, &body](ctx::fiber&& sink) {
            currentSink = &sink;
            try {
                body(t);
            } catch (const ctx::detail::forced_unwind&) {
                throw; // the fiber is being destroyed: let Boost.Context unwind its stack
            } catch (...) {
                if (!thrown_) thrown_ = std::current_exception();
            }
            lanes_[t].state = State::Done;
            return std::move(*currentSink);
        });
    }
    // Each warp runs until all its lanes have returned or wait at __syncthreads; then the barrier opens.
    // Destroying a suspended fiber unwinds its stack, so an exception leaves nothing running.
    struct Clear {
        std::vector<ctx::fiber>& fibers;
        ~Clear() { fibers.clear(); }
    } clear{fibers};
    for (;;) {
        for (std::size_t first = 0; first < threads; first += kWarp)
            runWarp(first, std::min(threads, first + kWarp));
        std::size_t done = 0, atBarrier = 0, atGrid = 0;
        const Meeting* grid = nullptr;
        for (const auto& lane : lanes_) {
            done += lane.state == State::Done;
            const bool waiting = lane.state == State::Waiting;
            atBarrier += waiting && lane.meeting->what == Meet::Barrier;
            if (waiting && lane.meeting->what == Meet::Grid && atGrid++ == 0) grid = lane.meeting;
        }
        if (done == threads) return;
        if (done + atBarrier + atGrid < threads || (atBarrier > 0 && atGrid > 0)) stuck();
        if (grid) {
            if (!gridSync)
                throw launch::KernelFault("at " + placeOf(*grid) +
                                          ", grid.sync() needs a launch that runs every block at once");
            gridSync();
        }
        // Everyone left is at __syncthreads (whose _count, _and and _or forms give a predicate), or in
        // grid.sync(): the barrier's result is the count of non-zero predicates.
        std::uint64_t count = 0;
        for (const auto& lane : lanes_)
            count += lane.state == State::Waiting && lane.meeting->value != 0;
        for (auto& lane : lanes_)
            if (lane.state == State::Waiting) {
                lane.meeting->result = count;
                lane.state = State::Ready;
            }
    }
}

void ThreadFibers::runWarp(std::size_t first, std::size_t last) {
    auto& fibers = fibers_->fibers;
    for (;;) {
        for (std::size_t t = first; t < last; ++t) {
            Lane& lane = lanes_[t];
            if (lane.state != State::Ready) continue;
            currentLane = &lane;
            fibers[t] = std::move(fibers[t]).resume();
            if (thrown_) std::rethrow_exception(thrown_);
            if (lane.state != State::Waiting || !isWarpOperation(lane.meeting->what)) continue;
            if (!(lane.meeting->mask >> (t - first) & 1u))
                throw launch::KernelFault(leavesOutOwnLane(*lane.meeting, t));
        }
        if (!completeMeetings(first, last) && !completeActive(first, last)) return;
    }
}

// Completes every warp operation whose named lanes are all there (or have returned), with one mask.
bool ThreadFibers::completeMeetings(std::size_t first, std::size_t last) {
    const std::uint32_t present = last - first == kWarp ? ~0u : (1u << (last - first)) - 1u;
    bool progressed = false;
    for (std::size_t t = first; t < last; ++t) {
        const Lane& lane = lanes_[t];
        if (lane.state != State::Waiting || !isWarpOperation(lane.meeting->what)) continue;
        const Meeting& m = *lane.meeting;
        std::uint32_t group = 0;
        bool complete = true;
        for (std::uint32_t named = m.mask & present; named != 0 && complete; named &= named - 1) {
            const auto j = static_cast<unsigned>(std::countr_zero(named));
            const Lane& other = lanes_[first + j];
            if (other.state == State::Done) continue;
            complete = other.state == State::Waiting && other.meeting->what == m.what &&
                       other.meeting->mask == m.mask;
            group |= 1u << j;
        }
        if (!complete) continue;
        finish(first, group, m.what);
        progressed = true;
    }
    return progressed;
}

// Gives each lane of `group` its result, and lets them run on. The lanes' values are gathered once into
// an array: the operation then reads plain memory, not each lane's meeting through its pointer.
void ThreadFibers::finish(std::size_t first, std::uint32_t group, Meet what) {
    Lane* lanes = lanes_.data() + first;
    std::uint64_t values[kWarp] = {}; // lanes outside the group are never read
    int sources[kWarp] = {};
    std::uint64_t results[kWarp];
    for (std::uint32_t left = group; left != 0; left &= left - 1) {
        const auto j = static_cast<unsigned>(std::countr_zero(left));
        values[j] = lanes[j].meeting->value;
        sources[j] = lanes[j].meeting->source;
    }
    completeWarpOperation(what, group, values, sources, results);
    for (std::uint32_t left = group; left != 0; left &= left - 1) {
        const auto j = static_cast<unsigned>(std::countr_zero(left));
        if (what != Meet::SyncWarp) lanes[j].meeting->result = results[j];
        lanes[j].state = State::Ready;
    }
}

// __activemask() and coalesced_threads(), once no lane of the warp can run: the lanes that reached the
// same call are the ones active together there.
bool ThreadFibers::completeActive(std::size_t first, std::size_t last) {
    // Lanes wait at __activemask() in different places after they diverged: the lanes that took a loop's
    // `continue` are already at the next pass's top, the others still further down this pass. Only the
    // group furthest down the source (its line the largest) goes on, and the others wait: the lanes behind
    // then come round to the top and meet the ones waiting there, as a GPU reconverges them at the end of
    // the pass. Two branches of an if still answer apart, each with its own lanes.
    std::size_t furthest = last;
    for (std::size_t t = first; t < last; ++t)
        if (lanes_[t].state == State::Waiting && lanes_[t].meeting->what == Meet::Active &&
            (furthest == last || lanes_[t].meeting->line > lanes_[furthest].meeting->line))
            furthest = t;
    if (furthest == last) return false;
    const Meeting& m = *lanes_[furthest].meeting;
    std::uint32_t group = 0;
    for (std::size_t j = first; j < last; ++j) {
        const Lane& other = lanes_[j];
        if (other.state == State::Waiting && other.meeting->what == Meet::Active &&
            other.meeting->file == m.file && other.meeting->line == m.line)
            group |= 1u << (j - first);
    }
    for (std::size_t j = first; j < last; ++j)
        if (group >> (j - first) & 1u) {
            lanes_[j].meeting->result = group;
            lanes_[j].state = State::Ready;
        }
    return true;
}

std::string threadOfBlock(const unsigned (&thread)[3], const unsigned (&block)[3]) {
    return "thread " + triple(thread) + " of block " + triple(block);
}

// Every lane that is left waits, and some wait in a warp operation that cannot complete: say why.
void ThreadFibers::stuck() const {
    for (std::size_t t = 0; t < lanes_.size(); ++t) {
        const Lane& lane = lanes_[t];
        if (lane.state != State::Waiting || !isWarpOperation(lane.meeting->what)) continue;
        const Meeting& m = *lane.meeting;
        const std::size_t first = t - t % kWarp;
        for (std::size_t j = first; j < std::min(lanes_.size(), first + kWarp); ++j) {
            const Lane& other = lanes_[j];
            if (!(m.mask >> (j - first) & 1u) || other.state != State::Waiting) continue;
            const Meeting& o = *other.meeting;
            if (o.what == m.what && o.mask == m.mask) continue;
            throw launch::KernelFault(waitsFor(
                m, t, j, o.what == Meet::Barrier ? "waits at __syncthreads at " + placeOf(o) : callsWith(o)));
        }
    }
    // Otherwise some threads wait at __syncthreads and others in grid.sync().
    const auto at = [&](Meet what) {
        for (std::size_t t = 0; t < lanes_.size(); ++t)
            if (lanes_[t].state == State::Waiting && lanes_[t].meeting->what == what) return t;
        return lanes_.size();
    };
    const std::size_t barrier = at(Meet::Barrier), grid = at(Meet::Grid);
    if (barrier < lanes_.size() && grid < lanes_.size())
        throw launch::KernelFault("at " + placeOf(*lanes_[grid].meeting) + ", " + describeThread(grid) +
                                  " waits in grid.sync() while " + describeThread(barrier) +
                                  " waits at __syncthreads at " + placeOf(*lanes_[barrier].meeting) +
                                  ": every thread of the block must reach the same one");
    throw launch::KernelFault("the threads of block " + triple(kernelpad_block_state.blockIndex) +
                              " wait for each other and cannot go on");
}

} // namespace kp::cpu
