// A typed, shaped host array (numpy's ndarray, for our dtypes): what argument panels fill, what the
// runners copy to and from devices, what .npy/.csv files hold and what Check compares.
#pragma once

#include "DType.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kp::model {

using Shape = std::vector<std::size_t>; // 1 to 3 dimensions, row-major (C order)

std::size_t elementCount(const Shape& shape);
std::string toString(const Shape& shape); // "(4, 4)"

// Where an Array's bytes live. The default is the heap; the CUDA runner supplies page-locked memory so
// that transfers run at full speed with no staging copy, the worker (later) shared memory.
class HostAllocator {
public:
    virtual ~HostAllocator() = default;
    // Zero-filled memory of `bytes` (> 0), aligned to at least 64 bytes; throws on failure.
    virtual std::byte* allocate(std::size_t bytes) = 0;
    // Memory whose contents the caller overwrites at once (a device-to-host copy): no zero-fill needed.
    virtual std::byte* allocateUninitialized(std::size_t bytes) { return allocate(bytes); }
    virtual void deallocate(std::byte* data, std::size_t bytes) noexcept = 0;
    // What a forked child (sandbox/Contained) writes here, the parent sees: shared mappings.
    virtual bool sharedWithChildren() const noexcept { return false; }
    // A forked child can read it: not so for memory the CUDA driver pins (it is not inherited by fork).
    virtual bool inheritedByChildren() const noexcept { return true; }
};
std::shared_ptr<HostAllocator> heapAllocator();

class Array {
public:
    Array() = default;
    // Zero-filled. Throws InputError when the shape has no dimension, more than 3, or overflows.
    Array(DType dtype, Shape shape, std::shared_ptr<HostAllocator> allocator = heapAllocator());
    // Contents undefined: for arrays that are filled right away (a run's results).
    struct Uninitialized {};
    Array(DType dtype, Shape shape, std::shared_ptr<HostAllocator> allocator, Uninitialized);
    Array(const Array& other);
    Array& operator=(const Array& other);
    Array(Array&& other) noexcept;
    Array& operator=(Array&& other) noexcept;
    ~Array();
    // The same values in memory from `allocator`.
    Array copyTo(std::shared_ptr<HostAllocator> allocator) const;
    const std::shared_ptr<HostAllocator>& allocator() const noexcept { return allocator_; }

    DType dtype() const noexcept { return dtype_; }
    const Shape& shape() const noexcept { return shape_; }
    std::size_t size() const noexcept { return size_; } // elements
    std::size_t bytes() const noexcept { return bytes_; }
    std::byte* data() noexcept { return data_; }
    const std::byte* data() const noexcept { return data_; }
    std::span<std::byte> span() noexcept { return {data_, bytes_}; }
    std::span<const std::byte> span() const noexcept { return {data_, bytes_}; }

    // Component `c` of element `index` converted to double (float16 included), for checks, tables, plots.
    double value(std::size_t index, int component = 0) const;
    void setValue(std::size_t index, double value, int component = 0);

    template <typename T> std::span<T> as() { return {reinterpret_cast<T*>(data_), bytes_ / sizeof(T)}; }
    template <typename T> std::span<const T> as() const {
        return {reinterpret_cast<const T*>(data_), bytes_ / sizeof(T)};
    }

    // Same dtype, shape and bytes (wherever they live).
    bool operator==(const Array& other) const;

private:
    friend Array leadingView(std::shared_ptr<const Array> larger, const Shape& shape);
    Array(DType dtype, Shape shape, std::shared_ptr<HostAllocator> allocator, Uninitialized, bool zeroed);
    void release() noexcept;
    DType dtype_ = DType::Float32;
    Shape shape_;
    std::size_t size_ = 0;
    std::byte* data_ = nullptr;
    std::size_t bytes_ = 0;
    std::shared_ptr<HostAllocator> allocator_;
};

// The first `shape`'s worth of elements of `larger` (its first rows, in row-major order), in its memory: no
// copy. The view keeps `larger` alive; writing either writes both, so views are for arrays nothing writes
// (a sweep's inputs). Its allocator answers as `larger`'s does (pinned memory stays pinned, inherited or
// not by children). `shape` must be `larger`'s with a first dimension no larger; throws Error otherwise.
Array leadingView(std::shared_ptr<const Array> larger, const Shape& shape);

// IEEE half precision <-> float, round to nearest even; used where CUDA's __half meets the host.
float halfToFloat(std::uint16_t bits);
std::uint16_t floatToHalf(float value);
// bfloat16 (cuda_bf16.h's __nv_bfloat16) <-> float: the upper half of a float, rounded to nearest even.
float bfloat16ToFloat(std::uint16_t bits);
std::uint16_t floatToBfloat16(float value);

} // namespace kp::model
