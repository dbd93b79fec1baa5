// `kernelpad-cli run FILE.kpad.json [--backend cuda[:N]|cpu] [--repeat R] [--warmup W] [--out DIR] [--json]
// [--timeout SECONDS]`: runs a playground through the core's Runner and checks it against its reference,
// as project-format.md specifies (NAME.npy and timings.json in --out, exit codes 0 to 5). FILE may also be
// a sample's name (`kernelpad-cli run sum_squares_reduction`).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace kp::cli {

// A day: a longer --timeout is almost surely a mistake (1e10 typed for 10), and beyond some point the
// clock's arithmetic overflows.
inline constexpr double kMaxTimeoutSeconds = 24 * 60 * 60;

struct RunCommandOptions {
    std::string file;
    std::string backend = "cuda";
    int repeat = 1;
    int warmup = 0;
    std::string outDir;
    bool json = false;
    std::optional<double> timeoutSeconds; // none: no limit; else more than 0 and at most kMaxTimeoutSeconds
    bool checkBounds = false;             // the CPU backend's bounds-checking mode
};

CLI::App* addRunCommand(CLI::App& root, RunCommandOptions& options);
int runRunCommand(const RunCommandOptions& options);

} // namespace kp::cli
