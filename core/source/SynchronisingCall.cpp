#include "SynchronisingCall.h"

#include "Lexer.h"

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

int gridGroupLine(const std::string& source) {
    Lexer lexer(source);
    for (auto token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        if (token.kind == TokenKind::Identifier && !token.inDirective &&
            (lexer.text(token) == "this_grid" || lexer.text(token) == "grid_group"))
            return token.line;
    return 0;
}

} // namespace kp::source
