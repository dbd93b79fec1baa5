#include "DType.h"

#include <array>

namespace kp::model {

namespace {
struct Info {
    DType type;
    std::string_view name;
    std::string_view cuda;
    std::size_t bytes;
    std::size_t align;
    int components;
    DType component;
};

constexpr std::array<Info, 15> kInfo{{
    {DType::Int8, "int8", "signed char", 1, 1, 1, DType::Int8},
    {DType::UInt8, "uint8", "unsigned char", 1, 1, 1, DType::UInt8},
    {DType::Int16, "int16", "short", 2, 2, 1, DType::Int16},
    {DType::UInt16, "uint16", "unsigned short", 2, 2, 1, DType::UInt16},
    {DType::Int32, "int32", "int", 4, 4, 1, DType::Int32},
    {DType::UInt32, "uint32", "unsigned int", 4, 4, 1, DType::UInt32},
    {DType::Int64, "int64", "long long", 8, 8, 1, DType::Int64},
    {DType::UInt64, "uint64", "unsigned long long", 8, 8, 1, DType::UInt64},
    {DType::Float16, "float16", "__half", 2, 2, 1, DType::Float16},
    {DType::Float32, "float32", "float", 4, 4, 1, DType::Float32},
    {DType::Float64, "float64", "double", 8, 8, 1, DType::Float64},
    {DType::Float2, "float2", "float2", 8, 8, 2, DType::Float32},
    {DType::Float4, "float4", "float4", 16, 16, 4, DType::Float32},
    {DType::Int2, "int2", "int2", 8, 8, 2, DType::Int32},
    {DType::Int4, "int4", "int4", 16, 16, 4, DType::Int32},
}};

const Info& info(DType type) {
    return kInfo[static_cast<std::size_t>(type)];
}
} // namespace

std::string_view name(DType type) {
    return info(type).name;
}

std::optional<DType> dtypeFromName(std::string_view text) {
    for (const auto& i : kInfo)
        if (i.name == text) return i.type;
    return std::nullopt;
}

std::string_view cudaName(DType type) {
    return info(type).cuda;
}
std::size_t byteSize(DType type) {
    return info(type).bytes;
}
std::size_t alignment(DType type) {
    return info(type).align;
}
int components(DType type) {
    return info(type).components;
}
DType componentType(DType type) {
    return info(type).component;
}

bool isFloating(DType type) {
    const DType c = componentType(type);
    return c == DType::Float16 || c == DType::Float32 || c == DType::Float64;
}

bool isSigned(DType type) {
    switch (componentType(type)) {
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
        return false;
    default:
        return true;
    }
}

} // namespace kp::model
