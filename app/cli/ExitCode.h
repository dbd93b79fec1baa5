// The exit codes of kernelpad-cli, as project-format.md fixes them.
#pragma once

#include <functional>
#include <string>

namespace kp::cli::ExitCode {
inline constexpr int Ok = 0;
inline constexpr int CheckFailed = 1;
inline constexpr int BadInput = 2;
inline constexpr int CompileError = 3;
inline constexpr int KernelFault = 4;
inline constexpr int NoBackend = 5;
} // namespace kp::cli::ExitCode

namespace kp::cli {

// Runs a command that runs kernels and turns what it throws into those codes, with the message on
// stderr: a compile error's diagnostics as they are, bad input (reworded by `describe` when given), a
// faulted kernel, no CUDA backend here.
int exitCodeOf(const std::function<int()>& command, const std::function<std::string(const std::string&)>& describe = {});

} // namespace kp::cli
