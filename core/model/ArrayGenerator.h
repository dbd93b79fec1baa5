// Fills an argument's array from its init (zeros, ones, constant, range, random, formula): what a
// run copies to the device for in/inout arguments and what the GUI's argument panels preview.
//
// Every value is computed as a double and stored through Array::setValue. For integer dtypes it is first
// rounded to the nearest integer (halves away from zero), except uniform random values, which are floored
// so that {"random": "uniform", "low": 0, "high": 10} gives each of 0..9 equally often; out-of-range
// values saturate. Vector dtypes (float2, int4, ...): constant, range, formula and ones give every
// component the element's value (a formula may use c, the component's index, to tell them apart);
// random draws every component separately, element by element, component by component.
//
// Random values are reproducible everywhere: std::mt19937_64 seeded with `seed`, turned into doubles by
// our own transforms (53 random bits for uniforms, Box-Muller for normals), never by the standard
// library's distributions, whose algorithms differ between implementations.
#pragma once

#include "core/model/Array.h"
#include "core/model/Playground.h"

#include <string>

namespace kp::model {

// `where` names the init in messages, e.g. "args[1].init". The array's memory comes from `allocator` (the
// CUDA runner's pinned memory: no copy afterwards). Every init but a file's: io::initialArray reads those
// (model does no I/O) and throws Error for one.
Array generate(const ArraySpec& spec, const InitSpec& init, const std::string& where,
               const std::shared_ptr<HostAllocator>& allocator = heapAllocator());

// Throws InputError, naming `where`, the formula and the position of the error, when `formula` is not a
// valid formula over the variables i, j, k, c, n and the constants pi and e:
//   i, j, k  the element's row-major indices (1-D: i; 2-D: i row, j column; 3-D: i, j, k); unused ones are 0
//   c        the component of a vector type's element (0 for scalar dtypes)
//   n        the element count
void checkFormula(const std::string& formula, const std::string& where);

// Whether every element `init` gives depends only on its flat position (and the seed), never on the
// array's size: then the first elements of a larger array generated from it are the smaller array (see
// leadingView in Array.h), and a sweep generates its inputs once, at the largest size (zeros, ones,
// constants, ranges, uniform and normal draws; not formulas, which may read n, nor files).
bool generatedInIndexOrder(const InitSpec& init);

} // namespace kp::model
