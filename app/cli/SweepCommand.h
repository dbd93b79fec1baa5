// `kernelpad-cli sweep FILE|SAMPLE [--parameter size|block] [--from A --to B --steps N --scale log|linear |
// --values LIST] [--backends LIST] [--repeat R] [--warmup W] [--flops FORMULA] [--csv FILE]`: runs a
// playground over a range of problem or block sizes on several backends (core/run/SweepRunner.h) and
// writes one CSV row per point and backend, then says where the GPU starts to beat the CPU. Settings the
// command line leaves out come from the playground's "sweep" member, then from SweepSpec's defaults.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kp::cli {

struct SweepCommandOptions {
    std::string file;
    std::optional<std::string> parameter, scale, array, flops;
    std::optional<double> from, to;
    std::optional<int> steps, repeat, warmup;
    std::vector<double> values;
    std::vector<std::string> backends;
    std::string csv;  // empty: the CSV goes to stdout and the summary to stderr
    std::string json; // the whole result as JSON, as the app keeps it
    bool noCheck = false;
    bool quiet = false; // no progress lines
};

CLI::App* addSweepCommand(CLI::App& root, SweepCommandOptions& options);
int runSweepCommand(const SweepCommandOptions& options);

} // namespace kp::cli
