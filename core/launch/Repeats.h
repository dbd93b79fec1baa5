// The warm-up, repeat and cancel loop every runner shares (the CUDA runner, the CPU backend, the
// reference): untimed rounds first, then timed ones, a stop before any round once cancelled.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

namespace kp::launch {

// One round's times, in milliseconds: copying in, the kernel, copying out.
struct RoundTimes {
    double h2dMs = 0;
    double kernelMs = 0;
    double d2hMs = 0;
};

// The timed rounds' times, one per round, and whether the loop stopped early.
struct RepeatTimes {
    std::vector<double> h2dMs;
    std::vector<double> kernelMs;
    std::vector<double> d2hMs;
    bool cancelled = false;
};

// Runs max(0, warmup) untimed rounds and then max(1, repeat) timed ones, calling `round` for each; checks
// `cancel` (may be null) before every round. What `round` throws ends the loop and passes through.
RepeatTimes repeatRounds(int warmup, int repeat, const std::atomic<bool>* cancel,
                         const std::function<RoundTimes()>& round);

} // namespace kp::launch
