// The variables a CUDA source declares in device memory, __constant__ and __device__ ones, found by
// reading its tokens: a program's "symbol" steps (cudaMemcpyToSymbol) may name only these, and the check
// that they exist runs before anything is compiled.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kp::source {

struct DeviceVariable {
    std::string name;      // as declared (unqualified)
    bool constant = false; // __constant__, else __device__
    std::string type;      // the element type as written, qualifiers dropped: "float", "unsigned int"
    bool array = false;    // declared with [extent]
    int line = 0;          // 1-based, of the name

    bool operator==(const DeviceVariable&) const = default;
};

// In source order; a declaration inside a comment, a literal or a preprocessor line is none, and a
// __device__ function is not a variable.
std::vector<DeviceVariable> deviceVariables(std::string_view source);

} // namespace kp::source
