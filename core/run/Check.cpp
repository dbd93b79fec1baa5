#include "Check.h"

#include "core/Error.h"
#include "core/Parallel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <numeric>
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
    switch (model::componentType(dtype)) {
    case model::DType::Float16:
        return {1e-3, 1e-5};
    case model::DType::BFloat16:
        return {1.6e-2, 1e-5};
    case model::DType::Float32:
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

namespace {

// One element's comparison, whatever its type was: into the result's figures and mismatches.
inline void compare(CheckResult& r, const model::Shape& shape, std::size_t i, double a, double e) {
    if (std::isfinite(a) && std::isfinite(e)) {
        const double diff = std::fabs(a - e);
        r.maxAbs = std::max(r.maxAbs, diff);
        if (e != 0) r.maxRel = std::max(r.maxRel, diff / std::fabs(e));
    }
    if (matches(a, e, r.tolerance)) return;
    if (++r.mismatches <= CheckResult::kMaxListed) r.first.push_back({unravel(i, shape), a, e});
}

// The common dtypes read straight from memory: a sweep checks hundreds of millions of elements, and
// Array::value's dispatch per element was most of the check's time. Large arrays are checked in parts on
// every core, each part counting its own mismatches, listed and merged in the order of the parts.
template <typename T>
bool compareAs(model::DType dtype, CheckResult& r, const model::Array& actual, const model::Array& expected) {
    if (actual.dtype() != dtype) return false;
    const auto a = actual.as<T>();
    const auto e = expected.as<T>();
    // Identical bits add nothing to a check (a difference of 0, NaN against the same NaN matches): runs of
    // them are found with memcmp, and only the runs that differ are compared element by element. A GPU's
    // or the CPU backend's results are often the reference's bit for bit.
    constexpr std::size_t kRun = 1024;
    const auto range = [&](CheckResult& into, std::size_t from, std::size_t to) {
        CheckResult part = into; // on this thread's stack: parts side by side would share cache lines
        for (std::size_t run = from; run < to; run += kRun) {
            const std::size_t end = std::min(to, run + kRun);
            if (std::memcmp(&a[run], &e[run], (end - run) * sizeof(T)) == 0) continue;
            for (std::size_t i = run; i < end; ++i)
                compare(part, actual.shape(), i, static_cast<double>(a[i]), static_cast<double>(e[i]));
        }
        into = std::move(part);
    };
    constexpr std::size_t kParallelFrom = std::size_t{1} << 21;
    std::vector<CheckResult> parts(partsOf(a.size(), kParallelFrom), r);
    inIndexedParts(a.size(), kParallelFrom, [&](std::size_t index, std::size_t from, std::size_t to) {
        range(parts[index], from, to);
    });
    for (const auto& part : parts) {
        r.maxAbs = std::max(r.maxAbs, part.maxAbs);
        r.maxRel = std::max(r.maxRel, part.maxRel);
        r.mismatches += part.mismatches;
        for (const auto& m : part.first)
            if (r.first.size() < CheckResult::kMaxListed) r.first.push_back(m);
    }
    return true;
}

} // namespace

CheckResult check(const std::string& output, const model::Array& actual, const model::Array& expected,
                  const Tolerance& tolerance) {
    requireComparable(output, actual, expected);
    CheckResult r;
    r.output = output;
    r.tolerance = tolerance;
    if (!compareAs<float>(model::DType::Float32, r, actual, expected) &&
        !compareAs<double>(model::DType::Float64, r, actual, expected) &&
        !compareAs<std::int32_t>(model::DType::Int32, r, actual, expected)) {
        const int parts = model::components(actual.dtype());
        for (std::size_t i = 0; i < actual.size(); ++i)
            for (int c = 0; c < parts; ++c)
                compare(r, actual.shape(), i, actual.value(i, c), expected.value(i, c));
    }
    r.passed = r.mismatches == 0;
    return r;
}

namespace {

// Orders element i of `a` against element j of `b`: vector lanes compared in order, NaN above every number
// and equal to NaN. Negative, zero or positive, as a three-way comparison.
int compareElements(const model::Array& a, std::size_t i, const model::Array& b, std::size_t j) {
    for (int c = 0; c < model::components(a.dtype()); ++c) {
        const double x = a.value(i, c);
        const double y = b.value(j, c);
        if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) != std::isnan(y)) return std::isnan(x) ? 1 : -1;
            continue;
        }
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

bool elementsMatch(const model::Array& a, std::size_t i, const model::Array& b, std::size_t j,
                   const Tolerance& tolerance) {
    for (int c = 0; c < model::components(a.dtype()); ++c)
        if (!matches(a.value(i, c), b.value(j, c), tolerance)) return false;
    return true;
}

// Element positions [first, first + count) of `array` in ascending order of value, ties in position order.
// A scalar element's value is read once, not twice per comparison (a million kept values of a stream
// compaction took 0.3 s to sort through Array::value).
std::vector<std::size_t> sortedPositions(const model::Array& array, std::size_t first, std::size_t count) {
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), first);
    if (model::components(array.dtype()) != 1) {
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return compareElements(array, a, array, b) < 0;
        });
        return order;
    }
    std::vector<double> values(count);
    for (std::size_t k = 0; k < count; ++k)
        values[k] = array.value(first + k);
    // compareElements' order: NaN above every number, and equal to NaN.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const double x = values[a - first], y = values[b - first];
        return std::isnan(y) ? !std::isnan(x) : x < y;
    });
    return order;
}

// Pairs the elements [first, first + count) of `actual` with those of `expected` as multisets: both
// sorted, then merged, an output value meeting the reference value it matches within the tolerance;
// the values left without a partner on either side are paired with each other in order. One wrong
// value is then one mismatch, not a shift of every value after it. Writes the partners into `arranged`.
void pairAsMultisets(const model::Array& actual, const model::Array& expected, std::size_t first,
                     std::size_t count, const Tolerance& tolerance, model::Array& arranged) {
    const std::vector<std::size_t> outputs = sortedPositions(actual, first, count);
    const std::vector<std::size_t> references = sortedPositions(expected, first, count);
    const std::size_t itemBytes = model::byteSize(actual.dtype());
    const auto place = [&](std::size_t at, std::size_t from) {
        std::memcpy(arranged.data() + at * itemBytes, expected.data() + from * itemBytes, itemBytes);
    };
    std::vector<std::size_t> lonelyOutputs, lonelyReferences;
    std::size_t i = 0, j = 0;
    while (i < count && j < count) {
        if (elementsMatch(actual, outputs[i], expected, references[j], tolerance))
            place(outputs[i++], references[j++]);
        else if (compareElements(actual, outputs[i], expected, references[j]) < 0)
            lonelyOutputs.push_back(outputs[i++]);
        else
            lonelyReferences.push_back(references[j++]);
    }
    lonelyOutputs.insert(lonelyOutputs.end(), outputs.begin() + static_cast<std::ptrdiff_t>(i),
                         outputs.end());
    lonelyReferences.insert(lonelyReferences.end(), references.begin() + static_cast<std::ptrdiff_t>(j),
                            references.end());
    for (std::size_t k = 0; k < lonelyOutputs.size(); ++k)
        place(lonelyOutputs[k], lonelyReferences[k]);
}

// "[0, 255]"
std::string boundsText(const model::UnorderedSpec& how) {
    std::ostringstream text;
    text << "[" << how.min << ", " << how.max << "]";
    return text.str();
}

// "[2, 1]", a mismatch's row-major indices.
std::string indexText(const std::vector<std::size_t>& index) {
    std::string text = "[";
    for (std::size_t d = 0; d < index.size(); ++d)
        text += (d ? ", " : "") + std::to_string(index[d]);
    return text + "]";
}

} // namespace

std::string comparedAs(const model::UnorderedSpec& how) {
    switch (how.kind) {
    case model::UnorderedSpec::Kind::Multiset:
        return "as a multiset";
    case model::UnorderedSpec::Kind::MultisetPerRow:
        return "as a multiset per row";
    case model::UnorderedSpec::Kind::Range:
        break;
    }
    return "within " + boundsText(how);
}

model::Array arrangeLike(const model::UnorderedSpec& how, const std::string& output,
                         const model::Array& actual, const model::Array& expected,
                         const Tolerance& tolerance) {
    requireComparable(output, actual, expected);
    model::Array arranged(expected.dtype(), expected.shape());
    if (how.kind == model::UnorderedSpec::Kind::Range) {
        for (std::size_t i = 0; i < actual.size(); ++i)
            for (int c = 0; c < model::components(actual.dtype()); ++c) {
                const double v = actual.value(i, c);
                // NaN lies in no range: it meets the lower bound, which it does not match.
                arranged.setValue(i, std::isnan(v) ? how.min : std::clamp(v, how.min, how.max), c);
            }
        return arranged;
    }
    const std::size_t row = how.kind == model::UnorderedSpec::Kind::MultisetPerRow && !actual.shape().empty()
                                ? actual.shape().back()
                                : actual.size();
    for (std::size_t first = 0; row != 0 && first < actual.size(); first += row)
        pairAsMultisets(actual, expected, first, row, tolerance, arranged);
    return arranged;
}

CheckResult checkUnordered(const model::UnorderedSpec& how, const std::string& output,
                           const model::Array& actual, const model::Array& expected,
                           const Tolerance& tolerance) {
    CheckResult result =
        check(output, actual, arrangeLike(how, output, actual, expected, tolerance), tolerance);
    result.unordered = how;
    return result;
}

CheckResult checkOutput(const model::CheckSpec& spec, const std::string& output, const model::Array& actual,
                        const model::Array& expected) {
    const Tolerance tolerance = toleranceFor(spec, actual.dtype());
    const auto how = spec.unordered.find(output);
    if (how == spec.unordered.end()) return check(output, actual, expected, tolerance);
    return checkUnordered(how->second, output, actual, expected, tolerance);
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
    if (r.unordered && r.unordered->kind == model::UnorderedSpec::Kind::Range) {
        // The reference plays no part: the values are held to the playground's bounds.
        if (r.passed) return text.str() + "every value lies " + comparedAs(*r.unordered);
        text << r.mismatches << (r.mismatches == 1 ? " value lies" : " values lie") << " outside "
             << boundsText(*r.unordered);
        if (!r.first.empty())
            text << "; first at " << indexText(r.first.front().index) << ": "
                 << distinct(r.first.front().actual, r.first.front().expected).first;
        return text.str();
    }
    const std::string how = r.unordered ? " " + comparedAs(*r.unordered) : std::string();
    if (r.passed) {
        text << "matches " << against << how << " (max abs " << r.maxAbs << ", max rel " << r.maxRel << ")";
        return text.str();
    }
    text << r.mismatches << (r.mismatches == 1 ? " value differs" : " values differ") << " from " << against
         << how << " (max abs " << r.maxAbs << ", max rel " << r.maxRel << "; allowed: atol "
         << r.tolerance.atol << " + rtol " << r.tolerance.rtol << " x |expected|)";
    if (!r.first.empty()) {
        const auto& m = r.first.front();
        const auto [actual, expected] = distinct(m.actual, m.expected);
        text << "; first at " << indexText(m.index) << ": " << actual << " where " << against
             << (how.empty() ? "" : ", sorted alike,") << " has " << expected;
    }
    return text.str();
}

} // namespace kp::run
