#include "SynchronisingCall.h"

#include <algorithm>
#include <array>

namespace kp::source {

bool isSynchronisingCall(std::string_view identifier) {
    static constexpr std::array<std::string_view, 5> kFamilies{"__syncthreads", "__syncwarp", "__shfl",
                                                               "__match_", "__reduce_"};
    // Any use of cooperative groups (`namespace cg = cooperative_groups;`, `cooperative_groups::...`):
    // their sync, shuffles and votes are member calls a name alone cannot tell from others.
    static constexpr std::array<std::string_view, 5> kCalls{"__ballot_sync", "__all_sync", "__any_sync",
                                                            "__activemask", "cooperative_groups"};
    return std::any_of(kFamilies.begin(), kFamilies.end(),
                       [&](std::string_view family) { return identifier.starts_with(family); }) ||
           std::find(kCalls.begin(), kCalls.end(), identifier) != kCalls.end();
}

} // namespace kp::source
