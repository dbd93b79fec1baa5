// Runs a program to completion and collects what it printed: the host compiler for CPU kernels and
// references, nvdisasm. No shell is involved, so file names with spaces or quotes are safe. The program
// runs in a process group of its own under a small supervisor that ends the whole group when this
// process dies (kill -9 included), so no compiler outlives Kernelpad; optionally confined
// (sandbox/Confinement) and with a wall-clock limit.
#pragma once

#include "core/sandbox/Confinement.h"

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

namespace kp::sandbox {

struct SubprocessResult {
    int exitCode = -1;  // the program's exit status; -1 when it was killed by a signal
    int signal = 0;     // the signal that ended it, 0 if none
    std::string output; // stdout and stderr, interleaved as written (at most ProcessOptions::maxOutputBytes)
    bool timedOut = false; // ended by ProcessOptions::timeLimitSeconds
    bool cancelled = false;
};

struct ProcessOptions {
    std::string workingDirectory;                       // empty: this process's
    double timeLimitSeconds = 0;                        // wall clock; 0: none
    const sandbox::Confinement* confinement = nullptr;  // applied to the program before exec
    sandbox::Limits limits;                             // applied with or without a confinement
    std::vector<std::string> environment;               // NAME=VALUE pairs set on top of this process's
    const std::atomic<bool>* cancel = nullptr;          // when it turns true the group is killed
    std::size_t maxOutputBytes = std::size_t{16} << 20; // what is kept; the rest is read and dropped
};

// The executable `name` as PATH finds it (itself when it names a folder), or empty when there is none.
std::string findProgram(const std::string& name);

// Throws SystemError when the program cannot be started at all (not found, not executable).
SubprocessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options);
SubprocessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory = {});

} // namespace kp::sandbox
