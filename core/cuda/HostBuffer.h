// Page-locked (pinned) host memory: copies from it run at full PCIe speed, about 5x faster than from
// pageable memory (anchors.md). The Runner keeps the arrays the app owns in these.
#pragma once

#include <cstddef>
#include <span>

namespace kp::cuda {

class HostBuffer {
public:
    HostBuffer() = default;
    // Pinned memory of `bytes` in the current context; throws CudaError when it cannot be had.
    explicit HostBuffer(std::size_t bytes);
    HostBuffer(HostBuffer&& other) noexcept;
    HostBuffer& operator=(HostBuffer&& other) noexcept;
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    ~HostBuffer();

    std::byte* data() noexcept { return data_; }
    const std::byte* data() const noexcept { return data_; }
    std::size_t bytes() const noexcept { return bytes_; }
    std::span<std::byte> span() noexcept { return {data_, bytes_}; }
    std::span<const std::byte> span() const noexcept { return {data_, bytes_}; }

private:
    std::byte* data_ = nullptr;
    std::size_t bytes_ = 0;
};

} // namespace kp::cuda
