#include "Check.h"

#include "core/Error.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace kp::run {

namespace {

void requireComparable(const std::string& output, const model::Array& actual, const model::Array& expected) {
    if (actual.dtype() == expected.dtype() && actual.shape() == expected.shape()) return;
    throw InputError("cannot check '" + output + "': the output is " +
                     std::string(model::name(actual.dtype())) + " " + model::toString(actual.shape()) +
                     " but the reference is " + std::string(model::name(expected.dtype())) + " " +
                     model::toString(expected.shape()));
}

} // namespace

Tolerance defaultTolerance(model::DType dtype) {
    switch (dtype) {
    case model::DType::Float16:
        return {1e-3, 1e-5};
    case model::DType::Float32:
    case model::DType::Float2:
    case model::DType::Float4:
        return {1.3e-6, 1e-5};
    case model::DType::Float64:
        return {1e-7, 1e-7};
    default:
        return {0, 0};
    }
}

Tolerance toleranceFor(const model::CheckSpec& spec, model::DType dtype) {
    const Tolerance fallback = defaultTolerance(dtype);
    return {spec.rtol.value_or(fallback.rtol), spec.atol.value_or(fallback.atol)};
}

bool matches(double a, double e, const Tolerance& t) {
    if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
    if (std::isinf(a) || std::isinf(e)) return a == e;
    return std::fabs(a - e) <= t.atol + t.rtol * std::fabs(e);
}

std::vector<std::size_t> unravel(std::size_t flat, const model::Shape& shape) {
    std::vector<std::size_t> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        index[d] = shape[d] ? flat % shape[d] : 0;
        flat = shape[d] ? flat / shape[d] : 0;
    }
    return index;
}

CheckResult check(const std::string& output, const model::Array& actual, const model::Array& expected,
                  const Tolerance& tolerance) {
    requireComparable(output, actual, expected);
    CheckResult r;
    r.output = output;
    r.tolerance = tolerance;
    const int parts = model::components(actual.dtype());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        for (int c = 0; c < parts; ++c) {
            const double a = actual.value(i, c);
            const double e = expected.value(i, c);
            if (std::isfinite(a) && std::isfinite(e)) {
                const double diff = std::fabs(a - e);
                r.maxAbs = std::max(r.maxAbs, diff);
                if (e != 0) r.maxRel = std::max(r.maxRel, diff / std::fabs(e));
            }
            if (matches(a, e, tolerance)) continue;
            if (++r.mismatches <= CheckResult::kMaxListed)
                r.first.push_back({unravel(i, actual.shape()), a, e});
        }
    }
    r.passed = r.mismatches == 0;
    return r;
}

namespace {

// The two values of a mismatch as a person can tell them apart: whole numbers in full (an int32 count
// of 138364012 is not "1.38364e+08"), others with as many digits as it takes to show the difference.
std::pair<std::string, std::string> distinct(double actual, double expected) {
    const auto whole = [](double v) { return std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15; };
    const auto print = [](double v, int digits) {
        std::ostringstream text;
        text << std::setprecision(digits) << v;
        return text.str();
    };
    if (whole(actual) && whole(expected)) return {print(actual, 16), print(expected, 16)};
    for (int digits = 6;; ++digits)
        if (digits == 17 || print(actual, digits) != print(expected, digits))
            return {print(actual, digits), print(expected, digits)};
}

} // namespace

std::string describe(const CheckResult& r, std::string_view against) {
    std::ostringstream text;
    text << r.output << ": ";
    if (r.passed) {
        text << "matches " << against << " (max abs " << r.maxAbs << ", max rel " << r.maxRel << ")";
        return text.str();
    }
    text << r.mismatches << (r.mismatches == 1 ? " value differs" : " values differ") << " from " << against
         << " (max abs " << r.maxAbs << ", max rel " << r.maxRel << "; allowed: atol " << r.tolerance.atol
         << " + rtol " << r.tolerance.rtol << " x |expected|)";
    if (!r.first.empty()) {
        const auto& m = r.first.front();
        text << "; first at [";
        for (std::size_t d = 0; d < m.index.size(); ++d)
            text << (d ? ", " : "") << m.index[d];
        const auto [actual, expected] = distinct(m.actual, m.expected);
        text << "]: " << actual << " where " << against << " has " << expected;
    }
    return text.str();
}

} // namespace kp::run
