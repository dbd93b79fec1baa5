// What a warp operation gives each lane once the lanes that meet in it are known: the one definition for
// the two ways the CPU backend runs warp operations, fibers (ThreadFibers) and kernels split at their
// warp operations (WarpExchange).
#pragma once

#include "ThreadFibers.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace kp::cpu {

inline constexpr unsigned kWarpLanes = 32;

// `group`: the lanes (bits 0 to 31) that meet in one operation `what`, a warp operation other than
// __activemask. values[j] is what lane j contributes and sources[j] the lane a shuffle reads (-1: its own
// value), for j below 32; results[j] is set for every lane of the group (results may not be values). Reading
// a lane outside the group, which CUDA leaves undefined, gives a lane its own value.
void completeWarpOperation(Meet what, std::uint32_t group, const std::uint64_t* values, const int* sources,
                           std::uint64_t* results);

// "k.cu:12", where a meeting's call stands; "0x0000ffff", a mask as messages show it.
std::string placeOf(const Meeting& m);
std::string hexMask(unsigned mask);

// What both ways of running warps say when a kernel misuses one, the same words either way.
// "thread (3, 0, 0) of block (1, 0, 0)": thread t (linear) of the block running on this thread.
std::string describeThread(std::size_t t);
// Thread t calls `m` with a mask that leaves out its own lane.
std::string leavesOutOwnLane(const Meeting& m, std::size_t t);
// Thread `waiter` waits in `waiting` for thread `other` of its warp, which `otherDoes` ("calls
// __ballot_sync with the mask ... at ...", callsWith(); or "waits at __syncthreads at ...").
std::string waitsFor(const Meeting& waiting, std::size_t waiter, std::size_t other,
                     const std::string& otherDoes);
std::string callsWith(const Meeting& m);

} // namespace kp::cpu
