// `kernelpad-cli run FILE.kpad.json [--backend cuda[:N]|cpu] [--repeat R] [--warmup W] [--out DIR] [--json]
// [--timeout SECONDS]`: runs a playground through the core's Runner and checks it against its reference,
// as project-format.md specifies (NAME.npy and timings.json in --out, exit codes 0 to 5). FILE may also be
// a sample's name (`kernelpad-cli run sum_squares_reduction`).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace kp::cli {

struct RunCommandOptions {
    std::string file;
    std::string backend = "cuda";
    int repeat = 1;
    int warmup = 0;
    std::string outDir;
    bool json = false;
    double timeoutSeconds = 0; // 0: none
    bool checkBounds = false;  // the CPU backend's bounds-checking mode
};

CLI::App* addRunCommand(CLI::App& root, RunCommandOptions& options);
int runRunCommand(const RunCommandOptions& options);

} // namespace kp::cli
