// Runs a function in a child process, under a Confinement where one is given: how the CPU backend's
// kernels and the C++ reference run, so that code from a playground never runs in the process that
// checks its results (the CLI, the worker, a test). The child sees the parent's memory as it was at
// fork, writes its results into shared memory the parent allocated before, and answers through a pipe;
// the parent reads the answer and says how the child ended: answered, exit() in the kernel, a signal,
// a stack overflow, a limit, or cancelled.
#pragma once

#include "Confinement.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace kp::sandbox {

struct ContainedOptions {
    const Confinement* confinement = nullptr;  // nullptr: Mode::Trusted, a child process all the same
    std::filesystem::path workingDirectory;    // the child's (its scratch folder); empty: unchanged
    const std::atomic<bool>* cancel = nullptr; // the parent's; the child's own flag follows it
};

struct ChildEnd {
    enum class How { Answered, Exited, Signalled, Cancelled };
    How how = How::Answered;
    std::string answer;         // Answered: what the body returned
    int exitCode = 0;           // Exited: the status it passed to exit() without answering
    int signal = 0;             // Signalled: the signal that ended it
    bool stackOverflow = false; // Signalled: SIGSEGV next to a stack's end (deep recursion, big locals)
    std::string limit;          // Signalled: the limit it hit, in words ("CPU time limit of 3600 s"), if any
};

// The body runs in the child and returns its answer; `cancel` turns true when the parent's flag does
// (the child then has a few seconds to answer before it is killed). Throws Unavailable or SystemError
// when the child cannot be started or confined; every way the body itself ends is a ChildEnd.
ChildEnd runContained(const std::function<std::string(const std::atomic<bool>& cancel)>& body,
                      const ContainedOptions& options);

// In the child only, from any of its threads: answers `answer` as the body's return would, and ends the
// child at once, whatever its other threads are doing (a kernel that will not end, after the fault that
// made it so was found). In any other process it returns and does nothing.
void answerNow(const std::string& answer) noexcept;

// Threads the body starts call this first: an alternate signal stack, so that running off the end of
// the thread's stack is recognised and reported as a stack overflow.
void prepareThreadForOverflow() noexcept;

// "SIGSEGV (segmentation fault)" for messages.
std::string signalName(int signal);

// A folder of its own for one contained run or compile to write in (PREFIX-PID-XXXXXX below `parent`),
// removed with everything in it when destroyed; those a killed process left are removed on the way.
class ScratchFolder {
public:
    explicit ScratchFolder(const std::filesystem::path& parent, const std::string& prefix = "run");
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace kp::sandbox
