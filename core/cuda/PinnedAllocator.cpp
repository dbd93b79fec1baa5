#include "PinnedAllocator.h"

#include "Driver.h"
#include "core/Parallel.h"

#include <cstring>
#include <sys/mman.h>

namespace kp::cuda {

PinnedAllocator::PinnedAllocator(std::shared_ptr<const Context> context, std::size_t keepBytes)
    : context_(std::move(context)), keepLimit_(keepBytes) {}

PinnedAllocator::~PinnedAllocator() {
    for (const auto& [bytes, data] : kept_)
        release(data, bytes);
}

std::byte* PinnedAllocator::takeKept(std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    const auto it = kept_.find(bytes);
    if (it == kept_.end()) return nullptr;
    std::byte* data = it->second;
    kept_.erase(it);
    keptBytes_ -= bytes;
    return data;
}

std::byte* PinnedAllocator::allocateUninitialized(std::size_t bytes) {
    std::byte* data = takeKept(bytes);
    return data ? data : pin(bytes);
}

std::byte* PinnedAllocator::pin(std::size_t bytes) {
    context_->makeCurrent();
    if (bytes < kRegisterFrom) {
        void* data = nullptr;
        KP_CU(cuMemAllocHost, &data, bytes);
        return static_cast<std::byte*>(data);
    }
    const auto heap = model::heapAllocator();
    std::byte* data = heap->allocate(bytes); // zeroed pages, mapped on first write
    zeroBytes(data, bytes);                  // ... written here on every core, before the driver locks them
    // Not in forked children (the CPU backend's, the reference's): Linux gives a child its own copy of every
    // page-locked page at fork, which cost 3 s a sweep. Children read copies of pinned arrays instead
    // (inheritedByChildren() is false), as for cuMemAllocHost's memory.
    constexpr std::size_t kPage = std::size_t{2} << 20; // the heap maps large blocks in whole 2 MiB pages
    ::madvise(data, (bytes + kPage - 1) / kPage * kPage, MADV_DONTFORK);
    if (const CUresult status = Driver::api().cuMemHostRegister(data, bytes, 0); status != CUDA_SUCCESS) {
        heap->deallocate(data, bytes);
        check(status, "cuMemHostRegister");
    }
    return data;
}

std::byte* PinnedAllocator::allocate(std::size_t bytes) {
    if (std::byte* data = takeKept(bytes)) {
        zeroBytes(data, bytes);
        return data;
    }
    std::byte* data = pin(bytes);
    if (bytes < kRegisterFrom) std::memset(data, 0, bytes); // registered blocks are zero already
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
    release(data, bytes);
}

std::size_t PinnedAllocator::keptBytes() const {
    const std::lock_guard lock(mutex_);
    return keptBytes_;
}

void PinnedAllocator::release(std::byte* data, std::size_t bytes) noexcept {
    // Fails only when the process's CUDA state is already gone, when there is nothing left to free.
    if (bytes < kRegisterFrom) {
        (void)Driver::api().cuMemFreeHost(data);
        return;
    }
    (void)Driver::api().cuMemHostUnregister(data);
    model::heapAllocator()->deallocate(data, bytes);
}

} // namespace kp::cuda
