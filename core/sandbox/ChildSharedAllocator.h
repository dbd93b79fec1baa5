// Memory a forked child writes and its parent reads (MAP_SHARED | MAP_ANONYMOUS): the results of a
// contained run (sandbox/Contained) when the caller's own allocator is not shared already.
#pragma once

#include "core/model/Array.h"

#include <memory>

namespace kp::sandbox {

class ChildSharedAllocator final : public model::HostAllocator {
public:
    // Zero-filled (fresh anonymous pages). Throws SystemError with the size when mmap fails.
    std::byte* allocate(std::size_t bytes) override;
    void deallocate(std::byte* data, std::size_t bytes) noexcept override;
    bool sharedWithChildren() const noexcept override { return true; }
};

std::shared_ptr<model::HostAllocator> childSharedAllocator();

} // namespace kp::sandbox
