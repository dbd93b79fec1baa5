#include "WarpSynchronous.h"

#include "TokenList.h"
#include "core/source/Lexer.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace kp::cpu {

namespace {

using source::Token;
using source::TokenKind;

// The source's tokens outside directives.
TokenList tokensOf(std::string_view source) {
    source::Lexer lexer(source);
    std::vector<Token> tokens;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        if (!token.inDirective && token.kind != TokenKind::Directive) tokens.push_back(token);
    return {source, std::move(tokens)};
}

bool isOneOf(std::string_view t, std::initializer_list<std::string_view> words) {
    return std::find(words.begin(), words.end(), t) != words.end();
}

bool typeWord(std::string_view t) {
    return isOneOf(t, {"volatile", "const", "float", "double", "int", "unsigned", "signed", "char", "short",
                       "long", "bool", "void", "auto", "static", "__shared__", "__device__", "struct"});
}

// The names declared `volatile` and where they can be used: [first, last) of the token list. A parameter:
// its function's body; a local (or a block's __shared__ array): the rest of the braces it stands in.
// Not a global, nor a cast (`(volatile int*)p`).
struct Volatile {
    std::string_view name;
    std::size_t first = 0, last = 0;
};
std::vector<Volatile> volatileNames(const TokenList& k) {
    std::vector<Volatile> found;
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (k.text(i) != "volatile") continue;
        std::size_t end = i + 1;
        while (end < k.size() && !isOneOf(k.text(end), {",", ";", ")", "=", "[", "(", "{", "}"}))
            ++end;
        if (end >= k.size() || isOneOf(k.text(end), {"(", "{", "}"}) || !k.identifier(end - 1) ||
            typeWord(k.text(end - 1)))
            continue;
        // The bracket the declaration stands in.
        std::size_t open = i;
        int depth = 0;
        bool enclosed = false;
        while (open > 0) {
            --open;
            const std::string_view t = k.text(open);
            if (isOneOf(t, {")", "]", "}"})) ++depth;
            if (isOneOf(t, {"(", "[", "{"}) && depth-- == 0) {
                enclosed = true;
                break;
            }
        }
        if (!enclosed) continue;
        if (k.text(open) == "(") { // a parameter: the body after the list
            const std::size_t body = k.closing(open) + 1;
            if (k.text(body) != "{") continue;
            found.push_back({k.text(end - 1), body, k.closing(body)});
        } else if (k.text(open) == "{") {
            found.push_back({k.text(end - 1), end, k.closing(open)});
        }
    }
    return found;
}

// The statement around the name at `at`, where it is one the warp takes step by step: the token its body
// starts at (after the headers of any `if`, `for`, `while`, `else` or `do` it stands under without braces)
// and its closing ';'. Nothing where the name stands in a condition or a loop's header, or the statement
// returns or jumps.
struct Statement {
    std::size_t body = 0, end = 0;
    bool braced = false; // an unbraced body of a control statement: it gets braces
};
std::optional<Statement> statementAround(const TokenList& k, std::size_t at, std::size_t first) {
    // Back to the statement's first token; a '(' left open on the way must not be a condition's.
    std::size_t start = at;
    int depth = 0;
    while (start > first + 1) {
        const std::string_view t = k.text(start - 1);
        if (depth == 0 && isOneOf(t, {";", "{", "}"})) break;
        if (isOneOf(t, {")", "]"})) ++depth;
        if (isOneOf(t, {"(", "["})) {
            if (depth == 0 && t == "(" && isOneOf(k.text(start - 2), {"if", "for", "while", "switch"}))
                return std::nullopt;
            if (depth > 0) --depth;
        }
        --start;
    }
    // Forward to its ';', outside any bracket.
    std::size_t end = at;
    depth = 0;
    for (; end < k.size(); ++end) {
        const std::string_view t = k.text(end);
        if (isOneOf(t, {"(", "[", "{"})) ++depth;
        if (isOneOf(t, {")", "]", "}"}) && --depth < 0) return std::nullopt; // in a bracket opened earlier
        if (depth == 0 && t == ";") break;
    }
    if (end >= k.size()) return std::nullopt;
    // Past the headers of the control statements it is the unbraced body of.
    Statement s{start, end, false};
    for (;;) {
        const std::string_view t = k.text(s.body);
        if (isOneOf(t, {"if", "for", "while", "switch"}) && k.text(s.body + 1) == "(") {
            s.body = k.closing(s.body + 1) + 1;
            s.braced = true;
        } else if (isOneOf(t, {"else", "do"})) {
            ++s.body;
            s.braced = true;
        } else {
            break;
        }
        if (s.body > at) return std::nullopt;
    }
    if (isOneOf(k.text(s.body), {"return", "break", "continue", "goto", "case", "default"}))
        return std::nullopt;
    return s;
}

} // namespace

int syncVolatileStatements(std::string& source) {
    if (source.find("volatile") == std::string::npos) return 0;
    const TokenList k = tokensOf(source);
    std::vector<Statement> statements;
    for (const Volatile& v : volatileNames(k))
        for (std::size_t i = v.first; i < v.last && i < k.size(); ++i) {
            if (k.text(i) != v.name || !k.identifier(i) || isOneOf(k.text(i - 1), {".", "->", "::"}))
                continue;
            const auto s = statementAround(k, i, v.first);
            if (s && std::none_of(statements.begin(), statements.end(),
                                  [&](const Statement& o) { return o.end == s->end; }))
                statements.push_back(*s);
        }
    // Each statement between `const unsigned __kp_lanesN = __activemask();` and `__syncwarp(__kp_lanesN);`:
    // the split finds a region's leading __activemask() once for the block, and a warp operation's
    // argument may not call one. From the last edit to the first, so that the offsets before each stay.
    std::vector<std::pair<std::size_t, std::string>> edits;
    for (std::size_t n = 0; n < statements.size(); ++n) {
        const Statement& s = statements[n];
        const std::string lanes = "__kp_lanes" + std::to_string(n);
        edits.emplace_back(k.token(s.end).end(), " __syncwarp(" + lanes + ");" + (s.braced ? " }" : ""));
        edits.emplace_back(k.token(s.body).offset, std::string(s.braced ? "{ " : "") + "const unsigned " +
                                                       lanes + " = __activemask(); ");
    }
    std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [offset, text] : edits)
        source.insert(offset, text);
    return static_cast<int>(statements.size());
}

} // namespace kp::cpu
