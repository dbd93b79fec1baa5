// numpy's .npy format for Kernelpad arrays, so data moves between notebooks and playgrounds: `init:
// {"file": "b.npy"}` inputs, `kernelpad-cli run --out` results, the app's import and export.
#pragma once

#include "core/model/Array.h"

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace kp::io {

// Reads versions 1.0, 2.0 and 3.0: dtypes '<' or '>' i1/u1/i2/u2/i4/u4/i8/u8/f2/f4/f8 (big-endian
// ones byte-swapped), bool '|b1' (any nonzero byte becomes 1), bfloat16 as 2-byte void items 'V2'
// (numpy has no bfloat16; ml_dtypes saves its own so), Fortran-ordered data converted to C order, 1 to
// 3 dimensions. A vector-typed array arrives in its scalar type with a trailing dimension of 1 to 4
// (float4 (N,) as float32 (N, 4)): pass it through asVectorType. The exception is a 4-dimensional
// file whose last dimension is 1 to 4, which can only be a 3-D vector array and is returned as one
// (int64 lanes as longlong). Anything else (complex, strings, structured, 0-d, truncated, ...) throws
// InputError naming the file and what is wrong.
model::Array readNpy(const std::filesystem::path& path);
// `where` names the bytes' origin in messages ("b.npy"). Bounds-checked for any input.
model::Array parseNpy(std::span<const std::byte> bytes, const std::string& where);

// Writes version 1.0 (2.0 only when the header needs it), C order, native byte order. Vector types
// are written as their scalar type with a trailing dimension of their lane count (float1 too), as numpy
// expects them; bool as '|b1', bfloat16 as '|V2'.
// Atomic: a failed write leaves an existing file as it was. Throws SystemError naming the call.
void writeNpy(const std::filesystem::path& path, const model::Array& array);
std::vector<std::byte> serializeNpy(const model::Array& array);

// Float32 (..., 4) to float4 (...), int32 (..., 2) to int2 (...), and so on; longlong2 to long2 (the
// same lanes); bool to uint8 (the same bytes). Returns the array unchanged when it already has
// `vectorType` or `vectorType` is a scalar type, so loaders may call it for every argument; otherwise
// throws InputError saying which shape the file should have had.
model::Array asVectorType(model::Array array, model::DType vectorType, const std::string& where);

// For files given as an argument's init: throws InputError when the loaded array differs in dtype or
// shape, e.g. "b.npy holds float64 (400,) but float32 (400,) is expected", with a numpy hint on how
// to convert it. Pass `where` as the file and, where known, the argument: "b.npy (argument 'b')".
void requireMatches(const model::Array& loaded, model::DType dtype, const model::Shape& shape,
                    const std::string& where);

} // namespace kp::io
