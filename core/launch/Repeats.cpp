#include "Repeats.h"

#include <algorithm>

namespace kp::launch {

RepeatTimes repeatRounds(int warmup, int repeat, const std::atomic<bool>* cancel,
                         const std::function<RoundTimes()>& round) {
    RepeatTimes times;
    const int untimed = std::max(0, warmup);
    const int total = untimed + std::max(1, repeat);
    for (int index = 0; index < total; ++index) {
        if (cancel && cancel->load()) {
            times.cancelled = true;
            break;
        }
        const RoundTimes measured = round();
        if (index < untimed) continue;
        times.h2dMs.push_back(measured.h2dMs);
        times.kernelMs.push_back(measured.kernelMs);
        times.d2hMs.push_back(measured.d2hMs);
    }
    return times;
}

} // namespace kp::launch
