// Finds every __global__ function in a CUDA source and its parameters, without a compiler. The editor
// reparses on each keystroke and launch::prepare matches arguments against the result, so it is
// linear in the input and never fails: any bytes give kernels and problems, never an exception.
//
// Understood: comments, string/char/raw-string literals, preprocessor lines (with continuations),
// `#if 0` / `#if 1` ... `#else` groups, extern "C" (one declaration or a block), templates, default
// arguments, __launch_bounds__ and attributes, prototypes (merged with their definition).
// Not understood: function-like macros and object-like macros whose body has no __global__ (they are
// not expanded, so `#define KERNEL(n) __global__ void n` hides the kernel), other #if conditions (every
// branch is read; duplicates merge), namespaces (names are unqualified).
#pragma once

#include "Diagnostic.h"
#include "KernelSignature.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kp::model {

struct ParseResult {
    std::vector<KernelSignature> kernels; // in source order, one per name and parameter types
    // What the parser could not make sense of or what CUDA rejects: unterminated comments and
    // literals, unbalanced parentheses in a __global__ declaration, a __global__ function not
    // returning void. At most 100, then one note saying how many more there were.
    std::vector<Diagnostic> problems;

    bool operator==(const ParseResult&) const = default;
};

ParseResult parseKernels(std::string_view source, const std::string& fileName = "kernel.cu");

// The first kernel called `name`, or nullptr.
const KernelSignature* findKernel(const ParseResult& result, std::string_view name);

// The dtype of a type written as text ("float", "unsigned int", "const std::int32_t"), as a parameter of
// that type would get; nothing for other types.
std::optional<DType> dtypeOfType(std::string_view type);

} // namespace kp::model
