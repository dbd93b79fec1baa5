// A sweep: one playground run over a range of one parameter, on several backends, so that GPU and CPU
// times can be drawn against the problem size or the block size (architecture.md: run/Sweep).
//
// SweepSpec is what a person chooses (the playground's "sweep" member, the CLI's options); planSweep
// turns it into one playground per point. A problem-size sweep resizes the swept array (the first
// array argument unless one is named) and every array whose dimensions are all dimensions of it, so
// that scalars bound with size(x), rows(x), ... follow; a block-size sweep sets blockDim.x and lets
// grid "auto" follow. Running the points is SweepRunner.h; the results and what to read from them,
// SweepResult.h.
#pragma once
#include "Backend.h"
#include "core/model/Playground.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kp::run {

enum class SweepParameter { ProblemSize, BlockSize };
enum class SweepScale { Linear, Log };

std::string_view name(SweepParameter parameter); // "size", "block"
std::string_view name(SweepScale scale);         // "linear", "log"

struct SweepSpec {
    SweepParameter parameter = SweepParameter::ProblemSize;
    SweepScale scale = SweepScale::Log;
    double from = 1000;         // first value, inclusive: elements of the swept array, or blockDim.x
    double to = 1000000;        // last value, inclusive
    int steps = 7;              // points from `from` to `to`, both ends included
    std::vector<double> values; // instead of from/to/steps: these values, in this order once sorted
    // Backends by id (Backend::id): "cuda:N", "cpu" (all cores), "cpu:N" (N threads; "cpu:1" is one
    // core), "reference" (the playground's C++ reference). Empty: defaultSweepBackends() (SweepRunner.h).
    std::vector<std::string> backends;
    std::string array; // ProblemSize: the array whose element count is swept; empty: the first array argument
    int repeat = 5;    // timed runs per point and backend
    int warmup = 1;    // untimed runs before them
    // Floating-point operations of one launch, as a formula of n (the swept array's elements), e.g. "n"
    // for an element-wise multiply or "2*n^1.5" for a square matrix product: what places a run on the
    // roofline. Empty: not known.
    std::string flops;
    bool operator==(const SweepSpec&) const = default;

    nlohmann::json toJson() const;
    // Throws InputError naming the member ("sweep.steps: must be 2 or more, got 1").
    static SweepSpec fromJson(const nlohmann::json& json, const std::string& where = "sweep");
};

// The values a spec sweeps, as whole numbers in increasing order without repeats: `values` when given,
// else `steps` values from `from` to `to` evenly spaced (linear) or in a constant ratio (log).
// Throws InputError naming the member for a range that is empty, backwards, below 1 or too large.
std::vector<std::int64_t> sweepValues(const SweepSpec& spec);

// The flops formula at n elements; throws InputError naming "sweep.flops" and the formula's problem.
double evaluateFlops(const std::string& formula, double n);

struct SweepPoint {
    std::int64_t value = 0;     // the parameter's value: elements asked for, or blockDim.x
    std::uint64_t elements = 0; // the swept array's elements at this point (after rounding its dimensions)
    model::Playground playground;
};

struct SweepPlan {
    std::string array;                // the swept array (problem size), or the first array argument
    std::vector<std::string> resized; // the arrays that follow the swept size, in parameter order
    std::vector<SweepPoint> points;   // increasing values
    // What the sweep changed or could not, in words: a fixed grid turned to "auto" so that every point
    // is covered, a scalar given as a number that will not follow the size, points that rounded to
    // the same shape and were merged.
    std::vector<std::string> notes;
};

// Throws InputError for a spec that does not fit the playground (an array that is not there, a swept
// array filled from a file, whose shape cannot change) and launch::SetupError for a playground without
// arrays.
SweepPlan planSweep(const model::Playground& playground, const SweepSpec& spec);

} // namespace kp::run
