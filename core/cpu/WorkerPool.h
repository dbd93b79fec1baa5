// The worker threads that run a launch's blocks, started once per run and kept from launch to launch: a
// program of thousands of launches (an iterative stencil) would otherwise start and join every worker
// thousands of times. The thread that calls run() is worker 0.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kp::cpu {

class WorkerPool {
public:
    // `workers` in all, this thread included; `prepare` runs first on each started thread. Throws
    // kp::Error when the system refuses a thread.
    explicit WorkerPool(unsigned workers, const std::function<void()>& prepare = {});
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    unsigned size() const noexcept { return static_cast<unsigned>(threads_.size()) + 1; }
    // Calls job(w) for w in [0, size()) at once, each on its own worker, and returns when all are done.
    // The first exception a job throws is thrown here, after every worker has finished.
    void run(const std::function<void(unsigned)>& job);
    // A run comes soon (a repeat's inputs are being copied in): sleeping workers wake and wait for it
    // awake, for up to kRoused. Waking takes a sleeping thread tens of microseconds, and hundreds where
    // the system has halted its idle core (a virtual machine's), against a kernel of a millisecond.
    void rouse();
    static constexpr std::chrono::microseconds kRoused{2000};
    // Workers asleep on their condition variable now (for tests).
    unsigned sleeping() const noexcept { return sleeping_.load(std::memory_order_acquire); }
    // Times a worker woke for a rouse() rather than a run, so far (for tests).
    unsigned rousedWakes() const noexcept { return rousedWakes_.load(std::memory_order_acquire); }

private:
    void loop(unsigned worker, const std::function<void()>& prepare);
    void call(unsigned worker);

    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(unsigned)>* job_ = nullptr;
    std::atomic<std::uint64_t> generation_{0};
    std::uint64_t roused_ = 0; // rouse() calls, under mutex_
    std::atomic<unsigned> sleeping_{0};
    std::atomic<unsigned> rousedWakes_{0};
    std::atomic<unsigned> running_{0};
    bool stopping_ = false;
    std::exception_ptr failure_;
    std::vector<std::thread> threads_;
};

} // namespace kp::cpu
