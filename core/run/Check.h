// Compares a kernel's output with the reference the way numpy.allclose does (|a - e| <= atol +
// rtol * |e|), NaN-aware, and says how far off it is and where. Used by the Runner, the CLI and the
// results view.
#pragma once

#include "core/model/Array.h"
#include "core/model/Playground.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kp::run {

struct Tolerance {
    double rtol = 1e-5;
    double atol = 1e-8;
    bool operator==(const Tolerance&) const = default;
};

// The tolerance for an output of `dtype` when the playground names none, as torch.testing's
// assert_close chooses them: float16 rtol 1e-3 atol 1e-5, float32 (and float2, float4) rtol 1.3e-6
// atol 1e-5, float64 rtol 1e-7 atol 1e-7, integers exact. Wide enough for a GPU's fused multiply-adds
// and rounding against a CPU's, narrow enough for a wrong index or a lost update.
Tolerance defaultTolerance(model::DType dtype);
// The playground's rtol and atol where it gives them, each of the others from defaultTolerance(dtype).
Tolerance toleranceFor(const model::CheckSpec& spec, model::DType dtype);

struct CheckResult {
    std::string output; // the argument's name
    bool passed = true;
    std::size_t mismatches = 0;
    double maxAbs = 0; // largest |actual - expected| over finite pairs
    double maxRel = 0; // largest |actual - expected| / |expected| over finite pairs with expected != 0
    // Up to kMaxListed mismatching elements, first by position: multi-dimensional indices (row-major).
    struct Mismatch {
        std::vector<std::size_t> index;
        double actual = 0;
        double expected = 0;
        bool operator==(const Mismatch&) const = default;
    };
    std::vector<Mismatch> first;
    static constexpr std::size_t kMaxListed = 10;
    Tolerance tolerance; // what it was checked with
    // Set for an output the playground declares unordered: how it was compared (see arrangeLike).
    std::optional<model::UnorderedSpec> unordered;
    bool operator==(const CheckResult&) const = default;
};

// Whether one value of an output matches the reference's: |actual - expected| <= atol + rtol * |expected|;
// NaN matches NaN only, an infinity only the same infinity. check() counts with it; the results view
// highlights table cells and plot points with it.
bool matches(double actual, double expected, const Tolerance& tolerance);

// Throws InputError when dtypes or shapes differ (naming both). Both NaN is a match; NaN against a
// number, or infinities of different sign, are mismatches.
CheckResult check(const std::string& output, const model::Array& actual, const model::Array& expected,
                  const Tolerance& tolerance);

// The reference as an element-by-element check of an unordered output compares it (check(), the results
// view's highlighting). For a multiset both are sorted (vector lanes compared in order, NaN last) and
// merged: each output value meets the reference value it matches within `tolerance`, and the values
// left over on both sides meet each other in order, so one wrong value is one mismatch. Per row the same
// within each row along the last dimension. For a range, the output clamped to [min, max]: only the
// values outside it differ, from the bound they passed. Throws InputError as check() does when dtypes or
// shapes differ.
model::Array arrangeLike(const model::UnorderedSpec& how, const std::string& output,
                         const model::Array& actual, const model::Array& expected,
                         const Tolerance& tolerance);
// check() against arrangeLike(how, ...), with `unordered` set.
CheckResult checkUnordered(const model::UnorderedSpec& how, const std::string& output,
                           const model::Array& actual, const model::Array& expected,
                           const Tolerance& tolerance);
// The comparison `spec` declares for `output`: checkUnordered when it is unordered, else check().
// "as a multiset", "as a multiset per row", "within [0, 255]".
std::string comparedAs(const model::UnorderedSpec& how);
CheckResult checkOutput(const model::CheckSpec& spec, const std::string& output, const model::Array& actual,
                        const model::Array& expected);

// "dest: 3 values differ from the reference (max abs 0.5, max rel 0.01; allowed: atol 1e-05 + rtol
// 1.3e-06 x |expected|); first at [12]: 1.5 where the reference has 1". `against` names what the output
// was compared with.
std::string describe(const CheckResult& result, std::string_view against = "the reference");

// Row-major flat position to indices of `shape`.
std::vector<std::size_t> unravel(std::size_t flat, const model::Shape& shape);

} // namespace kp::run
