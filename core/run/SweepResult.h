// What a sweep measured (SweepRunner.h) and what a person reads from it: time against the parameter
// with the spread of repeats, where the GPU starts to beat the CPU (with and without the copies),
// throughput, and a roofline point. Kept in the playground's "sweep" member and written as CSV by
// `kernelpad-cli sweep` and the app's export.
#pragma once
#include "Sweep.h"
#include "Timing.h"

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kp::run {

// One point on one backend.
struct SweepRow {
    std::int64_t value = 0;     // the parameter's value (SweepPoint::value)
    std::uint64_t elements = 0; // the swept array's elements
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::string backend; // its id: "cuda:0", "cpu", "cpu:1", "reference"
    // Every timed repeat. Copies are a CUDA backend's alone: the CPU backends and the reference work
    // on the host's arrays, so their rows have none.
    std::vector<double> kernelMs, h2dMs, d2hMs;
    std::uint64_t bytes = 0;     // every array copied in and out once: what the kernel must at least move
    std::optional<double> flops; // from the spec's formula
    std::string check;           // "passed", "failed: ..." (Check's words), or empty when not checked
    std::string error;           // why this point did not run on this backend; empty when it ran
    bool operator==(const SweepRow&) const = default;

    bool ran() const { return error.empty() && !kernelMs.empty(); }
    bool onGpu() const { return backend.rfind("cuda", 0) == 0; }
    Spread kernel() const { return spreadOf(kernelMs); }
    // The median kernel time, plus the median copies in and out when `withTransfers` (GPU rows only).
    double timeMs(bool withTransfers) const;
    // Over the median kernel time; none when the row did not run.
    std::optional<double> elementsPerSecond() const;
    std::optional<double> gigabytesPerSecond() const;
    std::optional<double> gflops() const;
    // FLOPs per byte moved: where the row sits on a roofline; none without flops or bytes.
    std::optional<double> intensity() const;
};

// One row as SweepResult::toJson writes it (the worker sends each as it is measured); fromJson throws
// InputError naming the member under `where`.
nlohmann::json toJson(const SweepRow& row);
SweepRow sweepRowFromJson(const nlohmann::json& json, const std::string& where = "row");

// What a device can reach at `intensity` FLOP/byte: its bandwidth times the intensity, up to its compute
// peak (the roofline). 0 where the peak is not known.
double roofGflops(const DevicePeak& peak, double intensity);

struct SweepBackendInfo {
    std::string id;   // "cuda:0"
    std::string name; // "cuda:0 NVIDIA H100 80GB HBM3", "cpu (16 threads)", "C++ reference"
    DevicePeak peak;  // GPUs: the device's; zero where not known (CPUs)
    bool operator==(const SweepBackendInfo&) const = default;
    bool onGpu() const { return id.rfind("cuda", 0) == 0; }
};

struct SweepResult {
    SweepSpec spec;
    std::string title;                      // the playground's
    std::string kernel;                     // its kernel's name
    std::string array;                      // the swept array
    std::vector<std::string> notes;         // the plan's
    std::vector<SweepBackendInfo> backends; // in the spec's order
    // Point by point; within a point the reference first, then the CPU backends, then the GPUs (the
    // order they run in, so that each can be checked against what ran before it).
    std::vector<SweepRow> rows;
    bool cancelled = false;
    // A CUDA backend faulted (or failed for good) on the way: this process's CUDA context is unusable,
    // so the worker ends after answering. About the process, not the results: never saved.
    bool gpuFaulted = false;
    bool operator==(const SweepResult&) const = default;

    const SweepBackendInfo* backend(std::string_view id) const;
    // The rows of one backend, in increasing parameter order.
    std::vector<const SweepRow*> rowsOf(std::string_view backendId) const;
    // The x of a row: its elements for a problem-size sweep, blockDim.x for a block-size sweep.
    double x(const SweepRow& row) const;
    // "elements of dest" or "threads per block (blockDim.x)".
    std::string parameterLabel() const;

    nlohmann::json toJson() const;
    // Throws InputError naming the member that is missing or wrong ("sweep.results.rows[3].kernel_ms").
    static SweepResult fromJson(const nlohmann::json& json, const std::string& where = "sweep.results");

    // One line per row, with a header: parameter, value, elements, block, grid, backend, repeats,
    // kernel min/median/max, copies, kernel+copies, bytes, GB/s, elements/s, GFLOP/s, check, error
    // (milliseconds; empty cells where a figure does not apply).
    std::string toCsv() const;
    // toCsv's first line and one of its rows, for writing rows as they come.
    static std::string csvHeader();
    std::string csvLine(const SweepRow& row) const;
};

// Where a GPU backend starts to beat a CPU backend: the last point at which the GPU is not faster and
// the next one, interpolated on log-log axes, so that "from here on the GPU wins".
struct Crossover {
    enum class Kind {
        Found,               // at `x`, between two measured points
        GpuFasterThroughout, // already at the first point
        GpuNeverFaster,      // not even at the last point
        TooFewPoints,        // fewer than two points ran on both
    };
    std::string gpu, cpu; // backend ids
    bool withTransfers = false;
    Kind kind = Kind::TooFewPoints;
    double x = 0; // Found: the parameter's value there; else the first (GpuFasterThroughout) or last point
    double timeMs = 0; // Found: the time both take there (interpolated)
    bool operator==(const Crossover&) const = default;
};

// The CPU backend a GPU is compared with first: the reference (what the tutorials timed against), else
// the CPU backend on all cores, else the first on fewer; empty when the sweep has none.
std::string preferredCpu(const SweepResult& result);

Crossover crossover(const SweepResult& result, std::string_view gpu, std::string_view cpu,
                    bool withTransfers);
// Every GPU backend against every CPU backend (the reference, then "cpu", then "cpu:N"), kernel only
// and with the copies. None for a block-size sweep: GPU and CPU do not cross over a block size.
std::vector<Crossover> crossovers(const SweepResult& result);
// "cuda:0 beats the C++ reference from about 12,300 elements of dest (kernel only)".
std::string describe(const Crossover& crossover, const SweepResult& result);

// A count as people write it: "12,300", "1.2 million" beyond ten million.
std::string formatCount(double count);

} // namespace kp::run

namespace kp::run {

// A sweep kept with its playground: the spec in the playground's "sweep" member, and the latest results
// in its "results" member, so that saving the playground keeps both and opening it shows them again.
// Throws InputError naming the member when "sweep" is there but malformed; nullopt when absent.
std::optional<SweepSpec> storedSweepSpec(const model::Playground& playground);
std::optional<SweepResult> storedSweepResult(const model::Playground& playground);
// Replaces the playground's "sweep" member; without results, any stored ones are dropped.
void storeSweep(model::Playground& playground, const SweepSpec& spec, const SweepResult* results);

} // namespace kp::run
