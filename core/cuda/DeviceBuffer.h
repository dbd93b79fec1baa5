// Device memory owned by one object (PyCUDA's mem_alloc). Copies to and from host memory, blocking
// or on a stream; the Runner keeps every argument array in one of these.
#pragma once

#include <cstddef>
#include <cuda.h>
#include <span>

namespace kp::cuda {

class Stream;

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    // Throws CudaError (outOfMemory()) with the size asked for when the device cannot hold it.
    explicit DeviceBuffer(std::size_t bytes);
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer();

    CUdeviceptr address() const noexcept { return address_; }
    std::size_t bytes() const noexcept { return bytes_; }

    // Blocking copies (PyCUDA's memcpy_htod / memcpy_dtoh); sizes must match the buffer's exactly.
    void copyFrom(std::span<const std::byte> host);
    void copyTo(std::span<std::byte> host) const;
    // Queued on a stream; the host memory must stay valid (and be pinned to overlap) until it ends.
    void copyFromAsync(std::span<const std::byte> host, const Stream& stream);
    void copyToAsync(std::span<std::byte> host, const Stream& stream) const;
    void zero();
    void zeroAsync(const Stream& stream);

private:
    void checkSize(std::size_t hostBytes, const char* what) const;
    CUdeviceptr address_ = 0;
    std::size_t bytes_ = 0;
};

} // namespace kp::cuda
