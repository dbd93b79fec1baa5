#include "ScalarBinding.h"

#include "core/Error.h"

#include <cmath>
#include <limits>

namespace kp::model {

namespace {

// The range of an integer component type, as doubles (the ends of the 64-bit types round to 2^63, 2^64).
std::pair<double, double> integerRange(DType component) {
    switch (component) {
    case DType::Int8:
        return {-128.0, 127.0};
    case DType::UInt8:
        return {0.0, 255.0};
    case DType::Int16:
        return {-32768.0, 32767.0};
    case DType::UInt16:
        return {0.0, 65535.0};
    case DType::Int32:
        return {-2147483648.0, 2147483647.0};
    case DType::UInt32:
        return {0.0, 4294967295.0};
    case DType::Int64:
        return {-9223372036854775808.0, 9223372036854775807.0};
    case DType::Bool:
        return {0.0, 1.0};
    default:
        return {0.0, 18446744073709551615.0};
    }
}

// Whether a finite `value` stays finite once stored as the floating `component`. Values just above the
// largest finite one round down to it (65519 is stored as float16 65504); only those that round to
// infinity overflow.
bool staysFinite(DType component, double value) {
    const double magnitude = std::abs(value);
    if (component == DType::Float16) // through float, as Array::setValue stores it
        return magnitude < 65536.0 && (floatToHalf(static_cast<float>(magnitude)) & 0x7C00u) != 0x7C00u;
    // Halfway past the largest finite value rounds up: FLT_MAX for float32, 0x1.fep127 for bfloat16.
    if (component == DType::Float32) return magnitude < 0x1.ffffffp127;
    if (component == DType::BFloat16) return magnitude < 0x1.ffp127;
    return true;
}

std::string printed(double value) {
    return toString(ScalarValue{ScalarValue::Kind::Number, value, {}});
}

} // namespace

std::size_t dimension(ScalarValue::Kind kind, const Shape& shape) {
    switch (kind) {
    case ScalarValue::Kind::Size:
        return elementCount(shape);
    case ScalarValue::Kind::Rows:
        return shape.empty() ? 0 : shape[0];
    case ScalarValue::Kind::Cols:
        return shape.size() > 1 ? shape[1] : 1;
    case ScalarValue::Kind::Depth:
        return shape.size() > 2 ? shape[2] : 1;
    case ScalarValue::Kind::Number:
        break;
    }
    return 0;
}

double evaluate(const ScalarValue& value, const ShapeLookup& shapeOf, const std::string& where) {
    if (value.kind == ScalarValue::Kind::Number) return value.number;
    const Shape* shape = shapeOf(value.array);
    if (!shape)
        throw InputError(where + ": " + toString(value) + " names \"" + value.array +
                         "\", which is not an array argument of this playground");
    return static_cast<double>(dimension(value.kind, *shape));
}

double evaluate(const ArgumentSpec& arg, const Playground& playground) {
    const ShapeLookup shapeOf = [&](std::string_view name) -> const Shape* {
        const ArgumentSpec* found = playground.find(name);
        return found && found->isArray() ? &found->array().shape : nullptr;
    };
    if (!arg.value) throw InputError("argument " + arg.name + ": a scalar argument needs a value");
    return evaluate(*arg.value, shapeOf, "argument " + arg.name);
}

std::vector<std::byte> scalarBytes(DType dtype, double value, const std::string& where) {
    const DType component = componentType(dtype);
    if (std::isnan(value) && !isFloating(component))
        throw InputError(where + ": NaN has no " + std::string(name(dtype)) + " value");
    if (!isFloating(component)) {
        const auto [low, high] = integerRange(component);
        // The top of the 64-bit ranges is 2^63 or 2^64 as a double, one past the largest integer.
        const bool tooHigh =
            component == DType::Int64 || component == DType::UInt64 ? value >= high : value > high;
        if (value < low || tooHigh || value != std::trunc(value))
            throw InputError(where + ": " + printed(value) + " is not a " + std::string(name(dtype)) +
                             " value (" +
                             (value != std::trunc(value) ? "not a whole number" : "out of range") +
                             "): change the value or the scalar's dtype");
    } else if (std::isfinite(value) && !staysFinite(component, value)) {
        throw InputError(where + ": " + printed(value) + " is too large for " + std::string(name(dtype)));
    }
    Array one(dtype, {1});
    for (int c = 0; c < components(dtype); ++c)
        one.setValue(0, value, c);
    return {one.span().begin(), one.span().end()};
}

} // namespace kp::model
