#include "DeviceMemory.h"

#include "Driver.h"
#include "Stream.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace kp::cuda {

void copyDeviceToDeviceAsync(CUdeviceptr to, CUdeviceptr from, std::size_t bytes, const Stream& stream) {
    if (bytes) KP_CU(cuMemcpyDtoDAsync, to, from, bytes, stream.handle());
}

void copyHostToDeviceAsync(CUdeviceptr to, std::span<const std::byte> host, const Stream& stream) {
    if (!host.empty()) KP_CU(cuMemcpyHtoDAsync, to, host.data(), host.size(), stream.handle());
}

void copyDeviceToHostAsync(std::span<std::byte> host, CUdeviceptr from, const Stream& stream) {
    if (!host.empty()) KP_CU(cuMemcpyDtoHAsync, host.data(), from, host.size(), stream.handle());
}

namespace {

template <typename Word> Word wordAt(std::span<const std::byte> value, std::size_t index) {
    Word word{};
    std::memcpy(&word, value.data() + index * sizeof(Word), sizeof(Word));
    return word;
}

} // namespace

void fillAsync(CUdeviceptr to, std::size_t elements, std::span<const std::byte> value, const Stream& stream) {
    const std::size_t size = value.size();
    if (elements == 0 || size == 0) return;
    const bool zero = std::all_of(value.begin(), value.end(), [](std::byte b) { return b == std::byte{0}; });
    if (zero || size == 1) {
        KP_CU(cuMemsetD8Async, to, zero ? 0 : std::to_integer<unsigned char>(value[0]), elements * size,
              stream.handle());
        return;
    }
    if (size == 2) {
        KP_CU(cuMemsetD16Async, to, wordAt<std::uint16_t>(value, 0), elements, stream.handle());
        return;
    }
    if (size == 4) {
        KP_CU(cuMemsetD32Async, to, wordAt<std::uint32_t>(value, 0), elements, stream.handle());
        return;
    }
    // A wider element (double, int64, float4, short3 ...): its words one at a time, each a column of a 2-D
    // memset whose rows are the elements.
    const std::size_t word = size % 4 == 0 ? 4 : size % 2 == 0 ? 2 : 1;
    for (std::size_t w = 0; w < size / word; ++w) {
        const CUdeviceptr column = to + w * word;
        if (word == 4)
            KP_CU(cuMemsetD2D32Async, column, size, wordAt<std::uint32_t>(value, w), 1, elements,
                  stream.handle());
        else if (word == 2)
            KP_CU(cuMemsetD2D16Async, column, size, wordAt<std::uint16_t>(value, w), 1, elements,
                  stream.handle());
        else
            KP_CU(cuMemsetD2D8Async, column, size, std::to_integer<unsigned char>(value[w]), 1, elements,
                  stream.handle());
    }
}

} // namespace kp::cuda
