// Operations on parts of device memory by address, queued on a stream: what a program's copies, fills
// and symbol writes do inside the buffers the CUDA runner allocated (DeviceBuffer owns the memory; these
// work on any range of it, or on a module's global).
#pragma once

#include <cstddef>
#include <cuda.h>
#include <span>

namespace kp::cuda {

class Stream;

void copyDeviceToDeviceAsync(CUdeviceptr to, CUdeviceptr from, std::size_t bytes, const Stream& stream);
void copyHostToDeviceAsync(CUdeviceptr to, std::span<const std::byte> host, const Stream& stream);
void copyDeviceToHostAsync(std::span<std::byte> host, CUdeviceptr from, const Stream& stream);
// Sets `elements` elements of `value.size()` bytes each, from `to` on, to `value`: one memset where the
// element is 1, 2 or 4 bytes (or all zeros), else one strided memset per 4-, 2- or 1-byte word of it.
void fillAsync(CUdeviceptr to, std::size_t elements, std::span<const std::byte> value, const Stream& stream);

} // namespace kp::cuda
