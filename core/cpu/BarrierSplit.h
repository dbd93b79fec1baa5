// Rewrites one kernel so that a single call runs a whole block on the CPU without fibers: the code
// between __syncthreads() barriers becomes a loop over the block's threads ("regions"), if/for/while/do
// statements that contain a barrier run their conditions for every thread and their bodies for the
// threads that took them (a mask per statement), and variables that live across a barrier move into a
// per-thread frame (one array element per thread), held in locals while a region runs. A variable every
// thread sets and changes alike (a scan's stride) is one variable for the block, changed between the
// thread loops. threadIdx inside the kernel becomes a local, so a barrier-free kernel is a plain loop the
// host compiler can vectorise.
//
// A statement that calls a warp operation (shuffle, vote, match, reduce, __syncwarp, __activemask) is cut
// there too: its call runs at the end of one region for every thread, to record what each brings, and the
// statement runs in full in the next, where the call takes its result (WarpExchange.h). A __device__
// helper holding warp operations, called as a statement (`v = warpSum(v);`), is inlined first, its names
// renamed, on the call's line.
//
// Kernels the rewrite does not understand are left alone, with the reason: break/continue/goto across a
// barrier, __syncthreads() inside an expression or a helper function, a warp operation in a condition, an
// expression, behind ?: && || or with arguments that assign, switch or try around a barrier, auto or
// reference variables across a barrier, preprocessor lines in the body, statements nested deeper than 256
// levels ("nesting deeper than 256 levels at line L"). The CPU backend then runs the threads as fibers,
// which handle every kernel. A rewrite the host compiler rejects falls back the same way, so a wrong guess
// costs a compile, never a wrong result.
#pragma once

#include <cstddef>
#include <string>

namespace kp::cpu {

struct SplitKernel {
    std::string source;      // the whole source with the kernel's body rewritten (empty when not split)
    std::string reason;      // why the kernel was not split (empty when it was)
    int barriers = 0;        // __syncthreads() statements in the kernel
    int warpOperations = 0;  // statements that call a warp operation (split there too: WarpExchange.h)
    int gatheredAtomics = 0; // statements that use an atomicAdd's result, split there, gathered per warp
    // Of the warp operations, the __activemask() calls whose lanes are found once per block (no record).
    int computedActiveMasks = 0;
    int gridStrideLoops = 0; // grid-stride loops run in passes of the whole block (BarrierSplit.cpp)
    // A loop after a leading guard that runs around each row of the block's threads (BarrierSplit.cpp):
    // its variable ("k"), or "loop" where its header declares none; empty when there is no such loop.
    std::string insideOut;
    bool split() const { return reason.empty(); }
};

struct SplitOptions {
    std::string fileName;          // for the #line directives that keep diagnostics on the user's lines
    bool threadIndexInTls = false; // also store threadIdx where the built-ins read it (helpers, bounds mode)
    bool boundsChecked = false;    // bounds mode: every index and dereference may report the thread
    bool threadIdxOutside = false; // set by the split: a helper or a macro reads threadIdx
    bool deferredSums = false;     // set by the split: its atomics include deferred sums (lanes by thread)
};

// `line` and `column` (1-based) are where the kernel's name stands in `source`, as the signature parser
// reports them. Never throws on odd input: anything not understood is a reason.
SplitKernel splitAtBarriers(const std::string& source, int line, int column, const SplitOptions& options);

// The offset of 1-based (line, column) in `text`, or npos when there is no such line.
std::size_t offsetOf(const std::string& text, int line, int column);

} // namespace kp::cpu
