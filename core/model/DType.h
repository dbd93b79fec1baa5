// The element types a kernel argument can have (project-format.md's dtypes), with their size, their
// numpy spelling and their CUDA C spelling. Shared by signatures, arrays, .npy files and the runners.
#pragma once

#include <cstddef>
#include <optional>
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
    Float2,
    Float4,
    Int2,
    Int4,
};

// "float32", as playground files spell it.
std::string_view name(DType type);
std::optional<DType> dtypeFromName(std::string_view name);
// "float", "unsigned int", "float4", "__half": what the type is called in CUDA C.
std::string_view cudaName(DType type);
std::size_t byteSize(DType type);
// Alignment in device memory (float4 and int4 are 16-byte aligned, float2 and int2 8-byte).
std::size_t alignment(DType type);
// Number of scalar components: 1, or 2/4 for vector types.
int components(DType type);
// The scalar type of one component (Float32 for Float4).
DType componentType(DType type);
bool isFloating(DType type);
bool isSigned(DType type);

} // namespace kp::model
