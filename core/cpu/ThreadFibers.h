// Runs the threads of one CUDA block on one OS thread as fibers (Boost.Context), so that __syncthreads
// is a switch to the next thread rather than a lock: every thread runs up to the barrier, then every
// thread runs on to the next one. Used by the CPU backend only for kernels that synchronise; the others
// run their threads in a plain loop. One ThreadFibers per worker thread, reused block after block.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace kp::cpu {

class ThreadFibers {
public:
    // Each fiber gets `stackBytes` of stack, reserved once and reused for every block.
    explicit ThreadFibers(std::size_t stackBytes = 256 * 1024);
    ~ThreadFibers();
    ThreadFibers(const ThreadFibers&) = delete;
    ThreadFibers& operator=(const ThreadFibers&) = delete;

    // Runs body(t) for t in [0, threads) as fibers until all of them return; a fiber that calls
    // barrier() waits there until every other fiber has reached a barrier or returned.
    void run(std::size_t threads, const std::function<void(std::size_t)>& body);

    // For the kernel's __syncthreads: called from inside a fiber of run().
    static void barrier();

private:
    struct Stacks;
    std::unique_ptr<Stacks> stacks_;
};

} // namespace kp::cpu
