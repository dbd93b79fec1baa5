// `kernelpad-cli samples [NAME] [--json]`: the samples that ship with Kernelpad, by group in teaching
// order, or one sample's lesson and playground path; `run NAME` runs one (samplePlayground).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace kp::cli {

struct SamplesCommandOptions {
    std::string name; // empty: list them all
    bool json = false;
};

CLI::App* addSamplesCommand(CLI::App& root, SamplesCommandOptions& options);
int runSamplesCommand(const SamplesCommandOptions& options);

// `file` itself when it names an existing file or looks like a path; else the playground of the sample
// of that name. Throws InputError naming the samples there are when it is neither.
std::string samplePlayground(const std::string& file);

} // namespace kp::cli
