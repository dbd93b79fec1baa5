#include "Context.h"

#include "Driver.h"

#include <utility>

namespace kp::cuda {

Context::Context(const Device& device) : device_(device) {
    KP_CU(cuDevicePrimaryCtxRetain, &handle_, device_.handle());
    try {
        makeCurrent();
    } catch (...) {
        release();
        throw;
    }
}

Context::Context(Context&& other) noexcept
    : device_(other.device_), handle_(std::exchange(other.handle_, nullptr)) {}

Context& Context::operator=(Context&& other) noexcept {
    if (this != &other) {
        release();
        device_ = other.device_;
        handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
}

Context::~Context() {
    release();
}

void Context::release() noexcept {
    if (!handle_) return;
    // A destructor cannot report; releasing a retained primary context fails only if the driver is
    // already torn down at process exit, when there is nothing left to free.
    (void)Driver::api().cuDevicePrimaryCtxRelease(device_.handle());
    handle_ = nullptr;
}

void Context::makeCurrent() const {
    KP_CU(cuCtxSetCurrent, handle_);
}

void Context::synchronize() const {
    KP_CU(cuCtxSynchronize);
}

} // namespace kp::cuda
