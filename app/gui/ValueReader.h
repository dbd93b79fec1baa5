// Reads one component of an Array's elements as double with the stored type known at compile time, so
// that Envelope and ColorGrid pass over 100M elements without Array::value()'s switch per element.
// withValueReader() picks the type once; the loops it calls are instantiated per dtype.
#pragma once

#include "core/model/Array.h"

#include <cstddef>
#include <cstdint>

// Float16 components: 16-bit patterns that convert through halfToFloat, not uint16 integers.
struct HalfBits {
    std::uint16_t bits;
};

template <typename Stored> class ValueReader {
public:
    ValueReader(const kp::model::Array& array, int component)
        : base_(reinterpret_cast<const Stored*>(array.data()) + component),
          stride_(static_cast<std::size_t>(kp::model::components(array.dtype()))) {}
    double operator()(std::size_t element) const { return static_cast<double>(base_[element * stride_]); }

private:
    const Stored* base_;
    std::size_t stride_;
};

template <> inline double ValueReader<HalfBits>::operator()(std::size_t element) const {
    return kp::model::halfToFloat(base_[element * stride_].bits);
}

// bfloat16 components: the upper half of a float's bits.
struct Bfloat16Bits {
    std::uint16_t bits;
};

template <> inline double ValueReader<Bfloat16Bits>::operator()(std::size_t element) const {
    return kp::model::bfloat16ToFloat(base_[element * stride_].bits);
}

// bool components: any byte but 0 is true, as in C++.
struct BoolByte {
    std::uint8_t byte;
};

template <> inline double ValueReader<BoolByte>::operator()(std::size_t element) const {
    return base_[element * stride_].byte != 0 ? 1.0 : 0.0;
}

// Calls f(ValueReader<T>(array, component)) for the component type of `array`'s dtype.
template <typename F> decltype(auto) withValueReader(const kp::model::Array& array, int component, F&& f) {
    using kp::model::DType;
    switch (kp::model::componentType(array.dtype())) {
    case DType::Int8:
        return f(ValueReader<std::int8_t>(array, component));
    case DType::UInt8:
        return f(ValueReader<std::uint8_t>(array, component));
    case DType::Int16:
        return f(ValueReader<std::int16_t>(array, component));
    case DType::UInt16:
        return f(ValueReader<std::uint16_t>(array, component));
    case DType::Int32:
        return f(ValueReader<std::int32_t>(array, component));
    case DType::UInt32:
        return f(ValueReader<std::uint32_t>(array, component));
    case DType::Int64:
        return f(ValueReader<std::int64_t>(array, component));
    case DType::UInt64:
        return f(ValueReader<std::uint64_t>(array, component));
    case DType::Float16:
        return f(ValueReader<HalfBits>(array, component));
    case DType::BFloat16:
        return f(ValueReader<Bfloat16Bits>(array, component));
    case DType::Bool:
        return f(ValueReader<BoolByte>(array, component));
    case DType::Float32:
        return f(ValueReader<float>(array, component));
    default:
        return f(ValueReader<double>(array, component));
    }
}

// f(readerOfA, readerOfB) for two arrays of the same dtype (the caller makes sure they have it).
template <typename F>
decltype(auto) withValueReaders(const kp::model::Array& a, const kp::model::Array& b, int component, F&& f) {
    return withValueReader(a, component,
                           [&](auto readerOfA) { return f(readerOfA, decltype(readerOfA)(b, component)); });
}
