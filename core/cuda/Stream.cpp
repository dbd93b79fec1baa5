#include "Stream.h"

#include "Driver.h"

#include <utility>

namespace kp::cuda {

Stream Stream::create() {
    CUstream handle = nullptr;
    KP_CU(cuStreamCreate, &handle, CU_STREAM_NON_BLOCKING);
    return Stream(handle, true);
}

Stream::Stream(Stream&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), owned_(std::exchange(other.owned_, false)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
    if (this != &other) {
        if (owned_ && handle_) (void)Driver::api().cuStreamDestroy(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        owned_ = std::exchange(other.owned_, false);
    }
    return *this;
}

Stream::~Stream() {
    // Fails only when the context is already gone (reset or exit), taking the stream with it.
    if (owned_ && handle_) (void)Driver::api().cuStreamDestroy(handle_);
}

void Stream::synchronize() const {
    KP_CU(cuStreamSynchronize, handle_);
}

bool Stream::idle() const {
    const CUresult r = Driver::api().cuStreamQuery(handle_);
    if (r == CUDA_ERROR_NOT_READY) return false;
    check(r, "cuStreamQuery");
    return true;
}

} // namespace kp::cuda
