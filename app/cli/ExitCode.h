// The exit codes of kernelpad-cli, as project-format.md fixes them.
#pragma once

namespace kp::cli::ExitCode {
inline constexpr int Ok = 0;
inline constexpr int CheckFailed = 1;
inline constexpr int BadInput = 2;
inline constexpr int CompileError = 3;
inline constexpr int KernelFault = 4;
inline constexpr int NoBackend = 5;
} // namespace kp::cli::ExitCode
