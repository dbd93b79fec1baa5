#include "DeviceBuffer.h"

#include "Driver.h"
#include "Stream.h"
#include "core/Bytes.h"

#include <utility>

namespace kp::cuda {

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
    try {
        KP_CU(cuMemAlloc, &address_, bytes);
    } catch (const CudaError& e) {
        if (!e.outOfMemory()) throw;
        throw CudaError("cuMemAlloc(" + humanBytes(static_cast<double>(bytes)) + ")", e.code(), e.name(),
                        "the device does not have " + humanBytes(static_cast<double>(bytes)) +
                            " of free memory");
    }
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : address_(std::exchange(other.address_, 0)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        if (address_) (void)Driver::api().cuMemFree(address_);
        address_ = std::exchange(other.address_, 0);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

DeviceBuffer::~DeviceBuffer() {
    // Fails only when the context is already gone (reset after a fault, or exit): the memory went with it.
    if (address_) (void)Driver::api().cuMemFree(address_);
}

void DeviceBuffer::checkSize(std::size_t hostBytes, const char* what) const {
    if (hostBytes != bytes_)
        throw InputError(std::string(what) + ": host memory of " + std::to_string(hostBytes) +
                         " bytes does not match the device buffer of " + std::to_string(bytes_) + " bytes");
}

void DeviceBuffer::copyFrom(std::span<const std::byte> host) {
    checkSize(host.size(), "copy to device");
    if (bytes_) KP_CU(cuMemcpyHtoD, address_, host.data(), bytes_);
}

void DeviceBuffer::copyTo(std::span<std::byte> host) const {
    checkSize(host.size(), "copy from device");
    if (bytes_) KP_CU(cuMemcpyDtoH, host.data(), address_, bytes_);
}

void DeviceBuffer::copyFromAsync(std::span<const std::byte> host, const Stream& stream) {
    checkSize(host.size(), "copy to device");
    if (bytes_) KP_CU(cuMemcpyHtoDAsync, address_, host.data(), bytes_, stream.handle());
}

void DeviceBuffer::copyToAsync(std::span<std::byte> host, const Stream& stream) const {
    checkSize(host.size(), "copy from device");
    if (bytes_) KP_CU(cuMemcpyDtoHAsync, host.data(), address_, bytes_, stream.handle());
}

void DeviceBuffer::zero() {
    if (bytes_) KP_CU(cuMemsetD8, address_, 0, bytes_);
}

void DeviceBuffer::zeroAsync(const Stream& stream) {
    if (bytes_) KP_CU(cuMemsetD8Async, address_, 0, bytes_, stream.handle());
}

} // namespace kp::cuda
