// `kernelpad-cli devices`: every CUDA device with the limits a launch must respect, or why CUDA is
// unavailable here.
#pragma once

#include <CLI/CLI.hpp>

namespace kp::cli {

struct DevicesCommandOptions {
    bool json = false;
};

CLI::App* addDevicesCommand(CLI::App& root, DevicesCommandOptions& options);
int runDevicesCommand(const DevicesCommandOptions& options);

} // namespace kp::cli
