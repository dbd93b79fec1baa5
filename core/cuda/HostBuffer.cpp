#include "HostBuffer.h"

#include "Driver.h"

#include <utility>

namespace kp::cuda {

HostBuffer::HostBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
    void* p = nullptr;
    KP_CU(cuMemAllocHost, &p, bytes);
    data_ = static_cast<std::byte*>(p);
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
    if (this != &other) {
        if (data_) (void)Driver::api().cuMemFreeHost(data_);
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

HostBuffer::~HostBuffer() {
    // Fails only when the context is already gone (reset or exit), which unpins the memory itself.
    if (data_) (void)Driver::api().cuMemFreeHost(data_);
}

} // namespace kp::cuda
