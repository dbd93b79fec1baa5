// Runs a program to completion and collects what it printed: the host compiler for CPU kernels and
// references. No shell is involved, so file names with spaces or quotes are safe.
#pragma once

#include <string>
#include <vector>

namespace kp::cpu {

struct SubprocessResult {
    int exitCode = -1;  // the program's exit status; -1 when it was killed by a signal
    int signal = 0;     // the signal that ended it, 0 if none
    std::string output; // stdout and stderr, interleaved as written
};

// Throws SystemError when the program cannot be started at all (not found, not executable).
SubprocessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory = {});

} // namespace kp::cpu
