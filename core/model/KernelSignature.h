// A __global__ function as its CUDA source declares it: name, linkage, template parameters and each
// parameter's type. SignatureParser builds these; argument specs, the editor and the CLI read them.
#pragma once

#include "DType.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kp::model {

struct Parameter {
    std::string name;     // as declared; "argN" (0-based N) for an unnamed parameter
    std::string typeText; // as written, comments dropped and blanks collapsed: "const float* __restrict__"
    bool pointer = false; // a pointer or an array parameter (float a[] is a float*)
    // For pointers, whether the pointee is const (const float* a, float const* a; not float* const a).
    // For scalars, whether the parameter itself is declared const.
    bool isConst = false;
    // The element type (the pointee's for pointers). Empty where no DType fits: structs, template
    // parameters, references, pointers to pointers, function pointers, bool.
    std::optional<DType> dtype;
    // For a parameter of one plain type word that is neither a built-in type nor an alias or type macro
    // of one declared before the kernel (a struct, a template parameter): that word. Empty otherwise.
    std::string unresolvedType;
    int line = 0;             // 1-based, of the name (of the parameter's first token when unnamed)
    int column = 0;           // 1-based, in bytes
    std::string defaultValue; // as written ("f(1, 2)"); empty when there is none

    bool operator==(const Parameter&) const = default;
};

struct KernelSignature {
    std::string name;
    std::vector<Parameter> parameters;
    bool externC = false; // extern "C" linkage: the name is not mangled, so NVRTC needs no name expression
    bool isTemplate = false;
    std::vector<std::string> templateParameters; // as written: "typename T", "int N = 4"
    int line = 0;                                // 1-based, of the name
    int column = 0;                              // 1-based, in bytes

    bool operator==(const KernelSignature&) const = default;
};

// The declaration again, normalised: `extern "C" __global__ void scale(float* x, int n = 10)`.
std::string toString(const KernelSignature& kernel);
std::ostream& operator<<(std::ostream& out, const KernelSignature& kernel);

} // namespace kp::model
