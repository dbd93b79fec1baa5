// libFuzzer entry point for source::Lexer, which every scanner of user source reads through: any bytes
// give tokens that lie inside the source, in order, each with a length, a line and column that agree with
// its offset, and the same tokens on a second read; a start at any token's place reads on from there.
#include "core/source/Lexer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace {
void require(bool condition) {
    if (!condition) std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view source(reinterpret_cast<const char*>(data), size);
    kp::source::Lexer lexer(source, {.comments = true});
    const std::vector<kp::source::Token> tokens = lexer.rest();
    std::size_t previousEnd = 0;
    int line = 1;
    std::size_t lineStart = 0, counted = 0;
    for (const auto& token : tokens) {
        require(token.length > 0 && token.end() <= size);
        const bool directive = token.kind == kp::source::TokenKind::Directive;
        require(token.offset >= previousEnd);
        previousEnd = directive ? token.offset + 1 : token.end();
        for (; counted < token.offset; ++counted)
            if (source[counted] == '\n') {
                ++line;
                lineStart = counted + 1;
            }
        require(token.line == line && token.column == static_cast<int>(token.offset - lineStart + 1));
    }
    require(kp::source::Lexer(source, {.comments = true}).rest() == tokens);
    if (!tokens.empty()) {
        const auto& middle = tokens[tokens.size() / 2];
        if (!middle.inDirective && middle.kind != kp::source::TokenKind::Directive && middle.column > 1) {
            kp::source::Lexer from(
                source,
                {.comments = true, .offset = middle.offset, .line = middle.line, .column = middle.column});
            const kp::source::Token first = from.next();
            require(first.offset == middle.offset && first.length == middle.length &&
                    first.kind == middle.kind);
        }
    }
    return 0;
}
