#include "WorkerPool.h"

#include "core/Error.h"

#include <chrono>
#include <system_error>

namespace kp::cpu {

namespace {

// Yields until `done()`, for `most` (50 us) at most: what a worker or the launching thread waits for next
// often comes within microseconds, sooner than sleeping and being woken.
template <typename Done>
void waitAMoment(const Done& done, std::chrono::microseconds most = std::chrono::microseconds(50)) {
    const auto until = std::chrono::steady_clock::now() + most;
    while (!done() && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
}

} // namespace

WorkerPool::WorkerPool(unsigned workers, const std::function<void()>& prepare) {
    try {
        for (unsigned w = 1; w < workers; ++w)
            threads_.emplace_back([this, w, prepare] { loop(w, prepare); });
    } catch (const std::system_error& e) {
        const auto started = threads_.size() + 1;
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& t : threads_)
            t.join();
        threads_.clear();
        throw Error("could not start " + std::to_string(workers) + " worker threads (" +
                    std::to_string(started) + " started): " + e.what());
    }
}

WorkerPool::~WorkerPool() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_)
        t.join();
}

void WorkerPool::call(unsigned worker) {
    try {
        (*job_)(worker);
    } catch (...) {
        const std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
    }
}

void WorkerPool::loop(unsigned worker, const std::function<void()>& prepare) {
    if (prepare) prepare();
    std::uint64_t seen = 0, seenRoused = 0;
    for (;;) {
        // A launch follows the last one within microseconds in a program: wait a moment before sleeping.
        waitAMoment([&] { return generation_.load(std::memory_order_acquire) != seen; });
        {
            std::unique_lock lock(mutex_);
            sleeping_.fetch_add(1, std::memory_order_acq_rel);
            wake_.wait(lock, [&] {
                return stopping_ || generation_.load(std::memory_order_acquire) != seen ||
                       roused_ != seenRoused;
            });
            sleeping_.fetch_sub(1, std::memory_order_acq_rel);
            if (stopping_) return;
            if (generation_.load(std::memory_order_acquire) == seen) { // roused: a run comes soon
                seenRoused = roused_;
                lock.unlock();
                rousedWakes_.fetch_add(1, std::memory_order_acq_rel);
                waitAMoment([&] { return generation_.load(std::memory_order_acquire) != seen; }, kRoused);
                continue;
            }
            seenRoused = roused_;
            seen = generation_.load(std::memory_order_acquire);
        }
        call(worker);
        if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            const std::lock_guard lock(mutex_);
            done_.notify_one();
        }
    }
}

void WorkerPool::rouse() {
    if (sleeping_.load(std::memory_order_acquire) == 0) return; // all awake: nothing to signal
    {
        const std::lock_guard lock(mutex_);
        ++roused_;
    }
    wake_.notify_all();
}

void WorkerPool::run(const std::function<void(unsigned)>& job) {
    {
        const std::lock_guard lock(mutex_);
        job_ = &job;
        failure_ = nullptr;
        running_.store(static_cast<unsigned>(threads_.size()), std::memory_order_release);
        generation_.fetch_add(1, std::memory_order_acq_rel);
    }
    wake_.notify_all();
    call(0);
    // The others finish within microseconds of this thread in an even launch: wait for them a moment
    // before sleeping. Sleeping, then being woken, cost a time step of 256x256 points (2000 launches in
    // a program) as much as its work on 2 cores.
    waitAMoment([&] { return running_.load(std::memory_order_acquire) == 0; });
    {
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return running_.load(std::memory_order_acquire) == 0; });
        job_ = nullptr;
    }
    if (failure_) std::rethrow_exception(failure_);
}

} // namespace kp::cpu
