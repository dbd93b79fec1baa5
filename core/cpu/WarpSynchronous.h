// Legacy warp-synchronous code on the CPU backend. CUDA's older reductions finish in the last warp
// through a `volatile` pointer to shared memory, with no __syncwarp between the steps:
//
//     __device__ void warpReduce(volatile float* s, int tid) {
//         s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; ... s[tid] += s[tid + 1];
//     }
//
// They count on the warp's lanes taking each statement together, as a GPU runs a converged warp (since
// Volta that is no longer promised, but it is what such code gets on one). The CPU backend runs a block's
// threads one after another between meetings, so thread 0 took all its steps before thread 16 took its
// first, and the block's sum came out wrong. This rewrite brackets each statement that names a `volatile`
// reaching shared memory (a `__shared__ volatile` array, a local volatile pointer set to a shared array, a
// helper's volatile pointer parameter that every call passes a shared array) with the lanes running it
// (`const unsigned __kp_lanes0 = __activemask();`) and a `__syncwarp(__kp_lanes0);` after it: the warp's
// running lanes then take each such statement together, and the statements in turn, as the warp would.
// Other volatiles (a scalar, a local array, a pointer to anything else) are left alone: they keep the
// compiler from removing code, and are no warp's steps.
#pragma once

#include <string>

namespace kp::cpu {

// Adds those on the statements' own lines, an unbraced body of `if`, `else`, `for`, `while` or `do`
// getting braces around it there: line numbers stay. Not
// after a statement that returns or jumps, nor where the name stands in a condition or a loop's header.
// Returns how many statements it followed.
int syncVolatileStatements(std::string& source);

} // namespace kp::cpu
