// One token of CUDA C++ source as Lexer reads it: its kind, where it stands (offset, line, column) and
// what stood before it. The scanners of user source (the signature parser, the CPU backend's barrier
// split and fibers check, grid coverage, the NVRTC include scan) all read these, so they agree on what is
// code and what is a comment, a literal or a preprocessor line.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kp::source {

enum class TokenKind : std::uint8_t {
    Identifier, // keywords included
    Number,     // a preprocessing number: 42, 1.0f, 0x1p3, 1'000, 10ull, 1e-5
    String,     // "...", with its prefix (L, u, U, u8, and R for raw strings)
    Char,       // '...', with its prefix
    HeaderName, // <name> after #include
    Punct,      // the longest punctuator that matches: ::, ->, <<, >>=, <<<, >>>, ...
    Directive,  // a preprocessor line as a whole, from its '#'; the line's own tokens follow it
    Comment,    // only from a Lexer asked to keep comments
    End,
};

struct Token {
    std::size_t offset = 0; // of the first character, in the source
    std::size_t length = 0;
    int line = 0;   // 1-based; a line continued with a backslash-newline still counts as two
    int column = 0; // 1-based, in bytes
    TokenKind kind = TokenKind::End;
    bool spaceBefore = false;  // blanks, a line break or a comment stand between it and the token before
    bool spliceBefore = false; // a backslash-newline stands in those blanks
    bool inDirective = false;  // one of a directive's tokens (or comments), after its Directive token
    bool unterminated = false; // a literal, comment or header name that the line or the source ends first
    bool raw = false;          // a raw string literal, R"delim(...)delim"

    std::size_t end() const { return offset + length; }
    bool operator==(const Token&) const = default;
};

} // namespace kp::source
