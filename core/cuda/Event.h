// A CUDA event: a timestamp recorded on a stream. Pairs of events time each launch and transfer on
// the GPU's own clock (the Runner's timings, the benchmarks).
#pragma once

#include <cuda.h>

namespace kp::cuda {

class Stream;

class Event {
public:
    // A timing event (blocking-sync, so waiting on it does not spin a core).
    static Event create();

    Event(Event&& other) noexcept;
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event();

    CUevent handle() const noexcept { return handle_; }
    void record(const Stream& stream) const;
    void synchronize() const;
    bool done() const;
    // Milliseconds between two recorded, completed events.
    static float elapsedMs(const Event& start, const Event& end);

private:
    explicit Event(CUevent handle) noexcept : handle_(handle) {}
    CUevent handle_ = nullptr;
};

} // namespace kp::cuda
