// Arguments for a kernel's signature, keeping what the user already set: the argument panel calls it
// after each successful parse, so renaming a parameter, adding one or reordering them keeps the shapes,
// inits and values the user chose wherever the parameter is still compatible (pointer or scalar alike,
// same element type when the signature names one).
#pragma once

#include "KernelSignature.h"
#include "Playground.h"

#include <vector>

namespace kp::model {

// One argument per parameter, in parameter order. A parameter takes the previous argument of the same
// name when compatible, else the previous argument at its position when that one's name is gone from the
// signature and it is compatible (a rename), else a new default: an array of `defaultElements` float
// elements (the parameter's dtype when known), In with random values for a const pointer and Out
// otherwise; a scalar bound to the first array when its name says it counts (size(x) for n, N, nElems,
// count, len, num...; cols(x) for width, cols, nx; rows(x) for height, rows, ny), else 1: a count or a
// factor of 0 would make the kernel silently do nothing.
std::vector<ArgumentSpec> fitArguments(const KernelSignature& kernel,
                                       const std::vector<ArgumentSpec>& previous,
                                       std::size_t defaultElements = 1024);

// Whether `argument` can stand for `parameter`: both arrays or both scalars, and the same dtype where the
// parameter has one.
bool fits(const ArgumentSpec& argument, const Parameter& parameter);

} // namespace kp::model
