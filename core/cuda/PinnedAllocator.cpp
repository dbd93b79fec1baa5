#include "PinnedAllocator.h"

#include "Driver.h"

#include <cstring>

namespace kp::cuda {

PinnedAllocator::PinnedAllocator(std::shared_ptr<const Context> context) : context_(std::move(context)) {}

std::byte* PinnedAllocator::allocate(std::size_t bytes) {
    context_->makeCurrent();
    void* data = nullptr;
    KP_CU(cuMemAllocHost, &data, bytes);
    std::memset(data, 0, bytes);
    return static_cast<std::byte*>(data);
}

void PinnedAllocator::deallocate(std::byte* data, std::size_t) noexcept {
    // Fails only when the process's CUDA state is already gone, when there is nothing left to free.
    if (data) (void)Driver::api().cuMemFreeHost(data);
}

} // namespace kp::cuda
