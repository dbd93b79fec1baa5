// Whether a name is a CUDA call that makes the threads of a block or warp wait for each other: the CPU
// backend runs such kernels with a fiber per thread (CpuRunner::needsFibers), and the barrier split
// takes a kernel only when each of them is one of its own __syncthreads(); statements (BarrierSplit).
// One definition, so that the two agree.
#pragma once

#include <string>
#include <string_view>

namespace kp::source {

// __syncthreads (and _count, _and, _or), __syncwarp, every __shfl*, __match_* and __reduce_*,
// __ballot_sync, __all_sync, __any_sync and __activemask, and the name `cooperative_groups`: a kernel that
// uses cooperative groups synchronises through member calls (block.sync(), tile.shfl_down()) a name alone
// does not tell from others.
bool isSynchronisingCall(std::string_view identifier);

// The warp operations among them: __syncwarp, every __shfl*, __match_* and __reduce_*, __ballot_sync,
// __all_sync, __any_sync and __activemask (the barrier split cuts a kernel at statements calling one).
bool isWarpOperation(std::string_view identifier);

// The line of the kernel source's first use of a grid group (cooperative_groups::this_grid(), grid_group),
// or 0: such a kernel needs all its blocks running at once (a cooperative launch on the GPU).
int gridGroupLine(const std::string& source);

} // namespace kp::source
