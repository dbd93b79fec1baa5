// Where a kernel runs, as a value: a CUDA device, the CPU backend (on all cores or N threads) or the
// playground's C++ reference. The worker's requests, the CLI, the app's backend chooser and sweeps all
// carry one; its text form ("cuda:0", "cpu", "cpu:4", "reference") is what the command line and the
// playground file say, and stays as it was.
#pragma once

#include <string>
#include <string_view>

namespace kp::run {

struct Backend {
    enum class Kind { Cuda, Cpu, Reference };
    Kind kind = Kind::Cpu;
    int ordinal = 0;      // Cuda: the device
    unsigned threads = 0; // Cpu: 0 for one per core

    static Backend cuda(int ordinal = 0) { return {Kind::Cuda, ordinal, 0}; }
    static Backend cpu(unsigned threads = 0) { return {Kind::Cpu, 0, threads}; }
    static Backend reference() { return {Kind::Reference, 0, 0}; }

    bool isCuda() const { return kind == Kind::Cuda; }
    bool isCpu() const { return kind == Kind::Cpu; }
    // "cuda:0", "cpu", "cpu:4", "reference": what parseBackend reads back.
    std::string id() const;
    bool operator==(const Backend&) const = default;
};

// Any backend a sweep may name: "cuda" (cuda:0), "cuda:N", "cpu", "cpu:N" (1 to 4096 threads),
// "reference". Throws InputError saying which ids there are.
Backend parseBackend(std::string_view id);

// A backend one run or one compile can use: "cuda", "cuda:N" or "cpu". Throws InputError naming
// `backend` otherwise.
Backend parseRunBackend(std::string_view id);

} // namespace kp::run
