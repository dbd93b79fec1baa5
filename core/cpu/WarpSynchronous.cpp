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

bool typeWord(std::string_view t) {
    return isOneOf(t, {"volatile", "const", "float", "double", "int", "unsigned", "signed", "char", "short",
                       "long", "bool", "void", "auto", "static", "__shared__", "__device__", "struct"});
}

// The names of the source's `__shared__` arrays (not pointers): `__shared__ float sdata[256];`.
std::vector<std::string_view> sharedArrays(const TokenList& k) {
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (k.text(i) != "__shared__") continue;
        std::size_t end = i + 1;
        bool pointer = false;
        while (end < k.size() && !isOneOf(k.text(end), {"[", ";", "=", ",", "(", ")", "{", "}"})) {
            pointer = pointer || k.text(end) == "*";
            ++end;
        }
        if (!pointer && end < k.size() && k.text(end) == "[" && k.identifier(end - 1) &&
            !typeWord(k.text(end - 1)))
            names.push_back(k.text(end - 1));
    }
    return names;
}

// The first name in an expression (past `&`, parentheses and casts): `&sdata[0]`, `(float*)sdata`.
std::string_view firstName(const TokenList& k, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i)
        if (k.identifier(i) && !typeWord(k.text(i)) &&
            !isOneOf(k.text(i), {"reinterpret_cast", "static_cast"}))
            return k.text(i);
    return {};
}

// The names declared `volatile` that reach a block's shared memory, and where they can be used: [first,
// last) of the token list. A `__shared__ volatile` array, or a local `volatile` pointer set to a shared
// array: the rest of the braces it stands in. A `volatile` pointer parameter of a helper that every call
// passes a shared array: the helper's body. Not a volatile scalar, a local array, a pointer to anything
// else or a global: `volatile` is also how code keeps the compiler from removing a load, a store or a
// recursion (a deep recursion through a volatile pointer to a local then ran as fibers, and its stack
// overflow read as a stray write), and none of that is a warp's step.
struct Volatile {
    std::string_view name;
    std::size_t first = 0, last = 0;
};
std::vector<Volatile> volatileNames(const TokenList& k) {
    std::vector<Volatile> found;
    std::optional<std::vector<std::string_view>> shared;
    const auto isShared = [&](std::string_view name) {
        if (!shared) shared = sharedArrays(k);
        return !name.empty() && std::find(shared->begin(), shared->end(), name) != shared->end();
    };
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (k.text(i) != "volatile") continue;
        std::size_t end = i + 1;
        while (end < k.size() && !isOneOf(k.text(end), {",", ";", ")", "=", "[", "(", "{", "}"}))
            ++end;
        if (end >= k.size() || isOneOf(k.text(end), {"(", "{", "}"}) || !k.identifier(end - 1) ||
            typeWord(k.text(end - 1)))
            continue;
        // The declaration's first token, and the bracket it stands in.
        std::size_t start = i;
        while (start > 0 && !isOneOf(k.text(start - 1), {";", "{", "}", "(", ","}))
            --start;
        bool pointer = false, sharedDeclaration = false;
        for (std::size_t t = start; t < end; ++t) {
            pointer = pointer || k.text(t) == "*";
            sharedDeclaration = sharedDeclaration || k.text(t) == "__shared__";
        }
        const std::size_t open = k.enclosing(i);
        if (open >= k.size()) continue;
        const std::string_view name = k.text(end - 1);
        if (k.text(open) == "{") { // a local: a shared array, or a pointer set to one
            const bool reaches = (sharedDeclaration && k.text(end) == "[") ||
                                 (pointer && k.text(end) == "=" && isShared(firstName(k, end + 1, k.size())));
            if (reaches) found.push_back({name, end, k.closing(open)});
            continue;
        }
        // A parameter: of a helper (its name before the list), every call of which passes a shared array.
        const std::size_t body = k.closing(open) + 1;
        if (k.text(open) != "(" || k.text(body) != "{" || !pointer || !k.identifier(open - 1)) continue;
        std::size_t place = 0;
        for (std::size_t t = open + 1; t < i; ++t)
            if (k.text(t) == ",") ++place;
        const std::string_view helper = k.text(open - 1);
        bool calls = false, all = true;
        for (std::size_t c = 0; c + 1 < k.size() && all; ++c) {
            if (c == open - 1 || k.text(c) != helper || k.text(c + 1) != "(") continue;
            const std::size_t close = k.closing(c + 1);
            std::size_t argument = c + 2, at = 0;
            int level = 0;
            for (std::size_t t = c + 2; t <= close; ++t) {
                const std::string_view x = k.text(t);
                if (isOneOf(x, {"(", "[", "{"})) ++level;
                if (isOneOf(x, {")", "]", "}"})) --level;
                if (t == close || (level == 0 && x == ",")) {
                    if (at == place) {
                        calls = true;
                        all = isShared(firstName(k, argument, t));
                        break;
                    }
                    ++at;
                    argument = t + 1;
                }
            }
        }
        if (calls && all) found.push_back({name, body, k.closing(body)});
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
