// The value a scalar argument is launched with: its number, or a dimension of an array argument
// ("size(a)"). Used by the runners to build the launch's parameters and by the GUI to show the value.
//
// Dimensions, for an array of shape (d0), (d0, d1) or (d0, d1, d2):
//   size  = the element count (d0 * d1 * d2)
//   rows  = d0
//   cols  = d1, or 1 for a 1-D array
//   depth = d2, or 1 for a 1-D or 2-D array
#pragma once

#include "core/model/Array.h"
#include "core/model/Playground.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kp::model {

std::size_t dimension(ScalarValue::Kind kind, const Shape& shape); // kind is Size, Rows, Cols or Depth

// The shape of the array argument called `name`, or nullptr when there is no array argument so named.
using ShapeLookup = std::function<const Shape*(std::string_view name)>;

// `value` as a number. Throws InputError, naming `where` (e.g. "args[3].value"), when it names an
// argument that is not an array argument.
double evaluate(const ScalarValue& value, const ShapeLookup& shapeOf, const std::string& where);
// The scalar argument `arg` of `playground`, its dimensions taken from the playground's array specs.
double evaluate(const ArgumentSpec& arg, const Playground& playground);

// `value` stored as `dtype` would be in a kernel's parameter buffer (every component of a vector type
// gets the value). Throws InputError, naming `where`, when the value does not fit the type: an integer
// type's range, or overflow to infinity for a floating type, rather than a silent wrap or saturation.
std::vector<std::byte> scalarBytes(DType dtype, double value, const std::string& where);

} // namespace kp::model
