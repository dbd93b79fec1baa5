// Page-locked host memory for model::Array, so that a run's arrays are copied at full PCIe speed with no
// staging copy (anchors.md: 55 GB/s pinned against 10 GB/s pageable). The CUDA runner hands it to
// run::prepare; each allocator keeps the primary context retained for as long as any array uses it.
#pragma once

#include "Context.h"
#include "core/model/Array.h"

#include <memory>

namespace kp::cuda {

class PinnedAllocator final : public model::HostAllocator {
public:
    explicit PinnedAllocator(std::shared_ptr<const Context> context);
    // cuMemAllocHost, zero-filled. Throws CudaError (with the size) when the memory cannot be pinned.
    std::byte* allocate(std::size_t bytes) override;
    void deallocate(std::byte* data, std::size_t bytes) noexcept override;

private:
    std::shared_ptr<const Context> context_;
};

} // namespace kp::cuda
