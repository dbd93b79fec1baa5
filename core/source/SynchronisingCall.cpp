#include "SynchronisingCall.h"

#include "Lexer.h"

#include <algorithm>
#include <array>

namespace kp::source {

bool isWarpOperation(std::string_view identifier) {
    static constexpr std::array<std::string_view, 4> kFamilies{"__syncwarp", "__shfl", "__match_",
                                                               "__reduce_"};
    static constexpr std::array<std::string_view, 4> kCalls{"__ballot_sync", "__all_sync", "__any_sync",
                                                            "__activemask"};
    return std::any_of(kFamilies.begin(), kFamilies.end(),
                       [&](std::string_view family) { return identifier.starts_with(family); }) ||
           std::find(kCalls.begin(), kCalls.end(), identifier) != kCalls.end();
}

bool isSynchronisingCall(std::string_view identifier) {
    // Any use of cooperative groups (`namespace cg = cooperative_groups;`, `cooperative_groups::...`):
    // their sync, shuffles and votes are member calls a name alone cannot tell from others.
    return identifier.starts_with("__syncthreads") || identifier == "cooperative_groups" ||
           isWarpOperation(identifier);
}

int gridGroupLine(const std::string& source) {
    Lexer lexer(source);
    for (auto token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        if (token.kind == TokenKind::Identifier && !token.inDirective &&
            (lexer.text(token) == "this_grid" || lexer.text(token) == "grid_group"))
            return token.line;
    return 0;
}

} // namespace kp::source
