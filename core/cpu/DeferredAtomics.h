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

// Warp-aggregated atomics, undone. A GPU cuts the atomics on one address by letting the lanes of a warp that
// hold the same value find each other, and only the lowest of them add the group's count:
//
//     const unsigned active = __activemask();
//     const unsigned peers = __match_any_sync(active, value);
//     const int leader = __ffs(peers) - 1;
//     if (lane == leader) atomicAdd(&bins[value], __popc(peers));
//
// On the CPU backend that costs a warp operation a step (record, exchange, take: about 15 times a plain
// histogram's time), to save atomics a deferred add does not make. Each lane adding its own 1 to the same
// address leaves the same counts: the rewrite leaves `atomicAdd(&bins[value], 1);` in the body of the kernel
// at (line, column), run by every lane, and blanks the match, the leader, the condition and a mask used
// nowhere else (lines and columns stay). Only where that is all the peers serve: the mask is `__activemask()`
// (a full mask naming lanes gone is undefined on a GPU; what the CPU backend makes of it, an error where a
// named lane is elsewhere, comes from its warp model, which the undone form would skip), the peers' only
// other uses are `__ffs(peers) - 1` and `__popc(peers)`, the lane is `threadIdx.x % 32` (or `% warpSize`,
// `& 31`; the caller makes sure the launches' blocks make that the lane), the if has no else and follows the
// match in its block with no jump between, and the address is the same for every lane of a group: it names
// the value, and otherwise only parameters never changed, the block's __shared__ arrays and blockIdx,
// blockDim, gridDim. Returns how many it undid; `parameters` as for rewriteDeferredAtomics.
int undoWarpAggregation(std::string& source, int line, int column,
                        const std::vector<std::pair<std::string, bool>>& parameters);

} // namespace kp::cpu
