// How the CPU backend and the C++ reference run code from a playground: in a child process under the
// sandbox (sandbox/Contained), where its static constructors, its kernel, a crash, exit() or a stack
// overflow cannot touch the process that checks the results. The child answers in JSON; its failures
// come back here as the core's exceptions, each naming the kernel or reference in a person's words.
#pragma once

#include "core/model/Array.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kp::launch {
struct RunSetup;
}

namespace kp::cpu {

struct ContainedCode {
    std::string what;              // "the kernel scale", "the reference scale_ref": the messages' subject
    std::filesystem::path library; // the compiled library the child loads (readable inside)
    std::filesystem::path cache;   // the cache folder: scratch folders are made below it
    std::uint64_t memoryBytes = 0; // memory the child may add to what it has at fork
    const std::atomic<bool>* cancel = nullptr;
    // Where the code was when its child crashed ("at steps[2] (...)"), read after the child ended; a
    // program's runner keeps the operation it is at in memory the parent sees. Empty: nothing is added.
    std::function<std::string()> whereNow = {};
};

// The setup's input arrays as a contained child reads them: the arrays themselves, or, for those it
// cannot inherit through fork (memory the CUDA driver pinned), copies on the heap made here, before.
//
// Rounds of a kernel or a reference start from the same inputs: before each, inout arrays are copied into
// their working memory and out arrays zeroed, as on a device. In arrays (copied in, not out) are copied too,
// unless they are `readInPlace`: then the code reads the array itself (the child's copy-on-write view of
// it, so the parent's never changes) in every round, and a sweep's repeats no longer copy hundreds of
// megabytes each (a third of a CPU sweep's time went to those copies). Valid CUDA may still write an In
// array (through a cast, or a pointer that is not const); runContainedOnInputs notices (fingerprint()
// before and after the code) and runs it again with copies.
class ChildInputs {
public:
    explicit ChildInputs(const launch::RunSetup& setup, bool readInPlace = false);
    const model::Array& operator[](std::size_t argument) const;
    // The memory the code reads for `argument` when it is read in place, or null.
    std::byte* inPlace(std::size_t argument) const;
    // Before each round: each working copy (`working`, one per argument, null for scalars and for arrays
    // read in place) refilled from its input, each out array zeroed.
    void refill(const std::vector<std::byte*>& working) const;
    // A checksum of the arrays read in place (0 when there are none).
    std::uint64_t fingerprint() const;

private:
    const launch::RunSetup& setup_;
    std::vector<model::Array> copies_;
    std::vector<bool> inPlace_;
};

// Runs `body` in a contained child and returns its answer. Throws, for what happened in the child:
// launch::SetupError, launch::KernelFault (crashes, exit() in the code, stack overflow, a limit), InputError,
// and sandbox::Unavailable where the sandbox is needed and missing. A cancelled child answers
// {"cancelled": true}.
nlohmann::json runContainedCode(const ContainedCode& code,
                                const std::function<nlohmann::json(const std::atomic<bool>& cancel)>& body);

// In the child of runContainedCode, from any thread: ends the run now with a launch::KernelFault of
// `message` in the parent, as if the body had thrown it (the launching thread may be in a kernel that
// never returns). Elsewhere it does nothing.
void faultNow(const std::string& message) noexcept;

// runContainedCode over the setup's inputs, read in place when `readInPlace`; when the body changed an
// array it read in place, its answer is dropped and it runs again in a new child, on copies.
nlohmann::json runContainedOnInputs(
    const ContainedCode& code, const launch::RunSetup& setup, bool readInPlace,
    const std::function<nlohmann::json(const ChildInputs& inputs, const std::atomic<bool>& cancel)>& body);

} // namespace kp::cpu
