// The timings of one finished run, read back from its report (RunReport::toJson), and what a person
// wants to know of them: the spread of the repeats, the effective bandwidth and GFLOP/s against the
// device's peak, and how a run compares with the one before. Used by the app's timings view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kp::run {

// The spread of a set of repeats; all zero for none.
struct Spread {
    double min = 0;
    double median = 0;
    double max = 0;
    std::size_t count = 0;
    bool operator==(const Spread&) const = default;
};

Spread spreadOf(std::vector<double> samples);

// A program step's share of a run, as the timeline draws it: its median over the repeats.
struct StepTime {
    std::string path;  // "steps[2].steps[0]"
    std::string kind;  // "launch", "repeat", ...
    std::string label; // the step's title, or what it does
    int depth = 0;
    std::uint64_t calls = 0;
    double ms = 0;
    bool operator==(const StepTime&) const = default;
};

struct RunTimings {
    std::string backend; // "cuda:0 NVIDIA H100 80GB HBM3", "cpu (16 threads)"
    std::string kernel;
    // A program's steps (empty for a single launch) and how many launches it made; kernelMs is then the
    // whole program's time.
    std::vector<StepTime> steps;
    std::uint64_t launches = 0;
    // One sample per timed repeat. On the CPU backend h2d/d2h are the copies into and out of the
    // kernel's working arrays.
    std::vector<double> kernelMs, h2dMs, d2hMs;
    std::optional<double> referenceMs;  // the playground's CPU reference, called once
    std::optional<double> cpuBackendMs; // the CPU backend, when it stood in for a missing reference
    std::uint64_t bytesIn = 0;          // every argument copied in (h2d_by_argument)
    std::uint64_t bytesOut = 0;         // every argument copied back (d2h_by_argument)
    bool cancelled = false;
    std::optional<bool> checkPassed; // none: no check was made
    std::string uncheckedBecause;    // why no check was made, where one was meant to be

    // Throws InputError naming the key ("run report: kernel_ms[2]: ...") when a member is missing
    // (kernel_ms) or has the wrong type or a negative time; members it does not need are not read.
    static RunTimings fromReport(const nlohmann::json& report);

    bool onCpu() const { return backend.rfind("cpu", 0) == 0; }
    Spread kernelSpread() const { return spreadOf(kernelMs); }
    // Copy in, kernel and copy out of a typical repeat: the sum of the three medians.
    double totalMs() const;
    bool operator==(const RunTimings&) const = default;
};

// What the device can do at best; 0 where it is not known.
struct DevicePeak {
    double bandwidthGBs = 0;
    double gflops = 0;
    bool operator==(const DevicePeak&) const = default;
};

// What a run achieved, in decimal GB/s and GFLOP/s over its median kernel time.
struct Throughput {
    std::optional<double> bandwidthGBs;    // none when nothing was copied or no time was measured
    std::optional<double> gflops;          // none without a flop count
    std::optional<double> bandwidthOfPeak; // a fraction (0.25 = 25%), where the peak is known
    std::optional<double> gflopsOfPeak;
    bool operator==(const Throughput&) const = default;
};

// Bandwidth counts every byte copied in and out once, as the kernel must at least read and write
// them. A CPU run is never measured against `peak`: that is the GPU's.
Throughput throughputOf(const RunTimings& run, std::optional<double> flops, const DevicePeak& peak);

// "812 GB/s effective (24% of the 3352 GB/s peak), 101 GFLOP/s"; empty when there is nothing to say.
std::string describe(const Throughput& throughput, const DevicePeak& peak);

// "3.1x faster", "1.5x slower" or "about the same" (within 5%), on the median kernel time of `after`
// against `before`; "no kernel time to compare" when either has none. Runs that did not do the same
// work are not compared, and the text says why: the arrays copied in or out changed size, or a run's
// outputs did not match the reference (a kernel that skips work is quick).
std::string speedupText(const RunTimings& before, const RunTimings& after);

// Three significant digits, never an exponent: "0.0123", "1.23", "123", "12346". For files and columns
// whose unit is the millisecond.
std::string formatMilliseconds(double ms);

// A time for a person, in the unit that keeps it between 1 and 999, three significant digits:
// "130 ns", "13.0 µs", "1.23 ms", "12.3 s"; "0 s" for zero, "-" when not a finite number.
std::string formatDuration(double ms);

} // namespace kp::run
