#include "Lexer.h"

#include <algorithm>
#include <array>
#include <climits>
#include <string>

namespace kp::source {

namespace {

bool isIdentifierStart(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool isDigit(unsigned char c) {
    return c >= '0' && c <= '9';
}
bool isIdentifierChar(unsigned char c) {
    return isIdentifierStart(c) || isDigit(c);
}
bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\0';
}

// C++'s punctuators of two or more characters, and CUDA's launch brackets, longest first.
// Digraphs are left out: `<:` would take the `<` of `vector<::T>`.
constexpr std::array<std::string_view, 29> kPunctuators{
    "<<<", ">>>", "<<=", ">>=", "...", "->*", "<=>", "::", "->", ".*", "++", "--", "&&", "||", "<<",
    ">>",  "<=",  ">=",  "==",  "!=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "##"};

} // namespace

Lexer::Lexer(std::string_view source, const LexerOptions& options)
    : source_(source), keepComments_(options.comments), pos_(std::min(options.offset, source.size())),
      line_(options.line) {
    const auto before = static_cast<std::size_t>(std::max(options.column, 1) - 1);
    lineStart_ = before <= pos_ ? pos_ - before : 0;
    atLineStart_ = options.column <= 1;
}

Token Lexer::next() {
    for (;;) {
        skipBlanks();
        if (inDirective_ && (pos_ >= source_.size() || source_[pos_] == '\n')) {
            inDirective_ = false; // the line break is the next blank outside the directive
            continue;
        }
        if (pos_ >= source_.size()) return startToken(TokenKind::End);
        if (source_[pos_] == '/' && pos_ + 1 < source_.size() &&
            (source_[pos_ + 1] == '/' || source_[pos_ + 1] == '*')) {
            Token token = comment();
            token.spaceBefore = space_;
            token.spliceBefore = splice_;
            space_ = true;
            splice_ = false;
            if (keepComments_) return token;
            continue;
        }
        break;
    }
    Token token = startToken(TokenKind::Punct);
    if (atLineStart_ && !inDirective_ && source_[pos_] == '#') return directive(token);
    atLineStart_ = false;
    scan(token);
    finish(token);
    return token;
}

std::vector<Token> Lexer::rest() {
    std::vector<Token> tokens;
    for (Token token = next(); token.kind != TokenKind::End; token = next())
        tokens.push_back(token);
    return tokens;
}

// Skips blanks and splices; in a directive, stops at the line break that ends it.
void Lexer::skipBlanks() {
    while (pos_ < source_.size()) {
        const char c = source_[pos_];
        if (c == '\n') {
            if (inDirective_) return;
            countLine(pos_++);
            atLineStart_ = true;
        } else if (isBlank(c)) {
            ++pos_;
        } else if (const std::size_t splice = spliceAt(pos_); splice > 0) {
            countLine(pos_ + splice - 1);
            pos_ += splice;
            splice_ = true;
        } else {
            return;
        }
        space_ = true;
    }
}

// A backslash, maybe a carriage return, then a newline: a line splice. Returns its length or 0.
std::size_t Lexer::spliceAt(std::size_t at) const {
    if (at >= source_.size() || source_[at] != '\\') return 0;
    if (at + 1 < source_.size() && source_[at + 1] == '\n') return 2;
    if (at + 2 < source_.size() && source_[at + 1] == '\r' && source_[at + 2] == '\n') return 3;
    return 0;
}

void Lexer::countLine(std::size_t newlineOffset) {
    ++line_;
    lineStart_ = newlineOffset + 1;
}

// Counts the newlines from pos_ up to `stop`, looking no further: searching the whole rest of the source
// for each comment made a file of many short comments and no newline quadratic.
void Lexer::countLinesUpTo(std::size_t stop) {
    const std::string_view span = source_.substr(0, stop);
    for (std::size_t at = span.find('\n', pos_); at != std::string_view::npos; at = span.find('\n', at + 1))
        countLine(at);
}

Token Lexer::startToken(TokenKind kind) {
    Token token;
    token.kind = kind;
    token.offset = pos_;
    token.line = line_;
    token.column = static_cast<int>(std::min<std::size_t>(pos_ - lineStart_ + 1, INT_MAX));
    token.inDirective = inDirective_;
    return token;
}

void Lexer::finish(Token& token) {
    token.length = pos_ - token.offset;
    token.spaceBefore = space_;
    token.spliceBefore = splice_;
    space_ = splice_ = false;
}

Token Lexer::comment() {
    Token token = startToken(TokenKind::Comment);
    if (source_[pos_ + 1] == '/') {
        lineComment();
    } else {
        const std::size_t end = source_.find("*/", pos_ + 2);
        const std::size_t stop = end == std::string_view::npos ? source_.size() : end + 2;
        countLinesUpTo(stop);
        pos_ = stop;
        token.unterminated = end == std::string_view::npos;
    }
    token.length = pos_ - token.offset;
    return token;
}

// Up to the newline, which a backslash before it continues (a classic surprise, kept as compilers do).
void Lexer::lineComment() {
    for (;;) {
        const std::size_t end = source_.find('\n', pos_);
        if (end == std::string_view::npos) {
            pos_ = source_.size();
            return;
        }
        const bool continued =
            source_[end - 1] == '\\' || (source_[end - 1] == '\r' && source_[end - 2] == '\\');
        if (!continued) {
            pos_ = end;
            return;
        }
        countLine(end);
        pos_ = end + 1;
    }
}

// The Directive token spans the logical line; its own tokens follow, read as the next ones.
Token Lexer::directive(Token hash) {
    hash.kind = TokenKind::Directive;
    atLineStart_ = false;
    ++pos_;
    inDirective_ = true;
    directiveTokens_ = 0;
    includeDirective_ = false;
    const std::size_t end = directiveEnd();
    hash.length = end - hash.offset;
    hash.spaceBefore = space_;
    hash.spliceBefore = splice_;
    space_ = splice_ = false;
    return hash;
}

// Where the directive that starts at pos_ ends: before its line break, trailing blanks left out. Read by
// a copy of this lexer, so that comments and literals that span lines are followed as they will be.
std::size_t Lexer::directiveEnd() const {
    Lexer probe = *this;
    std::size_t end = pos_;
    for (;;) {
        probe.skipBlanks();
        if (probe.pos_ >= source_.size() || source_[probe.pos_] == '\n') return end;
        if (source_[probe.pos_] == '/' && probe.pos_ + 1 < source_.size() &&
            (source_[probe.pos_ + 1] == '/' || source_[probe.pos_ + 1] == '*')) {
            probe.comment();
        } else {
            Token token = probe.startToken(TokenKind::Punct);
            probe.scan(token);
        }
        end = probe.pos_;
    }
}

void Lexer::scan(Token& token) {
    const auto c = static_cast<unsigned char>(source_[pos_]);
    const bool directiveName = inDirective_ && directiveTokens_ == 0;
    const bool afterInclude = inDirective_ && directiveTokens_ == 1 && includeDirective_;
    if (inDirective_) ++directiveTokens_;
    if (afterInclude && c == '<') {
        headerName(token);
    } else if (isIdentifierStart(c)) {
        identifierOrPrefixedLiteral(token);
        const std::string_view name = source_.substr(token.offset, pos_ - token.offset);
        if (directiveName)
            includeDirective_ = name == "include" || name == "include_next" || name == "import";
    } else if (isDigit(c) || (c == '.' && pos_ + 1 < source_.size() &&
                              isDigit(static_cast<unsigned char>(source_[pos_ + 1])))) {
        token.kind = TokenKind::Number;
        number();
    } else if (c == '"' || c == '\'') {
        token.kind = c == '"' ? TokenKind::String : TokenKind::Char;
        quoted(token, source_[pos_]);
    } else {
        token.kind = TokenKind::Punct;
        punctuator();
    }
}

void Lexer::identifierOrPrefixedLiteral(Token& token) {
    token.kind = TokenKind::Identifier;
    while (pos_ < source_.size() && isIdentifierChar(static_cast<unsigned char>(source_[pos_])))
        ++pos_;
    if (pos_ >= source_.size() || (source_[pos_] != '"' && source_[pos_] != '\'')) return;
    const std::string_view prefix = source_.substr(token.offset, pos_ - token.offset);
    const bool raw = prefix == "R" || prefix == "LR" || prefix == "uR" || prefix == "UR" || prefix == "u8R";
    if (raw && source_[pos_] == '"') {
        token.kind = TokenKind::String;
        rawString(token);
    } else if (prefix == "L" || prefix == "u" || prefix == "U" || prefix == "u8") {
        token.kind = source_[pos_] == '"' ? TokenKind::String : TokenKind::Char;
        quoted(token, source_[pos_]);
    }
}

// A preprocessing number: digits, letters, dots, digit separators and signed exponents.
void Lexer::number() {
    ++pos_;
    while (pos_ < source_.size()) {
        const auto c = static_cast<unsigned char>(source_[pos_]);
        const char previous = source_[pos_ - 1];
        const bool exponentSign = (c == '+' || c == '-') &&
                                  (previous == 'e' || previous == 'E' || previous == 'p' || previous == 'P');
        const bool separator = c == '\'' && pos_ + 1 < source_.size() &&
                               isIdentifierChar(static_cast<unsigned char>(source_[pos_ + 1]));
        if (!isIdentifierChar(c) && c != '.' && !exponentSign && !separator) return;
        ++pos_;
    }
}

// From the opening quote at pos_ to the closing one; a line break (not a splice) ends it unterminated.
void Lexer::quoted(Token& token, char quote) {
    ++pos_;
    while (pos_ < source_.size()) {
        const char c = source_[pos_];
        if (c == quote) {
            ++pos_;
            return;
        }
        if (c == '\n') break;
        if (const std::size_t splice = spliceAt(pos_); splice > 0) {
            countLine(pos_ + splice - 1);
            pos_ += splice;
        } else {
            pos_ += c == '\\' && pos_ + 1 < source_.size() && source_[pos_ + 1] != '\n' ? std::size_t{2}
                                                                                        : std::size_t{1};
        }
    }
    token.unterminated = true;
}

// R"delim( ... )delim": nothing inside is escaped, newlines included.
void Lexer::rawString(Token& token) {
    // The delimiter is at most 16 characters, none of them blank, quote, backslash or parenthesis; a
    // literal without one is read as an ordinary string.
    const std::string_view head = source_.substr(pos_ + 1, 17);
    const std::size_t delimiterLength = head.find_first_of("()\\\" \t\r\n\v\f");
    if (delimiterLength == std::string_view::npos || head[delimiterLength] != '(') {
        quoted(token, '"');
        return;
    }
    token.raw = true;
    const std::string closing = ")" + std::string(source_.substr(pos_ + 1, delimiterLength)) + "\"";
    const std::size_t close = source_.find(closing, pos_ + 2 + delimiterLength);
    const std::size_t stop = close == std::string_view::npos ? source_.size() : close + closing.size();
    countLinesUpTo(stop);
    pos_ = stop;
    token.unterminated = close == std::string_view::npos;
}

// <name> after #include: everything up to '>' on the same line.
void Lexer::headerName(Token& token) {
    token.kind = TokenKind::HeaderName;
    const std::size_t close = source_.find_first_of(">\n", pos_ + 1);
    if (close == std::string_view::npos || source_[close] == '\n') {
        pos_ = close == std::string_view::npos ? source_.size() : close;
        token.unterminated = true;
        return;
    }
    pos_ = close + 1;
}

void Lexer::punctuator() {
    const std::string_view rest = source_.substr(pos_, 3);
    for (const std::string_view punctuator : kPunctuators) {
        if (rest.starts_with(punctuator)) {
            pos_ += punctuator.size();
            return;
        }
    }
    ++pos_;
}

} // namespace kp::source
