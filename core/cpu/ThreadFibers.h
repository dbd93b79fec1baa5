// Runs the threads of one CUDA block on one OS thread as fibers (Boost.Context), so that __syncthreads
// and the warp operations are switches between threads rather than locks. Used by the CPU backend only
// for kernels that synchronise; the others run their threads in a plain loop. One ThreadFibers per
// worker thread, reused block after block.
//
// The warp model is CUDA's: the 32 lanes of a warp run together, and a warp operation (shuffle, vote,
// match, reduce, __syncwarp) completes when every lane its mask names that has not returned has
// reached one, with the same mask; lanes outside the mask run on, also in divergent branches. Warps do
// not wait for each other except at __syncthreads. What CUDA leaves undefined and would hang or compute
// garbage on a GPU (a lane calling with a mask that leaves itself out, a lane named in the mask waiting
// at another operation or at __syncthreads) stops the run with a message naming the lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kp::cpu {

// What a thread does when it meets others; the kernel's side is kernelpad::Meet in
// resources/cpu/kernelpad_cuda_host.h, with the same values.
enum class Meet : unsigned {
    Barrier,
    SyncWarp,
    ShuffleIndex,
    ShuffleUp,
    ShuffleDown,
    ShuffleXor,
    Ballot,
    Any,
    All,
    MatchAny,
    MatchAll,
    Active,
    ReduceAdd,
    ReduceMinSigned,
    ReduceMinUnsigned,
    ReduceMaxSigned,
    ReduceMaxUnsigned,
    ReduceAnd,
    ReduceOr,
    ReduceXor,
    Grid, // grid.sync(): every thread of the block, then every block
};

// One thread's side of a meeting, on that thread's stack while it waits; the layout is
// kernelpad::Meeting's in the kernel's header.
struct Meeting {
    Meet what;
    unsigned mask;        // the lanes named (warp operations)
    std::uint64_t value;  // what the thread contributes, zero-extended
    int source;           // shuffles: the lane (0 to 31) the thread reads, or -1 for its own value
    unsigned line;        // where the kernel calls it
    const char* function; // "__shfl_down_sync", for messages
    const char* file;
    std::uint64_t result; // filled in when the meeting completes
};

// "thread (3, 0, 0) of block (1, 0, 0)", as the CPU backend's messages name a thread.
std::string threadOfBlock(const unsigned (&thread)[3], const unsigned (&block)[3]);

class ThreadFibers {
public:
    static constexpr std::size_t kStackBytes = 256 * 1024;
    // Each stack's top is moved by up to kColours bytes: with stacks a round number of pages apart, the
    // tops of a warp's 32 stacks, where fibers switch, would share cache sets and evict each other.
    static constexpr std::size_t kColours = 64 * 1024;
    // The address space one thread's fiber takes: its stack, a guard page and the colours.
    static constexpr std::size_t reservedPerThread(std::size_t stackBytes = kStackBytes) {
        return stackBytes + 4096 + kColours;
    }

    // Each fiber gets `stackBytes` of stack, reserved once and reused for every block.
    explicit ThreadFibers(std::size_t stackBytes = kStackBytes);
    ~ThreadFibers();
    ThreadFibers(const ThreadFibers&) = delete;
    ThreadFibers& operator=(const ThreadFibers&) = delete;

    // Runs body(t) for t in [0, threads) as fibers until all of them return. Throws launch::KernelFault
    // when the threads cannot go on (see above), and what a thread throws. When every thread that has not
    // returned waits in grid.sync(), `gridSync` is called (it waits for the grid's other blocks) and they
    // go on; without one, grid.sync() is refused.
    void run(std::size_t threads, const std::function<void(std::size_t)>& body,
             const std::function<void()>& gridSync = {});

    // For the kernel's barriers and warp operations: called from inside a fiber of run(); returns when
    // the meeting is complete, with meeting.result filled in.
    static void meet(Meeting& meeting);

    enum class State : std::uint8_t { Ready, Waiting, Done };
    struct Lane {
        State state = State::Ready;
        Meeting* meeting = nullptr;
    };

private:
    void runWarp(std::size_t first, std::size_t last);
    bool completeMeetings(std::size_t first, std::size_t last);
    void finish(std::size_t first, std::uint32_t group, Meet what);
    bool completeActive(std::size_t first, std::size_t last);
    [[noreturn]] void stuck() const;

    struct Stacks;
    std::unique_ptr<Stacks> stacks_;
    struct Fibers;
    std::unique_ptr<Fibers> fibers_;
    std::vector<Lane> lanes_;
    std::exception_ptr thrown_;
};

} // namespace kp::cpu
