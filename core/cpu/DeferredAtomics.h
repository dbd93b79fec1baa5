// The CPU backend's fast path for contended atomics (kernelpad_cuda_host.h, "Deferred atomics", says
// what it does and why it keeps CUDA's semantics): finds the pointer parameters of a kernel that the body
// touches only through atomic operations whose returned value it discards, and renames those calls to
// their deferred forms (names of the same length, so that lines and columns stay where they were).
#pragma once

#include <string>
#include <vector>

namespace kp::cpu {

struct DeferredParameter {
    std::string name;
    std::size_t index = 0; // in the kernel's parameter list
    int calls = 0;         // atomic calls on it the rewrite renamed
    // Its calls are all integer-capable adds, renamed _kp_pNAdd (N its index, under 10): a launch may give
    // each worker a private copy of its buffer (kernelpad_cuda_host.h, "Private copies").
    bool privateCopy = false;
};

// Renames, in `source` (same length after), the qualifying atomic calls in the body of the kernel whose
// name stands at (line, column); `parameters` are the kernel's, each a name and whether it is a pointer.
// Returns the parameters whose atomics are deferred; none where the kernel cannot be read.
std::vector<DeferredParameter>
rewriteDeferredAtomics(std::string& source, int line, int column,
                       const std::vector<std::pair<std::string, bool>>& parameters);

// Renames, in `source` (same length after), the atomic calls in the body of the kernel at (line, column)
// whose address is in one of the kernel's own __shared__ arrays or variables: a block's threads all run on
// one worker thread, so a plain read-modify-write is atomic there (kernelpad_cuda_host.h, "Atomics on
// shared memory"). Returns how many calls it renamed.
int rewriteSharedAtomics(std::string& source, int line, int column);

} // namespace kp::cpu
