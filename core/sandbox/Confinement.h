// What a process running code from a playground may do: read only the folders it is given, write only
// its scratch folder, reach no network and no other process, and stay under time, memory and file-size
// limits. Built in the parent (where it may allocate and open files), applied in the child after fork
// with system calls only, so it is safe in a child of a threaded program. Used for the host compiler
// (sandbox/Subprocess) and for the processes that run CPU kernels and references (sandbox/Contained).
//
// Why Landlock + seccomp + rlimits, and not namespaces (bubblewrap): they need no root, no setuid
// helper and no user namespaces (which Ubuntu 24.04 restricts and containers often forbid), no program
// to install, and they leave the NVIDIA device nodes and the CUDA driver as they are.
#pragma once

#include "core/Error.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

struct sock_filter;

namespace kp::sandbox {

// The sandbox is needed here but cannot be set up (an old kernel, Landlock off, a container that
// forbids it): says why, and what the user can do.
class Unavailable : public InputError {
public:
    using InputError::InputError;
};

struct Limits {
    std::uint64_t memoryBytes = 0; // address space the child may add to what it has at fork; 0: none
    std::uint64_t cpuSeconds = 0;  // CPU time of the child (all its threads); 0: none
    std::uint64_t fileBytes = 0;   // largest file it may write; 0: none
    bool operator==(const Limits&) const = default;
};

struct Policy {
    std::vector<std::filesystem::path> readable; // read (and execute) below these; missing ones are skipped
    std::vector<std::filesystem::path> writable; // read, write, create and remove below these
    bool startsPrograms = false;                 // fork and exec (the compiler); a kernel may not
    Limits limits;
};

// What this machine offers, probed once.
struct Support {
    bool available = false;
    int landlockAbi = 0; // 0: none
    std::string reason;  // why it is not available
};
const Support& support();

// Contained: runs of code from a playground happen in the sandbox, and fail with Unavailable where it
// cannot be set up. Trusted: they run as the user, unconfined (kernelpad-cli --no-sandbox; the app,
// after the user said yes for that file). Process-wide: the CLI and the worker set it per run.
enum class Mode { Contained, Trusted };
void setMode(Mode mode) noexcept;
Mode mode() noexcept;

// Throws Unavailable (with the reason and what to do) when the mode is Contained and there is no
// sandbox here.
void requireSupport(const std::string& what);

class Confinement {
public:
    // Throws Unavailable when the machine has no sandbox, SystemError when building it fails.
    explicit Confinement(const Policy& policy);
    ~Confinement();
    Confinement(Confinement&& other) noexcept;
    Confinement& operator=(Confinement&&) = delete;
    Confinement(const Confinement&) = delete;

    // In the child, after fork, before it runs anything it was not built with: limits, no new privileges,
    // Landlock, seccomp. Only system calls. 0, or the errno of the step that failed, named in `step`.
    // `addressSpace`: the address space the process had at fork (limits.memoryBytes is added to it).
    int apply(std::uint64_t addressSpace, const char** step) const noexcept;

    const Limits& limits() const noexcept { return limits_; }

private:
    int ruleset_ = -1;
    std::vector<sock_filter> filter_;
    Limits limits_;
    bool startsPrograms_ = false;
};

// Sets the limits on this process (setrlimit only: safe after fork), and no core files. 0, or errno.
// `addressSpace` as for Confinement::apply.
int applyLimits(const Limits& limits, std::uint64_t addressSpace) noexcept;

// This process's address space in bytes (from /proc/self/statm), for Confinement::apply.
std::uint64_t addressSpaceBytes() noexcept;

} // namespace kp::sandbox
