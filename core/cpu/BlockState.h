// The CPU backend's per-thread CUDA built-ins, shared by every compiled kernel: see BlockState.cpp.
#pragma once

extern "C" {
struct KernelpadBlockStateLayout {
    unsigned threadIndex[3];
    unsigned blockIndex[3];
    unsigned blockDimension[3];
    unsigned gridDimension[3];
    unsigned char* dynamicShared;
    unsigned long long dynamicSharedBytes;
    unsigned blockThreads;
    void* deferredAtomics; // the worker's table of deferred atomics (GridRun), or null
    unsigned warpPhase;    // WarpExchange: 0 fibers, 1 record, 2 take
    unsigned warpThread;
    unsigned long long warpOccasion;
    unsigned long long warpBlockStart;
    void* warpSlots;
    unsigned long long privateParameters; // bit P: this worker runs parameter P on a private copy (GridRun)
    unsigned deferredLane;                // the running thread's x, for a deferred sum's lane
};
// The worker thread's: the CPU runner sets the block's fields before it runs the block.
extern __thread KernelpadBlockStateLayout kernelpad_block_state;
}
