#include "ChildSharedAllocator.h"

#include "core/Error.h"

#include <cerrno>
#include <sys/mman.h>

namespace kp::sandbox {

std::byte* ChildSharedAllocator::allocate(std::size_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw SystemError("mmap", errno,
                          "shared memory of " + std::to_string(bytes) + " bytes for a run's results");
    return static_cast<std::byte*>(p);
}

void ChildSharedAllocator::deallocate(std::byte* data, std::size_t bytes) noexcept {
    ::munmap(data, bytes);
}

std::shared_ptr<model::HostAllocator> childSharedAllocator() {
    static const auto allocator = std::make_shared<ChildSharedAllocator>();
    return allocator;
}

} // namespace kp::sandbox
