// What a run gives back, whichever backend ran it: the output arrays and every timing sample, so that
// the CLI writes timings.json, the timings view draws the spread of repeats, and Check compares.
#pragma once

#include "core/model/Array.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kp::launch {

struct RunOptions {
    int repeat = 1; // timed runs, each copying in, launching and copying back
    int warmup = 0; // untimed runs before them
    // Checked between launches: set it from another thread to stop; the result says how far it got.
    const std::atomic<bool>* cancel = nullptr;
    // Where the CPU backend puts its results (default: memory shared with the child that ran the kernel);
    // the worker passes its own shared memory so that results reach the app without a copy.
    std::shared_ptr<model::HostAllocator> resultAllocator = nullptr;
    // The CPU backend's rounds read a single kernel's In arrays where they are instead of copying them in
    // first (cpu::ChildInputs); its "copy in" time is then the out arrays' zeroing alone. Sweeps, which
    // show no CPU copy times, set it.
    bool readInputsInPlace = false;
};

struct TransferTiming {
    std::string argument;
    std::size_t bytes = 0;
    double milliseconds = 0; // of the last repeat
};

// Arrays by argument name, in parameter order: a run's or a reference's outputs.
using NamedArrays = std::vector<std::pair<std::string, model::Array>>;
// The array called `name`, or nullptr.
const model::Array* find(const NamedArrays& arrays, std::string_view name);

// A program step's share of a run (every call of it in one run of the program, added up), for the
// timeline: a loop's time is its steps' together.
struct StepTiming {
    std::string path;  // "steps[2].steps[0]"
    std::string kind;  // "launch", "copy", "fill", "swap", "symbol", "set", "repeat"
    std::string label; // the step's title, or what it does
    int depth = 0;     // how many loops it is in
    std::uint64_t calls = 0;
    std::vector<double> ms; // one per timed repeat
};

struct RunResult {
    std::string backend;          // "cuda:0 NVIDIA H100 80GB HBM3"
    std::vector<double> kernelMs; // one per timed repeat
    std::vector<double> h2dMs;    // all host-to-device copies of a repeat
    std::vector<double> d2hMs;    // all device-to-host copies of a repeat
    std::vector<TransferTiming> h2dByArgument, d2hByArgument;
    double compileMs = 0;
    bool compileFromCache = false;
    bool cancelled = false;
    std::string execution; // how the backend ran the threads, in words (the CPU backend's loops or fibers)
    NamedArrays outputs;   // out and inout arrays, parameter order
    // A program's steps, in file order (empty for a single launch). `untimedOperations` counts those past
    // the CUDA runner's budget of events, timed only as part of the whole program.
    std::vector<StepTiming> steps;
    std::uint64_t untimedOperations = 0;

    const model::Array* output(std::string_view name) const { return find(outputs, name); }
};

// Median of a set of samples (0 for none): what summaries print.
double median(std::vector<double> samples);

} // namespace kp::launch
