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

constexpr std::array<Info, 61> kInfo{{
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
    {DType::Bool, "bool", "bool", 1, 1, 1, DType::Bool},
    {DType::BFloat16, "bfloat16", "__nv_bfloat16", 2, 2, 1, DType::BFloat16},
    {DType::Char1, "char1", "char1", 1, 1, 1, DType::Int8},
    {DType::Char2, "char2", "char2", 2, 2, 2, DType::Int8},
    {DType::Char3, "char3", "char3", 3, 1, 3, DType::Int8},
    {DType::Char4, "char4", "char4", 4, 4, 4, DType::Int8},
    {DType::UChar1, "uchar1", "uchar1", 1, 1, 1, DType::UInt8},
    {DType::UChar2, "uchar2", "uchar2", 2, 2, 2, DType::UInt8},
    {DType::UChar3, "uchar3", "uchar3", 3, 1, 3, DType::UInt8},
    {DType::UChar4, "uchar4", "uchar4", 4, 4, 4, DType::UInt8},
    {DType::Short1, "short1", "short1", 2, 2, 1, DType::Int16},
    {DType::Short2, "short2", "short2", 4, 4, 2, DType::Int16},
    {DType::Short3, "short3", "short3", 6, 2, 3, DType::Int16},
    {DType::Short4, "short4", "short4", 8, 8, 4, DType::Int16},
    {DType::UShort1, "ushort1", "ushort1", 2, 2, 1, DType::UInt16},
    {DType::UShort2, "ushort2", "ushort2", 4, 4, 2, DType::UInt16},
    {DType::UShort3, "ushort3", "ushort3", 6, 2, 3, DType::UInt16},
    {DType::UShort4, "ushort4", "ushort4", 8, 8, 4, DType::UInt16},
    {DType::Int1, "int1", "int1", 4, 4, 1, DType::Int32},
    {DType::Int2, "int2", "int2", 8, 8, 2, DType::Int32},
    {DType::Int3, "int3", "int3", 12, 4, 3, DType::Int32},
    {DType::Int4, "int4", "int4", 16, 16, 4, DType::Int32},
    {DType::UInt1, "uint1", "uint1", 4, 4, 1, DType::UInt32},
    {DType::UInt2, "uint2", "uint2", 8, 8, 2, DType::UInt32},
    {DType::UInt3, "uint3", "uint3", 12, 4, 3, DType::UInt32},
    {DType::UInt4, "uint4", "uint4", 16, 16, 4, DType::UInt32},
    {DType::Long1, "long1", "long1", 8, 8, 1, DType::Int64},
    {DType::Long2, "long2", "long2", 16, 16, 2, DType::Int64},
    {DType::Long3, "long3", "long3", 24, 8, 3, DType::Int64},
    {DType::Long4, "long4", "long4", 32, 16, 4, DType::Int64},
    {DType::ULong1, "ulong1", "ulong1", 8, 8, 1, DType::UInt64},
    {DType::ULong2, "ulong2", "ulong2", 16, 16, 2, DType::UInt64},
    {DType::ULong3, "ulong3", "ulong3", 24, 8, 3, DType::UInt64},
    {DType::ULong4, "ulong4", "ulong4", 32, 16, 4, DType::UInt64},
    {DType::LongLong1, "longlong1", "longlong1", 8, 8, 1, DType::Int64},
    {DType::LongLong2, "longlong2", "longlong2", 16, 16, 2, DType::Int64},
    {DType::LongLong3, "longlong3", "longlong3", 24, 8, 3, DType::Int64},
    {DType::LongLong4, "longlong4", "longlong4", 32, 16, 4, DType::Int64},
    {DType::ULongLong1, "ulonglong1", "ulonglong1", 8, 8, 1, DType::UInt64},
    {DType::ULongLong2, "ulonglong2", "ulonglong2", 16, 16, 2, DType::UInt64},
    {DType::ULongLong3, "ulonglong3", "ulonglong3", 24, 8, 3, DType::UInt64},
    {DType::ULongLong4, "ulonglong4", "ulonglong4", 32, 16, 4, DType::UInt64},
    {DType::Float1, "float1", "float1", 4, 4, 1, DType::Float32},
    {DType::Float2, "float2", "float2", 8, 8, 2, DType::Float32},
    {DType::Float3, "float3", "float3", 12, 4, 3, DType::Float32},
    {DType::Float4, "float4", "float4", 16, 16, 4, DType::Float32},
    {DType::Double1, "double1", "double1", 8, 8, 1, DType::Float64},
    {DType::Double2, "double2", "double2", 16, 16, 2, DType::Float64},
    {DType::Double3, "double3", "double3", 24, 8, 3, DType::Float64},
    {DType::Double4, "double4", "double4", 32, 16, 4, DType::Float64},
}};

// Indexed by the enumerator's value: each row sits at its own position.
constexpr bool inOrder() {
    for (std::size_t i = 0; i < kInfo.size(); ++i)
        if (static_cast<std::size_t>(kInfo[i].type) != i) return false;
    return static_cast<std::size_t>(DType::Double4) + 1 == kInfo.size();
}
static_assert(inOrder(), "kInfo lists every DType in declaration order");

constexpr std::array<DType, kInfo.size()> kAll = [] {
    std::array<DType, kInfo.size()> all{};
    for (std::size_t i = 0; i < kInfo.size(); ++i)
        all[i] = kInfo[i].type;
    return all;
}();

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
bool isVector(DType type) {
    return type >= DType::Char1;
}
std::span<const DType> allDTypes() {
    return kAll;
}
std::optional<DType> vectorOf(DType component, int count) {
    for (const auto& i : kInfo)
        if (isVector(i.type) && i.component == component && i.components == count &&
            (i.type < DType::Long1 || i.type > DType::ULong4)) // long and long long: the latter
            return i.type;
    return std::nullopt;
}
DType componentType(DType type) {
    return info(type).component;
}

bool isFloating(DType type) {
    const DType c = componentType(type);
    return c == DType::Float16 || c == DType::BFloat16 || c == DType::Float32 || c == DType::Float64;
}

bool isSigned(DType type) {
    switch (componentType(type)) {
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
    case DType::Bool:
        return false;
    default:
        return true;
    }
}

} // namespace kp::model
