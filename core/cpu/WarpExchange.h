// Warp operations of a kernel split at its barriers and warp operations (BarrierSplit): no fibers, and so
// no thread waits inside one. Each thread of the block runs the statement's warp call first to record what
// it brings (its mask, its value, the lane a shuffle reads: the kernel's header writes them into the
// worker's WarpSlots); once every thread of the block has, the statement runs in full and the call takes
// its result, computed here once per warp from the lanes that recorded at that occasion.
//
// The lanes that meet are those that recorded at the same occasion; a lane its mask names that did not
// record is taken to have returned, as fibers would find once it had. If it has not, and records at a
// later warp operation instead, the run stops with the message fibers give for the same kernel: on a GPU
// the first operation would wait for it. A lane that records with a mask leaving itself out, or one named
// by another lane's mask that meets with another operation or mask, stops the run as with fibers.
#pragma once

#include <cstddef>

namespace kp::cpu {

// The calling worker's slots (the kernel library's ::kernelpad::WarpSlots), made at its first call.
void* warpSlotsOfThisThread();

// The size of the slots as the core lays them out; a kernel library reports its header's, and the two
// are compared when it is loaded.
std::size_t warpSlotsBytes();

} // namespace kp::cpu
