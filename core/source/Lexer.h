// Reads CUDA C++ source as tokens, the one reading every scanner of user source shares (Token.h names
// them). Linear in the input and never fails: any bytes give tokens, with what is malformed (an
// unterminated literal or comment) marked on its token rather than thrown.
//
// Understood: // and /* */ comments, string and char literals with escapes and prefixes, raw strings,
// backslash-newline continuations between tokens and inside comments, literals and directives,
// preprocessor lines (a Directive token for the line, then its own tokens; #include's <name> as one
// HeaderName), preprocessing numbers, identifiers (with $ and any byte past ASCII), and the longest
// punctuator, CUDA's <<< and >>> included. Not undone: a continuation inside an identifier, a number or a
// punctuator ends that token there. Nothing is expanded or evaluated: that is the preprocessor's work.
#pragma once

#include "Token.h"

#include <string_view>
#include <vector>

namespace kp::source {

struct LexerOptions {
    bool comments = false; // return comments as Comment tokens instead of skipping them
    // Where reading starts: an offset outside any token, comment or literal, with its 1-based line and
    // column. A start in column 1 begins a line, where '#' opens a directive.
    std::size_t offset = 0;
    int line = 1;
    int column = 1;
};

class Lexer {
public:
    explicit Lexer(std::string_view source, const LexerOptions& options = {});

    // The next token; End at the end of the source, and again on every call after.
    Token next();
    // The tokens from here up to End (End not included).
    std::vector<Token> rest();

    std::string_view text(const Token& token) const { return source_.substr(token.offset, token.length); }
    std::string_view source() const { return source_; }

private:
    void skipBlanks();
    std::size_t spliceAt(std::size_t at) const;
    void countLine(std::size_t newlineOffset);
    void countLinesUpTo(std::size_t stop);
    Token startToken(TokenKind kind);
    void finish(Token& token);
    Token comment();
    void lineComment();
    Token directive(Token hash);
    std::size_t directiveEnd() const;
    void scan(Token& token);
    void identifierOrPrefixedLiteral(Token& token);
    void number();
    void quoted(Token& token, char quote);
    void rawString(Token& token);
    void headerName(Token& token);
    void punctuator();

    std::string_view source_;
    bool keepComments_ = false;
    std::size_t pos_ = 0;
    int line_ = 1;
    std::size_t lineStart_ = 0; // offset of the current line's first character
    bool atLineStart_ = true;   // no token yet on this line: a '#' here opens a directive
    bool space_ = false;        // for the next token's spaceBefore
    bool splice_ = false;       // for the next token's spliceBefore
    bool inDirective_ = false;  // between a Directive token and the line break that ends it
    int directiveTokens_ = 0;   // of the current directive, to see #include's header name
    bool includeDirective_ = false;
};

} // namespace kp::source
