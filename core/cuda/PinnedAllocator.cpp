#include "PinnedAllocator.h"

#include "Driver.h"

#include <cstring>

namespace kp::cuda {

PinnedAllocator::PinnedAllocator(std::shared_ptr<const Context> context, std::size_t keepBytes)
    : context_(std::move(context)), keepLimit_(keepBytes) {}

PinnedAllocator::~PinnedAllocator() {
    for (const auto& [bytes, data] : kept_)
        release(data);
}

std::byte* PinnedAllocator::allocateUninitialized(std::size_t bytes) {
    {
        const std::lock_guard lock(mutex_);
        if (const auto it = kept_.find(bytes); it != kept_.end()) {
            std::byte* data = it->second;
            kept_.erase(it);
            keptBytes_ -= bytes;
            return data;
        }
    }
    context_->makeCurrent();
    void* data = nullptr;
    KP_CU(cuMemAllocHost, &data, bytes);
    return static_cast<std::byte*>(data);
}

std::byte* PinnedAllocator::allocate(std::size_t bytes) {
    std::byte* data = allocateUninitialized(bytes);
    std::memset(data, 0, bytes);
    return data;
}

void PinnedAllocator::deallocate(std::byte* data, std::size_t bytes) noexcept {
    if (!data) return;
    {
        const std::lock_guard lock(mutex_);
        if (keptBytes_ + bytes <= keepLimit_) {
            kept_.emplace(bytes, data);
            keptBytes_ += bytes;
            return;
        }
    }
    release(data);
}

std::size_t PinnedAllocator::keptBytes() const {
    const std::lock_guard lock(mutex_);
    return keptBytes_;
}

void PinnedAllocator::release(std::byte* data) noexcept {
    // Fails only when the process's CUDA state is already gone, when there is nothing left to free.
    (void)Driver::api().cuMemFreeHost(data);
}

} // namespace kp::cuda
