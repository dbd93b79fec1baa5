// Page-locked host memory for model::Array, so that a run's arrays are copied at full PCIe speed with no
// staging copy (anchors.md: 55 GB/s pinned against 10 GB/s pageable). The CUDA runner hands it to
// launch::prepare and allocates results from it; each allocator keeps the primary context retained for as
// long as any array uses it.
//
// Pinning is slow: cuMemAllocHost took 120-140 ms for 256 MiB on the H200 host, and freeing 34 ms. Blocks
// of 8 MiB and more are therefore the heap's (mapped apart, in 2 MiB pages where the system allows),
// first written on every core and then registered with the driver (cuMemHostRegister): 256 MiB took
// 15-55 ms there, copied at the same 55 GB/s. Freed blocks are kept and handed out again for the same
// size: the second run of a playground pins nothing. At most `keepBytes` are kept.
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
    static constexpr std::size_t kRegisterFrom = std::size_t{8} << 20;
    std::byte* takeKept(std::size_t bytes); // a kept block of the size, or null
    std::byte* pin(std::size_t bytes);
    static void release(std::byte* data, std::size_t bytes) noexcept;
    std::shared_ptr<const Context> context_;
    std::size_t keepLimit_;
    mutable std::mutex mutex_;
    std::multimap<std::size_t, std::byte*> kept_; // size -> freed block
    std::size_t keptBytes_ = 0;
};

} // namespace kp::cuda
