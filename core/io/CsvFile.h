// Comma-separated text files for Kernelpad arrays: `init: {"file": "b.csv"}` inputs and the app's
// export, readable by np.loadtxt(f, delimiter=",") and spreadsheets alike.
#pragma once

#include "core/model/Array.h"

#include <filesystem>

namespace kp::io {

// Layout, one row of the array per line, values separated by commas (spaces around them allowed):
//   1-D (n):       n lines of one element, or one line of all n elements;
//   2-D (r, c):    r lines of c elements;
//   3-D (d, r, c): d*r lines of c elements, slice after slice (blank lines between slices are fine).
// A vector-typed element (float4, int2, ...) is its components in consecutive columns. Lines starting
// with '#' and blank lines are skipped; "\r\n" endings and a UTF-8 byte order mark are accepted.
// Numbers are read locale-independently; floats accept nan and inf, but a number beyond the dtype's
// range (1e400, or 1e39 for float32) is an error, not inf (numbers too small for it read as 0); integers
// must be whole and in range for the dtype (1.0e+00, as np.savetxt writes, is fine). Errors throw
// InputError naming the file, line and column: "b.csv:3: expected 4 values, found 3",
// "b.csv:2:5: '1e400' is out of range for float64 (-1.79769e+308 to 1.79769e+308)".
model::Array readCsv(const std::filesystem::path& path, model::DType dtype, const model::Shape& shape);

// Writes the layout above (1-D: one element per line, 3-D: a blank line between slices) with each
// value in its shortest form that reads back to the same bits. Atomic, like writeNpy.
void writeCsv(const std::filesystem::path& path, const model::Array& array);

} // namespace kp::io
