// Page-locked host memory for model::Array, so that a run's arrays are copied at full PCIe speed with no
// staging copy (anchors.md: 55 GB/s pinned against 10 GB/s pageable). The CUDA runner hands it to
// launch::prepare and allocates results from it; each allocator keeps the primary context retained for as
// long as any array uses it.
//
// Pinning is slow (the driver locks every page: ~0.1 s per 256 MiB), so freed blocks are kept and handed
// out again for the same size: the second run of a playground pins nothing. At most `keepBytes` are kept.
#pragma once

#include "Context.h"
#include "core/model/Array.h"

#include <map>
#include <memory>
#include <mutex>

namespace kp::cuda {

class PinnedAllocator final : public model::HostAllocator {
public:
    explicit PinnedAllocator(std::shared_ptr<const Context> context,
                             std::size_t keepBytes = std::size_t{2} << 30);
    ~PinnedAllocator() override;
    PinnedAllocator(const PinnedAllocator&) = delete;
    PinnedAllocator& operator=(const PinnedAllocator&) = delete;

    // Zero-filled. Throws CudaError (with the size) when the memory cannot be pinned.
    std::byte* allocate(std::size_t bytes) override;
    std::byte* allocateUninitialized(std::size_t bytes) override;
    void deallocate(std::byte* data, std::size_t bytes) noexcept override;
    bool inheritedByChildren() const noexcept override { return false; }

    std::size_t keptBytes() const;

private:
    static void release(std::byte* data) noexcept;
    std::shared_ptr<const Context> context_;
    std::size_t keepLimit_;
    mutable std::mutex mutex_;
    std::multimap<std::size_t, std::byte*> kept_; // size -> freed block
    std::size_t keptBytes_ = 0;
};

} // namespace kp::cuda
