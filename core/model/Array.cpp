#include "Array.h"

#include "core/Error.h"
#include "core/Parallel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sys/mman.h>
#include <utility>

namespace kp::model {

std::size_t elementCount(const Shape& shape) {
    std::size_t n = 1;
    for (std::size_t d : shape)
        n *= d;
    return shape.empty() ? 0 : n;
}

std::string toString(const Shape& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

namespace {
class HeapAllocator final : public HostAllocator {
public:
    // calloc: the kernel sees zeros where no init was given, and large zeroed pages cost nothing up front.
    // It aligns to 16 bytes only, so the block is over-allocated and the start of calloc's block is kept
    // just before the 64-byte aligned address handed out. Large arrays are mapped apart, below.
    std::byte* allocate(std::size_t bytes) override {
        if (bytes >= kLargeFrom) return mapLarge(bytes);
        constexpr std::size_t extra = kAlignment + sizeof(void*);
        void* block = bytes <= std::numeric_limits<std::size_t>::max() - extra ? std::calloc(bytes + extra, 1)
                                                                               : nullptr;
        if (!block) throw OutOfHostMemory(bytes);
        auto* const start = static_cast<std::byte*>(block) + sizeof(void*);
        auto* data = start + (kAlignment - reinterpret_cast<std::uintptr_t>(start) % kAlignment) % kAlignment;
        std::memcpy(data - sizeof(void*), &block, sizeof block);
        return data;
    }
    void deallocate(std::byte* data, std::size_t bytes) noexcept override {
        if (!data) return;
        if (bytes >= kLargeFrom) {
            ::munmap(data, roundUp(bytes, kHugePage));
            return;
        }
        void* block = nullptr;
        std::memcpy(&block, data - sizeof(void*), sizeof block);
        std::free(block);
    }

private:
    static constexpr std::size_t kAlignment = 64;
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;
    static constexpr std::size_t kLargeFrom = std::size_t{8} << 20;

    static std::size_t roundUp(std::size_t bytes, std::size_t to) { return (bytes + to - 1) / to * to; }

    // Large arrays (a sweep's or a 100M-element run's hundreds of megabytes) in 2 MiB pages where the
    // system allows it (transparent huge pages, "madvise" or "always"): 512 times fewer page faults when
    // they are first written, and a fork (every CPU backend run and reference forks its contained child)
    // copies 512 times fewer page-table entries. Zeroed by the kernel, as calloc's are.
    static std::byte* mapLarge(std::size_t bytes) {
        if (bytes > std::numeric_limits<std::size_t>::max() - 2 * kHugePage) throw OutOfHostMemory(bytes);
        const std::size_t length = roundUp(bytes, kHugePage);
        void* mapped =
            ::mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) throw OutOfHostMemory(bytes);
        auto* const base = static_cast<std::byte*>(mapped);
        const std::size_t skip = (kHugePage - reinterpret_cast<std::uintptr_t>(base) % kHugePage) % kHugePage;
        if (skip) ::munmap(base, skip);
        if (kHugePage - skip) ::munmap(base + skip + length, kHugePage - skip);
        ::madvise(base + skip, length, MADV_HUGEPAGE); // advice: ignored where huge pages are off
        return base + skip;
    }
};
} // namespace

std::shared_ptr<HostAllocator> heapAllocator() {
    static const auto heap = std::make_shared<HeapAllocator>();
    return heap;
}

Array::Array(DType dtype, Shape shape, std::shared_ptr<HostAllocator> allocator)
    : Array(dtype, std::move(shape), std::move(allocator), Uninitialized{}, true) {}

Array::Array(DType dtype, Shape shape, std::shared_ptr<HostAllocator> allocator, Uninitialized)
    : Array(dtype, std::move(shape), std::move(allocator), Uninitialized{}, false) {}

Array::Array(DType dtype, Shape shape, std::shared_ptr<HostAllocator> allocator, Uninitialized, bool zeroed)
    : dtype_(dtype), shape_(std::move(shape)), allocator_(std::move(allocator)) {
    if (shape_.empty() || shape_.size() > 3)
        throw InputError("an array has 1 to 3 dimensions, not " + std::to_string(shape_.size()));
    std::size_t n = 1;
    for (std::size_t d : shape_) {
        if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d / byteSize(dtype))
            throw InputError("array shape " + toString(shape_) + " is too large to address");
        n *= d;
    }
    size_ = n;
    bytes_ = n * byteSize(dtype);
    if (!allocator_) allocator_ = heapAllocator();
    if (bytes_) data_ = zeroed ? allocator_->allocate(bytes_) : allocator_->allocateUninitialized(bytes_);
}

Array::Array(const Array& other)
    : Array(other.copyTo(other.allocator_ ? other.allocator_ : heapAllocator())) {}

Array& Array::operator=(const Array& other) {
    if (this != &other) *this = Array(other);
    return *this;
}

Array::Array(Array&& other) noexcept
    : dtype_(other.dtype_), shape_(std::move(other.shape_)), size_(std::exchange(other.size_, 0)),
      data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)),
      allocator_(std::move(other.allocator_)) {
    other.shape_.clear();
}

Array& Array::operator=(Array&& other) noexcept {
    if (this != &other) {
        release();
        dtype_ = other.dtype_;
        shape_ = std::move(other.shape_);
        other.shape_.clear();
        size_ = std::exchange(other.size_, 0);
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        allocator_ = std::move(other.allocator_);
    }
    return *this;
}

Array::~Array() {
    release();
}

void Array::release() noexcept {
    if (data_ && allocator_) allocator_->deallocate(data_, bytes_);
    data_ = nullptr;
    bytes_ = 0;
}

Array Array::copyTo(std::shared_ptr<HostAllocator> allocator) const {
    if (shape_.empty()) return Array();
    Array copy(dtype_, shape_, std::move(allocator));
    if (bytes_) copyBytes(copy.data_, data_, bytes_);
    return copy;
}

namespace {
// A view's allocator: the view's own memory is the larger array's, never freed through it; copies of the
// view get memory of the larger array's allocator.
class ViewAllocator final : public HostAllocator {
public:
    explicit ViewAllocator(std::shared_ptr<const Array> whole) : whole_(std::move(whole)) {}
    std::byte* allocate(std::size_t bytes) override { return whole_->allocator()->allocate(bytes); }
    std::byte* allocateUninitialized(std::size_t bytes) override {
        return whole_->allocator()->allocateUninitialized(bytes);
    }
    void deallocate(std::byte* data, std::size_t bytes) noexcept override {
        if (data != whole_->data()) whole_->allocator()->deallocate(data, bytes);
    }
    bool sharedWithChildren() const noexcept override { return whole_->allocator()->sharedWithChildren(); }
    bool inheritedByChildren() const noexcept override { return whole_->allocator()->inheritedByChildren(); }

private:
    std::shared_ptr<const Array> whole_;
};
} // namespace

Array leadingView(std::shared_ptr<const Array> larger, const Shape& shape) {
    if (!larger || shape.empty() || shape.size() != larger->shape().size() || shape[0] > larger->shape()[0] ||
        !std::equal(shape.begin() + 1, shape.end(), larger->shape().begin() + 1))
        throw Error("leadingView: " + toString(shape) + " is not a leading part of " +
                    (larger ? toString(larger->shape()) : std::string("nothing")));
    Array view;
    view.dtype_ = larger->dtype();
    view.shape_ = shape;
    view.size_ = elementCount(shape);
    view.bytes_ = view.size_ * byteSize(view.dtype_);
    view.data_ = view.bytes_ ? const_cast<std::byte*>(larger->data()) : nullptr;
    view.allocator_ = std::make_shared<ViewAllocator>(std::move(larger));
    return view;
}

bool Array::operator==(const Array& other) const {
    return dtype_ == other.dtype_ && shape_ == other.shape_ && bytes_ == other.bytes_ &&
           (bytes_ == 0 || std::memcmp(data_, other.data_, bytes_) == 0);
}

namespace {
template <typename T> T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <typename T> void store(std::byte* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

// Float to integer as a C cast would, but saturating and with NaN as 0, so a formula can't trigger UB.
template <typename T> T toInteger(double v) {
    if (std::isnan(v)) return 0;
    if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
}
} // namespace

double Array::value(std::size_t index, int component) const {
    const DType c = componentType(dtype_);
    const std::byte* p = data_ + index * byteSize(dtype_) + static_cast<std::size_t>(component) * byteSize(c);
    switch (c) {
    case DType::Int8:
        return load<std::int8_t>(p);
    case DType::UInt8:
        return load<std::uint8_t>(p);
    case DType::Int16:
        return load<std::int16_t>(p);
    case DType::UInt16:
        return load<std::uint16_t>(p);
    case DType::Int32:
        return load<std::int32_t>(p);
    case DType::UInt32:
        return load<std::uint32_t>(p);
    case DType::Int64:
        return static_cast<double>(load<std::int64_t>(p));
    case DType::UInt64:
        return static_cast<double>(load<std::uint64_t>(p));
    case DType::Float16:
        return halfToFloat(load<std::uint16_t>(p));
    case DType::BFloat16:
        return bfloat16ToFloat(load<std::uint16_t>(p));
    case DType::Bool:
        return load<std::uint8_t>(p) != 0 ? 1.0 : 0.0;
    case DType::Float32:
        return load<float>(p);
    default: // Float64: components are scalar types
        return load<double>(p);
    }
}

void Array::setValue(std::size_t index, double v, int component) {
    const DType c = componentType(dtype_);
    std::byte* p = data_ + index * byteSize(dtype_) + static_cast<std::size_t>(component) * byteSize(c);
    switch (c) {
    case DType::Int8:
        return store(p, toInteger<std::int8_t>(v));
    case DType::UInt8:
        return store(p, toInteger<std::uint8_t>(v));
    case DType::Int16:
        return store(p, toInteger<std::int16_t>(v));
    case DType::UInt16:
        return store(p, toInteger<std::uint16_t>(v));
    case DType::Int32:
        return store(p, toInteger<std::int32_t>(v));
    case DType::UInt32:
        return store(p, toInteger<std::uint32_t>(v));
    case DType::Int64:
        return store(p, toInteger<std::int64_t>(v));
    case DType::UInt64:
        return store(p, toInteger<std::uint64_t>(v));
    case DType::Float16:
        return store(p, floatToHalf(static_cast<float>(v)));
    case DType::BFloat16:
        return store(p, floatToBfloat16(static_cast<float>(v)));
    case DType::Bool:
        return store(p, static_cast<std::uint8_t>(v != 0 ? 1 : 0));
    case DType::Float32:
        return store(p, static_cast<float>(v));
    default: // Float64
        return store(p, v);
    }
}

float bfloat16ToFloat(std::uint16_t bits) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

std::uint16_t floatToBfloat16(float value) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    if ((f & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((f >> 16) | 0x40u); // quiet NaN
    const std::uint32_t tiesToEven = 0x7FFFu + ((f >> 16) & 1u);
    return static_cast<std::uint16_t>((f + tiesToEven) >> 16);
}

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1Fu;
    std::uint32_t mantissa = h & 0x3FFu;
    std::uint32_t bits = 0;
    if (exponent == 0x1F) {
        bits = sign | 0x7F800000u | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa != 0) {
        // Subnormal half: normalise it for float.
        std::uint32_t e = 113;
        while (!(mantissa & 0x400u)) {
            mantissa <<= 1;
            --e;
        }
        bits = sign | (e << 23) | ((mantissa & 0x3FFu) << 13);
    } else {
        bits = sign;
    }
    return std::bit_cast<float>(bits);
}

std::uint16_t floatToHalf(float value) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
    const std::uint32_t absBits = f & 0x7FFFFFFFu;
    if (absBits >= 0x7F800000u) // Inf or NaN (keep NaN quiet)
        return static_cast<std::uint16_t>(sign | 0x7C00u | (absBits > 0x7F800000u ? 0x200u : 0u));
    if (absBits >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u); // rounds past 65504
    if (absBits < 0x33000001u) return sign;                                        // rounds to zero
    std::uint32_t exponent = absBits >> 23;
    std::uint32_t mantissa = (absBits & 0x7FFFFFu) | 0x800000u;
    int shift = 0;
    std::uint32_t halfExponent = 0;
    if (exponent < 113) { // subnormal half
        shift = static_cast<int>(126 - exponent);
        halfExponent = 0;
    } else {
        shift = 13;
        halfExponent = exponent - 112;
    }
    std::uint32_t halfMantissa = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (exponent >= 113) halfMantissa &= 0x3FFu;
    std::uint32_t result = (halfExponent << 10) | halfMantissa;
    if (rest > halfway || (rest == halfway && (result & 1u))) ++result; // carries into the exponent correctly
    return static_cast<std::uint16_t>(sign | result);
}

} // namespace kp::model
