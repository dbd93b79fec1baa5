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
class ChildInputs {
public:
    explicit ChildInputs(const launch::RunSetup& setup);
    const model::Array& operator[](std::size_t argument) const;
    // Before each round of a kernel or a reference: each input array copied into its working memory
    // (`working`, one per argument, null for scalars), each other array zeroed, as on a device.
    void refill(const std::vector<std::byte*>& working) const;

private:
    const launch::RunSetup& setup_;
    std::vector<model::Array> copies_;
};

// Runs `body` in a contained child and returns its answer. Throws, for what happened in the child:
// launch::SetupError, launch::KernelFault (crashes, exit() in the code, stack overflow, a limit), InputError,
// and sandbox::Unavailable where the sandbox is needed and missing. A cancelled child answers
// {"cancelled": true}.
nlohmann::json runContainedCode(const ContainedCode& code,
                                const std::function<nlohmann::json(const std::atomic<bool>& cancel)>& body);

} // namespace kp::cpu
