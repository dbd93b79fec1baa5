// The exit codes of kernelpad-cli, as project-format.md fixes them (0 to 5), and 6 for input/output
// errors: a file that cannot be written (--out, a full disk) or another operating-system call that failed.
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
inline constexpr int IoError = 6;
} // namespace kp::cli::ExitCode

namespace kp::cli {

// For the commands' --help: every code, in a person's words.
inline constexpr const char* kExitCodesHelp =
    "Exit codes: 0 ran (and the check passed, or there was none), 1 a check failed, 2 bad input (a file, an "
    "option, the launch), 3 compile error, 4 the kernel faulted or timed out, 5 no such backend here, 6 an "
    "input/output error (a file could not be written, e.g. --out on a full disk).";

// Runs a command that runs kernels and turns what it throws into those codes, with the message on
// stderr: a compile error's diagnostics as they are, bad input (reworded by `describe` when given), a
// faulted kernel, no CUDA backend here, a file that could not be written or another failed system call
// (OutputError, SystemError, std::filesystem::filesystem_error).
int exitCodeOf(const std::function<int()>& command,
               const std::function<std::string(const std::string&)>& describe = {});

} // namespace kp::cli
