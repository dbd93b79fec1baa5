#include "Event.h"

#include "Driver.h"
#include "Stream.h"

#include <utility>

namespace kp::cuda {

Event Event::create() {
    CUevent handle = nullptr;
    KP_CU(cuEventCreate, &handle, CU_EVENT_BLOCKING_SYNC);
    return Event(handle);
}

Event::Event(Event&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}

Event& Event::operator=(Event&& other) noexcept {
    if (this != &other) {
        if (handle_) (void)Driver::api().cuEventDestroy(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
}

Event::~Event() {
    // Fails only when the context is already gone (reset or exit), taking the event with it.
    if (handle_) (void)Driver::api().cuEventDestroy(handle_);
}

void Event::record(const Stream& stream) const {
    KP_CU(cuEventRecord, handle_, stream.handle());
}

void Event::synchronize() const {
    KP_CU(cuEventSynchronize, handle_);
}

bool Event::done() const {
    const CUresult r = Driver::api().cuEventQuery(handle_);
    if (r == CUDA_ERROR_NOT_READY) return false;
    check(r, "cuEventQuery");
    return true;
}

float Event::elapsedMs(const Event& start, const Event& end) {
    float ms = 0.0f;
    KP_CU(cuEventElapsedTime, &ms, start.handle_, end.handle_);
    return ms;
}

} // namespace kp::cuda
