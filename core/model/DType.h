// The element types a kernel argument can have (project-format.md's dtypes), with their size, their
// numpy spelling and their CUDA C spelling. Shared by signatures, arrays, .npy files and the runners.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kp::model {

enum class DType {
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float16,
    Float32,
    Float64,
    Bool,     // C++'s bool: one byte, 0 or 1
    BFloat16, // cuda_bf16.h's __nv_bfloat16
    // CUDA's vector types (vector_types.h), 1 to 4 lanes of each scalar: char1 .. double4.
    // clang-format off
    Char1, Char2, Char3, Char4,
    UChar1, UChar2, UChar3, UChar4,
    Short1, Short2, Short3, Short4,
    UShort1, UShort2, UShort3, UShort4,
    Int1, Int2, Int3, Int4,
    UInt1, UInt2, UInt3, UInt4,
    Long1, Long2, Long3, Long4,
    ULong1, ULong2, ULong3, ULong4,
    LongLong1, LongLong2, LongLong3, LongLong4,
    ULongLong1, ULongLong2, ULongLong3, ULongLong4,
    Float1, Float2, Float3, Float4,
    Double1, Double2, Double3, Double4,
    // clang-format on
};

// "float32", as playground files spell it.
std::string_view name(DType type);
std::optional<DType> dtypeFromName(std::string_view name);
// "float", "unsigned int", "float4", "__half": what the type is called in CUDA C.
std::string_view cudaName(DType type);
std::size_t byteSize(DType type);
// Alignment in device memory, CUDA's: float4 and int4 16 bytes, float2 8, float3 4, char4 4, ...
std::size_t alignment(DType type);
// Every dtype, in declaration order.
std::span<const DType> allDTypes();
// The vector type of `count` lanes of `component`, or nothing; int64 lanes are longlong ones.
std::optional<DType> vectorOf(DType component, int count);
// Number of scalar components: 1 for scalars, 1 to 4 for vector types.
int components(DType type);
// CUDA's vector types, float1 included.
bool isVector(DType type);
// The scalar type of one component (Float32 for Float4).
DType componentType(DType type);
bool isFloating(DType type);
bool isSigned(DType type);

} // namespace kp::model
