// A stretch of source as tokens, for the CPU backend's rewrites of it (DeferredAtomics, WarpSynchronous):
// each token's text, and the bracket that closes one.
#pragma once

#include "core/source/Token.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

namespace kp::cpu {

// Whether `t` is one of `words`.
inline bool isOneOf(std::string_view t, std::initializer_list<std::string_view> words) {
    return std::find(words.begin(), words.end(), t) != words.end();
}

class TokenList {
public:
    TokenList(std::string_view source, std::vector<source::Token> tokens)
        : source_(source), tokens_(std::move(tokens)) {}
    // A token's text; empty past the end.
    std::string_view text(std::size_t i) const {
        return i < tokens_.size() ? source_.substr(tokens_[i].offset, tokens_[i].length) : std::string_view();
    }
    const source::Token& token(std::size_t i) const { return tokens_[i]; }
    std::size_t size() const { return tokens_.size(); }
    bool identifier(std::size_t i) const {
        return i < tokens_.size() && tokens_[i].kind == source::TokenKind::Identifier;
    }
    // The token that closes the bracket at `open` ('(', '[' or '{'); size() where none does.
    std::size_t closing(std::size_t open) const {
        const std::string_view o = text(open);
        const std::string_view c = o == "(" ? ")" : o == "[" ? "]" : "}";
        int depth = 0;
        for (std::size_t i = open; i < tokens_.size(); ++i) {
            if (text(i) == o) ++depth;
            if (text(i) == c && --depth == 0) return i;
        }
        return tokens_.size();
    }

    // The bracket ('(', '[' or '{') that the token at `at` stands in: the nearest before it that does not
    // close before it (for a closing bracket, the one that opens it); size() where none after `floor` does.
    std::size_t enclosing(std::size_t at, std::size_t floor = 0) const {
        int depth = 0;
        for (std::size_t i = at; i > floor;) {
            const std::string_view t = text(--i);
            if (t == ")" || t == "]" || t == "}") ++depth;
            if ((t == "(" || t == "[" || t == "{") && depth-- == 0) return i;
        }
        return tokens_.size();
    }

private:
    std::string_view source_;
    std::vector<source::Token> tokens_;
};

} // namespace kp::cpu
