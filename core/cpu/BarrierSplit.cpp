#include "BarrierSplit.h"

#include "core/source/Lexer.h"
#include "core/source/SynchronisingCall.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

namespace kp::cpu {

namespace {

// Why the rewrite gave up; caught at the top and returned as the reason.
struct NotSplit {
    std::string reason;
};

// Statements nest at most this deep (clang's default bracket depth): the statement tree is built and
// walked by recursion, and 50,000 nested braces overflowed the stack. Deeper kernels run as fibers.
constexpr int kMaxNesting = 256;

// A thread loop's store of the thread's lane for the deferred sums (Generator::threadStart), kept only in
// the loops that call such a sum (keepLaneStores).
constexpr std::string_view kLaneStore = "kernelpad_block_state.deferredLane = __kp_x;\n";

using source::Token;
using source::TokenKind;

// Tokens of `source` from the kernel's name at (line, column) on. Stops after the token that closes the
// first brace group (the kernel's body) so that the rest of the file, whatever it holds, is not read.
std::vector<Token> tokenizeKernel(std::string_view source, std::size_t name, int line, int column) {
    source::Lexer lexer(source, {.comments = true, .offset = name, .line = line, .column = column});
    std::vector<Token> tokens;
    int braces = 0;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next()) {
        if (token.spliceBefore) throw NotSplit{"a line continuation inside the kernel"};
        if (token.kind == TokenKind::Comment) {
            if (token.unterminated) throw NotSplit{"an unterminated comment"};
            continue;
        }
        if (token.kind == TokenKind::Directive) throw NotSplit{"a preprocessor line inside the kernel"};
        if (token.raw) throw NotSplit{"a raw string literal"};
        if (token.unterminated) throw NotSplit{"an unterminated literal"};
        tokens.push_back(token);
        const std::string_view text = lexer.text(token);
        if (text == "{") ++braces;
        if (text == "}" && --braces == 0) return tokens;
    }
    throw NotSplit{"the kernel's body does not end"};
}

struct Stmt {
    enum class Kind { Simple, Empty, Block, If, For, RangeFor, While, Do, Switch, Labeled, Barrier };
    Kind kind = Kind::Simple;
    std::size_t first = 0, last = 0;         // tokens [first, last) of the whole statement
    std::size_t condFirst = 0, condLast = 0; // if/while/do/switch/for condition
    std::size_t initFirst = 0, initLast = 0; // for: init, without its ';'
    std::size_t incFirst = 0, incLast = 0;   // for: increment
    std::vector<Stmt> children;              // block: statements; if: then [, else]; loops: body
    bool barrier = false;                    // holds a __syncthreads() statement or a warp operation
    bool warp = false;                       // a simple statement that calls one warp operation
    bool atomic = false;                     // warp: the operation is an atomicAdd whose result it uses
    std::size_t callFirst = 0, callLast = 0; // warp: the call, its name to its ')'
};

bool isOneOf(std::string_view word, std::initializer_list<std::string_view> words) {
    return std::find(words.begin(), words.end(), word) != words.end();
}

// `=` or a compound assignment (`+=`, `<<=`, ...).
bool isAssignment(std::string_view op) {
    return isOneOf(op, {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="});
}

using source::isWarpOperation;

class Kernel {
public:
    Kernel(std::string_view text, std::vector<Token> tokens) : text_(text), tokens_(std::move(tokens)) {}

    std::string_view text(std::size_t i) const {
        if (i >= tokens_.size()) return {};
        return text_.substr(tokens_[i].offset, tokens_[i].length);
    }
    bool is(std::size_t i, std::string_view s) const { return text(i) == s; }
    bool identifier(std::size_t i) const {
        return i < tokens_.size() && tokens_[i].kind == TokenKind::Identifier;
    }
    const Token& token(std::size_t i) const { return tokens_[i]; }
    std::size_t size() const { return tokens_.size(); }

    // The index of the token closing the group that `open` starts ( ( [ { ).
    std::size_t closing(std::size_t open) const {
        int depth = 0;
        for (std::size_t i = open; i < tokens_.size(); ++i) {
            const std::string_view t = text(i);
            if (t == "(" || t == "[" || t == "{") ++depth;
            if (t == ")" || t == "]" || t == "}") {
                if (--depth == 0) return i;
                if (depth < 0) break;
            }
        }
        throw NotSplit{"unbalanced brackets"};
    }

    // Token i is an argument passed whole to a call of one of `functions` (inside the body after `bodyOpen`).
    bool passedWholeTo(std::size_t i, std::size_t bodyOpen, const std::set<std::string>& functions) const {
        if (!(is(i - 1, "(") || is(i - 1, ",")) || !(is(i + 1, ",") || is(i + 1, ")"))) return false;
        std::size_t open = i - 1;
        for (int depth = 0; open > bodyOpen; --open) {
            if (is(open, ")")) ++depth;
            if (is(open, "(") && depth-- == 0) break;
        }
        return open > bodyOpen && functions.count(std::string(text(open - 1))) > 0;
    }

    // The kernel's cooperative groups: variables holding its thread block and tiles of it (Groups).
    struct Groups {
        std::set<std::string> blocks;
        std::map<std::string, unsigned> tiles; // name -> size
        int calls = 0; // calls that synchronise: block.sync(), tile.shfl_down(...), ...
        bool any() const { return !blocks.empty() || !tiles.empty(); }
    };
    void setGroups(Groups groups) { groups_ = std::move(groups); }
    const Groups& groups() const { return groups_; }

    // Token i starts `NAME.method(` on a tile (or, for sync, a block) whose method synchronises: a warp
    // operation on the tile's lanes (cooperative_groups in the kernel header), or the block's barrier.
    bool groupCall(std::size_t i, bool block) const {
        if (!identifier(i) || !is(i + 1, ".") || !is(i + 3, "(") ||
            (i > 0 && (is(i - 1, ".") || is(i - 1, "->"))))
            return false;
        const std::string name(text(i));
        if (block) return groups_.blocks.count(name) && is(i + 2, "sync");
        return groups_.tiles.count(name) &&
               isOneOf(text(i + 2), {"sync", "shfl", "shfl_down", "shfl_up", "shfl_xor", "any", "all",
                                     "ballot", "match_any", "match_all"});
    }
    // Token i is `reduce` (or `sync`) of cooperative groups called on a group variable: `cg::reduce(tile,`;
    // returns the call's first token (its qualifier's), or npos.
    std::size_t groupFunction(std::size_t i, std::string_view function) const {
        if (!is(i, function) || !is(i + 1, "(")) return std::string::npos;
        const std::string argument(text(i + 2));
        const bool group = function == "reduce"
                               ? groups_.tiles.count(argument) > 0
                               : groups_.tiles.count(argument) + groups_.blocks.count(argument) > 0;
        if (!group || !(is(i + 3, ",") || is(i + 3, ")"))) return std::string::npos;
        if (i >= 2 && is(i - 1, "::")) return i - 2;
        return i > 0 && (is(i - 1, ".") || is(i - 1, "->")) ? std::string::npos : i;
    }

    Stmt statement(std::size_t& i, std::size_t end) {
        if (i >= end) throw NotSplit{"a statement is missing"};
        if (depth_ == kMaxNesting)
            throw NotSplit{"nesting deeper than " + std::to_string(kMaxNesting) + " levels at line " +
                           std::to_string(lineOf(i))};
        ++depth_;
        struct Leave {
            int& depth;
            ~Leave() { --depth; }
        } leave{depth_};
        Stmt s;
        s.first = i;
        const std::string_view t = text(i);
        if (t == "{") {
            s.kind = Stmt::Kind::Block;
            const std::size_t close = closing(i);
            for (++i; i < close;)
                s.children.push_back(statement(i, close));
            i = close + 1;
        } else if (t == ";") {
            s.kind = Stmt::Kind::Empty;
            ++i;
        } else if (t == "if" || t == "while" || t == "switch") {
            s.kind = t == "if" ? Stmt::Kind::If : t == "while" ? Stmt::Kind::While : Stmt::Kind::Switch;
            condition(s, ++i);
            s.children.push_back(statement(i, end));
            if (s.kind == Stmt::Kind::If && is(i, "else")) s.children.push_back(statement(++i, end));
        } else if (t == "for") {
            if (!is(++i, "(")) throw NotSplit{"a for without ("};
            const std::size_t close = closing(i);
            std::vector<std::size_t> semicolons;
            for (std::size_t j = i + 1, depth = 0; j < close; ++j) {
                const std::string_view u = text(j);
                if (u == "(" || u == "[" || u == "{") ++depth;
                if (u == ")" || u == "]" || u == "}") --depth;
                if (u == ";" && depth == 0) semicolons.push_back(j);
            }
            if (semicolons.empty()) {
                s.kind = Stmt::Kind::RangeFor;
            } else if (semicolons.size() == 2) {
                s.kind = Stmt::Kind::For;
                s.initFirst = i + 1;
                s.initLast = semicolons[0];
                s.condFirst = semicolons[0] + 1;
                s.condLast = semicolons[1];
                s.incFirst = semicolons[1] + 1;
                s.incLast = close;
            } else {
                throw NotSplit{"a for statement it cannot read"};
            }
            i = close + 1;
            s.children.push_back(statement(i, end));
        } else if (t == "do") {
            s.kind = Stmt::Kind::Do;
            s.children.push_back(statement(++i, end));
            if (!is(i, "while")) throw NotSplit{"a do without while"};
            condition(s, ++i);
            if (!is(i++, ";")) throw NotSplit{"a do-while without ;"};
        } else if (t == "case" || t == "default" || (identifier(i) && is(i + 1, ":"))) {
            s.kind = Stmt::Kind::Labeled;
            while (i < end && !is(i, ":"))
                ++i;
            s.children.push_back(statement(++i, end));
        } else if (t == "__syncthreads" && is(i + 1, "(") && is(i + 2, ")") && is(i + 3, ";")) {
            s.kind = Stmt::Kind::Barrier;
            s.barrier = true;
            i += 4;
        } else if (groupCall(i, true) && is(i + 4, ")") && is(i + 5, ";")) { // block.sync();
            s.kind = Stmt::Kind::Barrier;
            s.barrier = true;
            i += 6;
        } else if (const std::size_t sync = is(i + 1, "::") ? i + 2 : i;
                   groupFunction(sync, "sync") == i && groups_.blocks.count(std::string(text(sync + 2))) &&
                   is(sync + 3, ")") && is(sync + 4, ";")) { // cg::sync(block);
            s.kind = Stmt::Kind::Barrier;
            s.barrier = true;
            i = sync + 5;
        } else if (t == "try" || t == "else") {
            throw NotSplit{"a " + std::string(t) + " it cannot place"};
        } else {
            s.kind = Stmt::Kind::Simple;
            while (i < end && !is(i, ";")) {
                const std::string_view u = text(i);
                if (u == ")" || u == "]" || u == "}") throw NotSplit{"unbalanced brackets"};
                i = (u == "(" || u == "[" || u == "{") ? closing(i) + 1 : i + 1;
            }
            if (i >= end) throw NotSplit{"a statement without ;"};
            ++i;
            warpCall(s, i - 1);
        }
        s.last = i;
        for (const Stmt& c : s.children)
            s.barrier = s.barrier || c.barrier;
        return s;
    }

private:
    int lineOf(std::size_t i) const { return tokens_[i].line; }

    // Tokens [first, last) call a function that may do something (a helper, atomicSub, curand): a cut
    // statement's call is evaluated twice, to record and to take. Arithmetic, casts and groups' ranks
    // are not counted.
    bool callsInside(std::size_t first, std::size_t last) const {
        for (std::size_t i = first; i < last; ++i)
            if (identifier(i) && is(i + 1, "(") &&
                !isOneOf(text(i), {"min",
                                   "max",
                                   "abs",
                                   "fabs",
                                   "fabsf",
                                   "fmin",
                                   "fmax",
                                   "fminf",
                                   "fmaxf",
                                   "sqrt",
                                   "sqrtf",
                                   "rsqrtf",
                                   "exp",
                                   "expf",
                                   "log",
                                   "logf",
                                   "sizeof",
                                   "__popc",
                                   "__popcll",
                                   "__ffs",
                                   "__ffsll",
                                   "__clz",
                                   "__clzll",
                                   "__brev",
                                   "__float_as_int",
                                   "__int_as_float",
                                   "__float_as_uint",
                                   "__uint_as_float",
                                   "__double_as_longlong",
                                   "__longlong_as_double",
                                   "thread_rank",
                                   "meta_group_rank",
                                   "meta_group_size",
                                   "size",
                                   "num_threads",
                                   "int",
                                   "unsigned",
                                   "float",
                                   "double",
                                   "long",
                                   "char",
                                   "short",
                                   "bool"}))
                return true;
        return false;
    }

    // A simple statement that uses the result of its one atomicAdd (`unsigned slot = atomicAdd(count, 1);`)
    // splits there like a warp operation: every thread's call records its address and value, and the
    // warp's first thread to take adds the lanes' values to each address with one atomic, handing each lane
    // the value before its own addition, lanes in order (WarpExchange.h): one locked instruction per warp
    // and address instead of one per thread, all on one cache line when every thread counts into it. A
    // statement the cut cannot keep exact (two atomics, one behind ?:, && or ||, arguments that assign)
    // keeps its atomic acting at once, as before.
    void gatheredAtomic(Stmt& s, std::size_t last) {
        std::size_t call = last;
        for (std::size_t i = s.first; i < last; ++i) {
            if (!is(i, "atomicAdd") || !is(i + 1, "(") || (i > 0 && isOneOf(text(i - 1), {".", "->", "::"})))
                continue;
            if (call != last) return; // two
            call = i;
        }
        if (call == last || call == s.first) return; // none, or its result unused (DeferredAtomics.h)
        const std::size_t close = closing(call + 1);
        if (callsInside(call + 2, close)) return;
        for (std::size_t i = s.first; i < last; ++i) {
            const bool inCall = i > call && i < close;
            if ((inCall && (isAssignment(text(i)) || isOneOf(text(i), {"++", "--"}))) ||
                (!inCall && isOneOf(text(i), {"?", "&&", "||"})))
                return;
        }
        s.warp = s.barrier = s.atomic = true;
        s.callFirst = call;
        s.callLast = close + 1;
    }

    // A simple statement [s.first, last) that calls a warp operation splits there: its call runs once for
    // every thread to record, then the whole statement to take the result (WarpExchange.h). So the call
    // must be the statement's only one, run whatever else the statement does (not behind ?:, && or ||),
    // and its arguments must change nothing, since they are evaluated twice.
    void warpCall(Stmt& s, std::size_t last) {
        for (std::size_t i = s.first; i < last; ++i) {
            // A warp operation, a tile's (tile.shfl_down(v, 1), tile.sync()) or cooperative groups' reduce
            // over a tile (cg::reduce(tile, v, op), one operation: WarpExchange.h).
            std::size_t first = i, open = i + 1;
            if (groupCall(i, false)) {
                open = i + 3;
            } else if (const std::size_t reduce = groupFunction(i, "reduce"); reduce != std::string::npos) {
                first = reduce;
            } else if (!identifier(i) || !isWarpOperation(text(i)) || !is(i + 1, "(")) {
                continue;
            }
            if (s.warp)
                throw NotSplit{"two warp operations in one statement at line " + std::to_string(lineOf(i))};
            s.warp = s.barrier = true;
            s.callFirst = first;
            s.callLast = closing(open) + 1;
            if (callsInside(open + 1, s.callLast - 1))
                throw NotSplit{"a warp operation whose arguments call a function at line " +
                               std::to_string(lineOf(i))};
            for (std::size_t j = s.callFirst; j < s.callLast; ++j)
                if (isAssignment(text(j)) || isOneOf(text(j), {"++", "--"}))
                    throw NotSplit{"a warp operation whose arguments change a variable at line " +
                                   std::to_string(lineOf(i))};
        }
        if (!s.warp) {
            gatheredAtomic(s, last);
            return;
        }
        for (std::size_t i = s.first; i < last; ++i) {
            if (i == s.callFirst) i = s.callLast;
            if (isOneOf(text(i), {"?", "&&", "||"}))
                throw NotSplit{"a warp operation behind " + std::string(text(i)) + " at line " +
                               std::to_string(lineOf(s.callFirst))};
        }
    }

    void condition(Stmt& s, std::size_t& i) {
        if (!is(i, "(")) throw NotSplit{"a condition without ("};
        const std::size_t close = closing(i);
        s.condFirst = i + 1;
        s.condLast = close;
        i = close + 1;
    }

    std::string_view text_;
    std::vector<Token> tokens_;
    Groups groups_;
    int depth_ = 0; // of statement()'s recursion
};

// The parentheses closing at token `close` hold an expression (`(first + i)`: an operator other than a
// type's `*`, `&` or `::`, or a number), not a cast's type (`(unsigned*)`, `(T)`): a `&` after them is a
// binary and. Anything unsure reads as a cast.
bool parenthesisedExpression(const Kernel& k, std::size_t close, std::size_t bodyOpen) {
    std::size_t open = close;
    for (int depth = 0; open > bodyOpen; --open) {
        if (k.is(open, ")")) ++depth;
        if (k.is(open, "(") && --depth == 0) break;
    }
    if (open <= bodyOpen) return false;
    for (std::size_t j = open + 1; j < close; ++j)
        if (k.token(j).kind == TokenKind::Number ||
            (!k.identifier(j) && !isOneOf(k.text(j), {"*", "&", "::", "<", ">", "(", ")"})))
            return true;
    return false;
}

// The `&` at token `amp` is a binary and (`mask & n`, `a[k] & n`, `(first + i) & k`, a bitonic sort's
// direction), not an address taken (`&n`, `(unsigned*)&n`, `return &n`), which could write what follows.
// Anything unsure reads as an address.
bool bitwiseAnd(const Kernel& k, std::size_t amp, std::size_t bodyOpen) {
    if (amp == 0 || !k.is(amp, "&")) return false;
    const std::size_t before = amp - 1;
    return (k.identifier(before) && !isOneOf(k.text(before), {"return", "case", "sizeof", "throw"})) ||
           k.is(before, "]") || k.token(before).kind == TokenKind::Number ||
           (k.is(before, ")") && parenthesisedExpression(k, before, bodyOpen));
}

struct Declarator {
    std::size_t typeFirst = 0,
                typeLast = 0; // pointer operators and qualifiers between the specifiers and the name
    std::size_t name = 0;
    std::size_t dimsFirst = 0, dimsLast = 0; // [N]... after the name
    std::size_t initFirst = 0, initLast = 0; // after '=' (empty: none)
};

struct Declaration {
    std::size_t specFirst = 0, specLast = 0;
    std::vector<Declarator> declarators;
};

// The functions `source` declares with a parameter taken by non-const reference (a swap of two
// pointers): a variable passed to one whole may be written there.
std::set<std::string> referenceTakers(std::string_view source) {
    source::Lexer lexer(source);
    std::vector<Token> tokens;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        if (token.kind != TokenKind::Directive) tokens.push_back(token);
    std::set<std::string> byReference;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (tokens[i].kind != TokenKind::Identifier || lexer.text(tokens[i + 1]) != "(") continue;
        bool reference = false, constant = false;
        for (std::size_t j = i + 2, depth = 1; j < tokens.size() && depth > 0; ++j) {
            const std::string_view t = lexer.text(tokens[j]);
            if (t == "(") ++depth;
            if (t == ")") --depth;
            if (depth == 1 && t == ",") {
                if (reference && !constant) break;
                reference = constant = false;
            }
            reference = reference || t == "&" || t == "&&";
            constant = constant || t == "const";
        }
        if (reference && !constant) byReference.insert(std::string(lexer.text(tokens[i])));
    }
    return byReference;
}

// The object-like macros `source` defines whose replacement is the same for every thread of a block:
// numbers, operators, the launch's built-ins but threadIdx, type names, and such macros defined before;
// and the kernel's own template parameters that are values (`template <int BLOCK>`), whose name
// starts at `kernel` (an offset).
std::set<std::string> constantMacros(std::string_view source, std::size_t kernel) {
    source::Lexer lexer(source);
    std::vector<Token> tokens;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        tokens.push_back(token);
    const auto text = [&](std::size_t j) { return lexer.text(tokens[j]); };
    std::set<std::string> constant;
    // The template header right before the kernel: nothing but its declaration between them.
    std::size_t name = 0;
    while (name < tokens.size() && tokens[name].offset < kernel)
        ++name;
    for (std::size_t i = name; i-- > 0;) {
        const std::string_view t = text(i);
        if (tokens[i].kind == TokenKind::Directive || tokens[i].inDirective || isOneOf(t, {";", "{", "}"}))
            break;
        if (t != "template" || i + 1 >= name || text(i + 1) != "<") continue;
        for (std::size_t j = i + 2, segment = j, depth = 1; j < name && depth > 0; ++j) {
            const std::string_view u = text(j);
            if (u == "<" || u == "(") ++depth;
            if (u == ">" || u == ")") --depth;
            if (depth > 1 || !(depth == 0 || u == ",")) continue;
            // [segment, j): `int BLOCK`, `unsigned int TILE = 16`; not `typename T`, `class T`.
            std::size_t last = j;
            for (std::size_t q = segment; q < j; ++q)
                if (text(q) == "=") last = std::min(last, q);
            if (last > segment + 1 && tokens[last - 1].kind == TokenKind::Identifier &&
                !isOneOf(text(segment), {"typename", "class", "template"}))
                constant.insert(std::string(text(last - 1)));
            segment = j + 1;
        }
        break;
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].kind != TokenKind::Directive) continue;
        std::size_t end = i + 1;
        while (end < tokens.size() && tokens[end].inDirective)
            ++end;
        if (end - i < 4 || text(i + 1) != "define" || tokens[i + 2].kind != TokenKind::Identifier ||
            (text(i + 3) == "(" && tokens[i + 3].offset == tokens[i + 2].end())) { // function-like
            i = end - 1;
            continue;
        }
        bool fine = true;
        for (std::size_t j = i + 3; j < end && fine; ++j) {
            const std::string_view t = text(j);
            if (tokens[j].kind == TokenKind::Number) continue;
            if (tokens[j].kind == TokenKind::Identifier) {
                fine = (text(j - 1) == "." && isOneOf(t, {"x", "y", "z"})) ||
                       isOneOf(t, {"blockDim", "blockIdx", "gridDim", "warpSize", "sizeof", "int", "unsigned",
                                   "float", "double", "long", "short", "char", "bool", "signed", "size_t"}) ||
                       constant.count(std::string(t)) > 0;
                continue;
            }
            fine =
                tokens[j].kind == TokenKind::Punct && !isAssignment(t) && !isOneOf(t, {"++", "--", ",", "{"});
        }
        if (fine) constant.insert(std::string(text(i + 2)));
        i = end - 1;
    }
    return constant;
}

class Generator {
    struct UniformStatement {
        std::string name; // the block-uniform variable it declares or changes
        bool declaration = false;
    };

public:
    Generator(const Kernel& k, std::string_view source, const SplitOptions& options, bool anyReturn,
              std::size_t bodyFirst, std::size_t bodyLast, std::set<std::string> scalarParameters, bool warps,
              const std::set<std::string>& referenceTakers)
        : k_(k), source_(source), options_(options), alive_(anyReturn), bodyFirst_(bodyFirst),
          bodyLast_(bodyLast), scalarParameters_(std::move(scalarParameters)), warps_(warps),
          constantMacros_(constantMacros(source, k.token(0).offset)), referenceTakers_(referenceTakers) {}

    // After body(): the __activemask() statements whose lanes are found once per block.
    int computedActiveMasks() const { return static_cast<int>(computed_.size()); }
    int gridStrideLoops() const { return gridStrideLoops_; }
    const std::string& insideOut() const { return insideOut_; }

    // Before collect(): the block-uniform variables. A variable declared at split level on a path every
    // thread of the block takes (the body, uniform ifs and loops), whose value and every change are the
    // same in every thread (`int offset = 1;` ... `offset *= 2;` in a scan's uniform loop), is one
    // variable for the block: declared at kernel scope, its declaration and changes run once where they
    // stand, between thread loops, rather than once per thread in a frame slot. That is what a barrier
    // between the statements around a change would do, which a kernel free of data races cannot tell.
    // The regions then read one value, and a region left as one `if (threadIdx.x < d)` is narrowed.
    // Candidates are dropped until the rest hold: a variable's uniformity may rest on another's.
    void findUniformVariables(const Stmt& root) {
        std::map<std::string, std::size_t> candidates; // name -> first token of its declaration
        std::map<std::string, int> declared;           // how many declarations each name has
        std::vector<const Stmt*> splitLevel;           // simple statements of barrier blocks
        const std::function<void(const Stmt&)> gather = [&](const Stmt& s) {
            if (!s.barrier) return;
            for (const Stmt& c : s.children) {
                if (s.kind == Stmt::Kind::Block && c.kind == Stmt::Kind::Simple) splitLevel.push_back(&c);
                gather(c);
            }
        };
        gather(root);
        for (std::size_t i = bodyFirst_ + 1; i < bodyLast_; ++i)
            if (k_.identifier(i) && k_.identifier(i - 1) &&
                !isOneOf(k_.text(i - 1), {"return", "case", "sizeof", "else", "do", "goto", "throw", "new",
                                          "delete", "co_return", "co_yield", "typename"}))
                ++declared[std::string(k_.text(i))];
        for (const Stmt* c : splitLevel) {
            const auto d = declarationAt(c->first, c->last - 1);
            if (!d || d->declarators.size() != 1 || d->declarators[0].dimsFirst < d->declarators[0].dimsLast)
                continue;
            bool arithmetic = true;
            for (std::size_t i = d->specFirst; i < d->specLast; ++i)
                arithmetic =
                    arithmetic && isOneOf(k_.text(i), {"const", "int", "unsigned", "long", "short", "signed",
                                                       "char", "size_t", "float", "double", "bool"});
            for (std::size_t i = d->declarators[0].typeFirst; i < d->declarators[0].typeLast; ++i)
                arithmetic = arithmetic && k_.is(i, "const");
            const std::string name(k_.text(d->declarators[0].name));
            if (constantDeclaration(*d)) {
                constants_.insert(name); // classify() keeps it a constant at kernel scope
                continue;
            }
            if (arithmetic && declared[name] == 1) {
                candidates.emplace(name, c->first);
                uniformDeclarations_.emplace(c->first, *d);
            }
        }
        if (candidates.empty()) return;
        const auto keyOf = [](const auto& entry) { return entry.first; };
        for (;;) {
            uniformVariables_.clear();
            std::transform(candidates.begin(), candidates.end(),
                           std::inserter(uniformVariables_, uniformVariables_.end()), keyOf);
            uniformNames_.clear();
            uniformStatements_.clear();
            std::map<std::string, std::size_t> blockOf; // name -> the '{' of the block that declares it
            std::set<std::size_t> targets;              // tokens a uniform statement writes
            bool dropped = false;
            const auto drop = [&](const std::string& name) {
                dropped = candidates.erase(name) > 0 || dropped;
            };
            const std::function<void(const Stmt&)> walk = [&](const Stmt& s) {
                using K = Stmt::Kind;
                if (!s.barrier) return;
                if (s.kind == K::Block) {
                    for (const Stmt& c : s.children) {
                        if (c.kind == K::Simple)
                            simpleOnUniformPath(c, s.first, candidates, blockOf, targets);
                        walk(c);
                    }
                } else if (s.kind == K::If || s.kind == K::While || s.kind == K::Do) {
                    if (uniform(s.condFirst, s.condLast, {}))
                        for (const Stmt& c : s.children)
                            walk(c);
                } else if (s.kind == K::For) {
                    const auto init =
                        s.initFirst < s.initLast ? declarationAt(s.initFirst, s.initLast) : std::nullopt;
                    if (uniformLoop(s, init)) {
                        if (init) uniformNames_.insert(std::string(k_.text(init->declarators[0].name)));
                        walk(s.children[0]);
                    }
                }
            };
            walk(root);
            for (const auto& [name, declaration] : std::map(candidates)) {
                const auto block = blockOf.find(name);
                if (block == blockOf.end()) {
                    drop(name); // not declared on a uniform path
                    continue;
                }
                const std::size_t blockLast = k_.closing(block->second);
                const std::size_t at = uniformDeclarations_.at(declaration).declarators[0].name;
                for (std::size_t i = 0; i < k_.size(); ++i) {
                    if (!named(i, name) || i == at) continue;
                    const bool outside = i < at || i > blockLast;
                    // A whole argument may bind to a reference the callee writes through.
                    const bool argument =
                        isOneOf(k_.text(i - 1), {"(", ","}) && isOneOf(k_.text(i + 1), {")", ","});
                    if (outside || argument || (writes(i) && !targets.count(i))) {
                        drop(name);
                        break;
                    }
                }
            }
            if (!dropped) break;
        }
        // The last pass dropped nothing: uniformVariables_ and uniformStatements_ are the survivors'.
        uniformNames_.clear(); // collect() finds the uniform loops again, with the variables known
        std::erase_if(uniformDeclarations_, [&](const auto& entry) {
            return !candidates.count(std::string(k_.text(entry.second.declarators[0].name)));
        });
    }

    // A kernel without barriers whose body is statements, a grid-stride loop and statements after it
    // (`float acc = 0; for (i = ...; i < n; i += stride) acc += x[i] * y[i]; atomicAdd(result, acc);`):
    // its body is split as a barrier's block is, so that the loop runs in passes of the whole block
    // (region()), each thread's element next to the last thread's, and the locals it carries (acc) live in
    // the frame between the parts. A statement before the loop that can return keeps the body one loop
    // (region() runs the loop in passes only after statements that keep nothing); one after it returns
    // from the thread's last part.
    void findStrideBody(const Stmt& root) {
        if (root.barrier || root.kind != Stmt::Kind::Block) return;
        bool loop = false, after = false;
        for (const Stmt& c : root.children) {
            if (c.kind == Stmt::Kind::Empty) continue;
            if (loop)
                after = true;
            else if (gridStride(c))
                loop = true;
        }
        strideBody_ = loop && after;
    }

    bool stridedBody() const { return strideBody_; }

    // First pass: which split-level statements go to kernel scope, which loops and ifs every thread
    // takes alike, and which variables live across a barrier and so need the frame.
    void collect(const Stmt& s) {
        using K = Stmt::Kind;
        if (!s.barrier && !(strideBody_ && s.first == bodyFirst_)) return;
        switch (s.kind) {
        case K::Block: {
            // The barrier-free children between two barrier-holding ones become one region; a variable
            // used only inside its region stays an ordinary local of the thread loop.
            std::vector<std::pair<std::size_t, Declaration>> declared;
            std::size_t groupFirst = 0, groupLast = 0;
            const auto close = [&] {
                for (const auto& [first, d] : declared)
                    place(first, d, groupFirst, groupLast, s.last - 1);
                declared.clear();
                groupFirst = groupLast = 0;
            };
            for (const Stmt& c : s.children) {
                if (c.warp) {
                    // Its call ends the group before it (there it records); the statement starts the next.
                    close();
                    groupFirst = c.first;
                    groupLast = c.last;
                    if (auto d = classify(c.first, c.last - 1)) declared.emplace_back(c.first, std::move(*d));
                    continue;
                }
                if (c.barrier || uniformStatements_.count(c.first)) {
                    close(); // a uniform statement runs between thread loops, as a barrier would
                    if (c.barrier) collect(c);
                    continue;
                }
                if (gridStride(c)) { // it runs in passes of its own (region): what it reads lives on
                    close();
                    continue;
                }
                if (groupFirst == groupLast) groupFirst = c.first;
                groupLast = c.last;
                if (c.kind == K::Simple)
                    if (auto d = classify(c.first, c.last - 1)) declared.emplace_back(c.first, std::move(*d));
            }
            close();
            break;
        }
        case K::If:
        case K::While:
        case K::Do:
            if (uniform(s.condFirst, s.condLast, {})) uniform_.insert(s.first);
            for (const Stmt& c : s.children)
                collect(c);
            break;
        case K::For: {
            const auto init =
                s.initFirst < s.initLast ? declarationAt(s.initFirst, s.initLast) : std::nullopt;
            if (uniformLoop(s, init)) {
                uniform_.insert(s.first);
                if (init) uniformNames_.insert(std::string(k_.text(init->declarators[0].name)));
            } else if (s.initFirst < s.initLast) {
                if (auto d = classify(s.initFirst, s.initLast)) place(s.initFirst, *d, 0, 0, s.last);
            }
            collect(s.children[0]);
            break;
        }
        case K::Barrier:
        case K::Simple: // a warp operation, the whole body of an if or a loop: it declares nothing that lives
                        // on
            break;
        default:
            throw NotSplit{"__syncthreads() inside a switch, a labelled statement or a range for"};
        }
    }

    // Declarations at the top of the block function (blockSums, below), which live until the block ends.
    void declareBlockSums(std::string text) { blockSums_ = std::move(text); }

    std::string body(const Stmt& root) {
        const std::function<void(const Stmt&)> atomics = [&](const Stmt& s) {
            if (s.atomic) atomicCalls_.insert(s.callFirst);
            for (const Stmt& c : s.children)
                atomics(c);
        };
        atomics(root);
        std::string out =
            "{\n[[maybe_unused]] const dim3 __kp_block = blockDim;\n"
            "[[maybe_unused]] const uint3 __kp_bidx = blockIdx;\n"
            "[[maybe_unused]] const dim3 __kp_gdim = gridDim;\n"
            "[[maybe_unused]] const unsigned __kp_n = __kp_block.x * __kp_block.y * __kp_block.z;\n" +
            blockSums_;
        for (const auto& [first, last] : prelude_)
            out += chunk(first, last + 1, false) + "\n";
        // A __shared__ variable is thread_local (a block's, on its worker): in a kernel library every use
        // would call __tls_get_addr, which the compiler does not hoist out of the thread loops (a third of a
        // scan's time). Its address is taken once here, and an inner scope names it through a reference.
        std::string shadows;
        int sharedCount = 0;
        for (const auto& [first, last] : prelude_) {
            if (!k_.is(first, "__shared__")) continue;
            for (const std::string_view name : sharedNames(first, last + 1)) {
                const std::string pointer = "__kp_shared_" + std::to_string(sharedCount++);
                out +=
                    "auto* const " + pointer + " = ::kernelpad::opaqueAddress(&" + std::string(name) + ");\n";
                shadows += "[[maybe_unused]] auto& " + std::string(name) + " = *" + pointer + ";\n";
            }
        }
        if (!shadows.empty()) {
            out += "{\n" + shadows;
            innerScope_ = true;
        }
        for (const auto& [first, declaration] : uniformDeclarations_) {
            const Declarator& d = declaration.declarators[0];
            out += storageType(declaration, d) + " " + std::string(k_.text(d.name)) + "{};\n";
        }
        if (!frame_.empty()) {
            out += "struct __kp_frame_t {\n";
            for (const std::string& member : frame_)
                out += member;
            out += "};\nauto& __kp_f = ::kernelpad::frame<__kp_frame_t>();\n";
        }
        if (alive_)
            out +=
                "unsigned char __kp_alive[::kernelpad::kMaxThreads];\nstd::memset(__kp_alive, 1, __kp_n);\n";
        if (warps_)
            out += "::kernelpad::WarpSplitBlock __kp_warp_block;\n"
                   "struct __kp_sites_t {\nunsigned char generic[" +
                   std::to_string(kLightSites) +
                   "];\n};\n[[maybe_unused]] auto& __kp_sites = ::kernelpad::frame<__kp_sites_t>();\n";
        out_ = std::move(out);
        statement(root, "");
        out_ += innerScope_ ? "}}" : "}";
        return std::move(out_);
    }

private:
    // A simple statement `c` of the block whose '{' is `block`, on a path every thread takes: the
    // declaration of a candidate (with a uniform initialiser), or a change to one (`v op= uniform;`,
    // `v = uniform;`, `++v;`, `v--;`), which becomes a uniform statement.
    void simpleOnUniformPath(const Stmt& c, std::size_t block,
                             const std::map<std::string, std::size_t>& candidates,
                             std::map<std::string, std::size_t>& blockOf, std::set<std::size_t>& targets) {
        const std::size_t last = c.last - 1; // the ';'
        for (const auto& [name, declaration] : candidates) {
            if (declaration != c.first) continue;
            const Declarator& one = uniformDeclarations_.at(declaration).declarators[0];
            if (one.initFirst == one.initLast || uniform(one.initFirst, one.initLast, {})) {
                blockOf[name] = block;
                uniformStatements_.emplace(c.first, UniformStatement{name, true});
            }
            return;
        }
        std::size_t target = c.first, valueFirst = last;
        if (isOneOf(k_.text(c.first), {"++", "--"}))
            target = c.first + 1;
        else if (isAssignment(k_.text(c.first + 1)))
            valueFirst = c.first + 2;
        else if (!isOneOf(k_.text(c.first + 1), {"++", "--"}))
            return;
        const std::string name(k_.text(target));
        if (!k_.identifier(target) || !candidates.count(name)) return;
        if (valueFirst == last ? target + (target == c.first ? 2 : 1) != last
                               : !uniform(valueFirst, last, {}))
            return;
        targets.insert(target);
        uniformStatements_.emplace(c.first, UniformStatement{name, false});
    }

    // The names a declaration [first, last) declares: identifiers outside brackets followed by '[', ',',
    // '=' or the end (`__shared__ float a[16][17], b;` gives a and b).
    std::vector<std::string_view> sharedNames(std::size_t first, std::size_t last) const {
        std::vector<std::string_view> names;
        int depth = 0;
        for (std::size_t i = first; i < last; ++i) {
            if (k_.is(i, "(") || k_.is(i, "[") || k_.is(i, "<") || k_.is(i, "{")) ++depth;
            if (k_.is(i, ")") || k_.is(i, "]") || k_.is(i, ">") || k_.is(i, "}")) --depth;
            if (depth != 0 || !k_.identifier(i)) continue;
            if (i + 1 == last || k_.is(i + 1, "[") || k_.is(i + 1, ",") || k_.is(i + 1, "=") ||
                k_.is(i + 1, ";"))
                names.push_back(k_.text(i));
        }
        return names;
    }

    // A split-level simple statement [first, last) (without its ';'): kernel scope, or a declaration
    // that place() puts in the frame or leaves local, or (nullopt) plain region code.
    std::optional<Declaration> classify(std::size_t first, std::size_t last) {
        if (isOneOf(k_.text(first), {"__shared__", "extern", "static", "constexpr", "typedef", "using",
                                     "struct", "class", "enum", "union"})) {
            prelude_.emplace_back(first, last);
            placed_.insert(first);
            return std::nullopt;
        }
        auto declaration = declarationAt(first, last);
        if (!declaration) return std::nullopt;
        if (alias(*declaration)) {
            placed_.insert(first);
            return std::nullopt;
        }
        if (constantDeclaration(*declaration)) {
            constants_.insert(std::string(k_.text(declaration->declarators[0].name)));
            prelude_.emplace_back(first, last);
            placed_.insert(first);
            return std::nullopt;
        }
        // A cooperative group of the block or a tile of it is the same object for every thread (its
        // methods read the calling thread's index): one at kernel scope.
        if (const std::string name(k_.text(declaration->declarators[0].name));
            declaration->declarators.size() == 1 &&
            (k_.groups().blocks.count(name) || k_.groups().tiles.count(name))) {
            prelude_.emplace_back(first, last);
            placed_.insert(first);
            return std::nullopt;
        }
        return declaration;
    }

    // Frame variables for a declaration whose names are used outside tokens [groupFirst, groupLast).
    // `scopeLast` ends the declaration's scope (its block's '}'): the name is the frame's from the
    // declaration to there, and another variable's before and after (a global or an outer one).
    void place(std::size_t first, const Declaration& declaration, std::size_t groupFirst,
               std::size_t groupLast, std::size_t scopeLast) {
        bool escapes = false;
        for (const Declarator& d : declaration.declarators)
            for (std::size_t i = bodyFirst_; i < bodyLast_ && !escapes; ++i)
                escapes = (i < groupFirst || i >= groupLast) && named(i, k_.text(d.name));
        if (!escapes) return;
        for (std::size_t i = declaration.specFirst; i < declaration.specLast; ++i)
            if (k_.is(i, "auto")) throw NotSplit{"an auto variable lives across a barrier"};
        declarations_.emplace(first, declaration);
        for (const Declarator& d : declaration.declarators) {
            const std::string name(k_.text(d.name));
            const std::string type = storageType(declaration, d);
            if (!frameNames_
                     .emplace(name, FrameName{d.name, scopeLast, type,
                                              d.dimsFirst < d.dimsLast || addressTaken(name)})
                     .second)
                throw NotSplit{"\"" + name + "\" is declared twice across barriers"};
            if (d.dimsFirst < d.dimsLast && d.initFirst < d.initLast)
                throw NotSplit{"an initialised array lives across a barrier"};
            frame_.push_back(type + " " + name + "[::kernelpad::kMaxThreads]" +
                             plain(d.dimsFirst, d.dimsLast) + ";\n");
        }
    }

    // `int tid = threadIdx.x;` never written again: tid becomes a name for the thread's own index,
    // so loops over threads can see what it is (and it needs no frame).
    bool alias(const Declaration& declaration) {
        if (declaration.declarators.size() != 1) return false;
        const Declarator& d = declaration.declarators[0];
        if (d.typeFirst < d.typeLast || d.dimsFirst < d.dimsLast || d.initLast != d.initFirst + 3 ||
            !k_.is(d.initFirst, "threadIdx") || !k_.is(d.initFirst + 1, ".") ||
            !isOneOf(k_.text(d.initFirst + 2), {"x", "y", "z"}))
            return false;
        std::string type;
        for (std::size_t i = declaration.specFirst; i < declaration.specLast; ++i) {
            if (!isOneOf(k_.text(i), {"const", "int", "unsigned", "long", "short", "signed", "size_t"}))
                return false;
            if (!k_.is(i, "const")) type += std::string(type.empty() ? "" : " ") + std::string(k_.text(i));
        }
        const std::string name(k_.text(d.name));
        // Written nowhere but in its own declaration.
        if (type.empty() || assigned(name, bodyFirst_, d.name) || assigned(name, d.name + 1, bodyLast_) ||
            aliases_.count(name))
            return false;
        aliases_.emplace(name, std::make_pair(type, std::string(k_.text(d.initFirst + 2))));
        return true;
    }

    // Token i is the variable `name` (not a member of something else).
    bool named(std::size_t i, std::string_view name) const {
        return k_.identifier(i) && k_.text(i) == name &&
               !(i > 0 && (k_.is(i - 1, ".") || k_.is(i - 1, "->") || k_.is(i - 1, "::")));
    }

    // A macro the source defines as a value the same for every thread of a block (`#define TILE 16`,
    // `#define N (1 << 20)`, `#define W (blockDim.x * 2)`); not one that reads threadIdx or calls anything
    // (`#define IDX (blockIdx.x * blockDim.x + threadIdx.x)`), nor one defined elsewhere.
    bool macroLike(std::string_view word) const { return constantMacros_.count(std::string(word)) > 0; }
    static bool launchConstant(std::string_view word) {
        return isOneOf(word, {"blockDim", "blockIdx", "gridDim", "warpSize", "sizeof", "int", "unsigned",
                              "float", "double", "long", "short", "char", "bool", "signed", "size_t"});
    }

    // The type a declarator's variable is kept in outside its declaration (a frame slot, a block's one
    // variable, a region's local): as declared, less a top-level const, since it is assigned there.
    std::string storageType(const Declaration& declaration, const Declarator& d) const {
        return "std::remove_const_t<" + plain(declaration.specFirst, declaration.specLast) + " " +
               plain(d.typeFirst, d.typeLast) + ">";
    }

    // `const T name = constant value;`: a constant at kernel scope (constantValue()).
    bool constantDeclaration(const Declaration& d) const {
        bool constant = false;
        for (std::size_t i = d.specFirst; i < d.specLast; ++i)
            constant = constant || k_.is(i, "const");
        return constant && d.declarators.size() == 1 && constantValue(d.declarators[0]);
    }

    // A const declaration whose value is the same for every thread and cannot change during the kernel
    // (literals, macros, the launch's built-ins, earlier such constants: nothing that reads memory or
    // threadIdx) stays a constant at kernel scope, where array bounds and shared memory sizes can use it.
    bool constantValue(const Declarator& d) const {
        if (d.initFirst == d.initLast || d.typeFirst < d.typeLast) return false;
        for (std::size_t i = d.initFirst; i < d.initLast; ++i) {
            if (k_.is(i, "[") || k_.is(i, "->")) return false;
            if (!k_.identifier(i) || k_.is(i - 1, ".")) continue;
            const std::string_view word = k_.text(i);
            if (!launchConstant(word) && !constants_.count(std::string(word)) && !macroLike(word))
                return false;
        }
        return true;
    }

    // Tokens [first, last) have the same value in every thread of the block: besides constants, they
    // may read scalar parameters the kernel never assigns, uniform loop variables and `loopVariable`.
    bool uniform(std::size_t first, std::size_t last, std::string_view loopVariable) const {
        for (std::size_t i = first; i < last; ++i) {
            if (k_.is(i, "[") || k_.is(i, "->")) return false;
            if (!k_.identifier(i) || k_.is(i - 1, ".")) continue;
            const std::string_view word = k_.text(i);
            if (k_.is(i + 1, "(") && word != "sizeof") return false;
            const std::string w(word);
            if (launchConstant(word) || constants_.count(w) || macroLike(word) || uniformNames_.count(w) ||
                uniformVariables_.count(w) ||
                (scalarParameters_.count(w) && !assigned(word, bodyFirst_, bodyLast_)) ||
                word == loopVariable)
                continue;
            return false;
        }
        return true;
    }

    // `&name` somewhere in the kernel (a unary or binary &: either way, it stays in the frame).
    bool addressTaken(std::string_view name) const {
        for (std::size_t i = bodyFirst_; i < bodyLast_; ++i)
            if (named(i, name) && k_.is(i - 1, "&")) return true;
        return false;
    }

    // The variable at token i is written there (or its address taken, or it is passed whole to a
    // function that takes a reference). Not in a binary and: `(first + i) & k` left a bitonic sort's
    // loops over k and j per thread, with a flag and a frame slot for each thread at every step.
    bool writes(std::size_t i) const {
        if (isAssignment(k_.text(i + 1)) || isOneOf(k_.text(i + 1), {"++", "--"}) ||
            (i > 0 && isOneOf(k_.text(i - 1), {"++", "--"})) ||
            (i > 0 && k_.is(i - 1, "&") && !bitwiseAnd(k_, i - 1, bodyFirst_)))
            return true;
        return k_.passedWholeTo(i, bodyFirst_, referenceTakers_);
    }

    // `name` is written (or its address taken) somewhere in tokens [first, last).
    bool assigned(std::string_view name, std::size_t first, std::size_t last) const {
        for (std::size_t i = first; i < last; ++i)
            if (named(i, name) && writes(i)) return true;
        return false;
    }

    // A for loop that every thread runs the same number of times: `T v = uniform; uniform(v); v changes
    // uniformly`, v never written in the body. It runs once for the block, its regions inside.
    bool uniformLoop(const Stmt& s, const std::optional<Declaration>& init) const {
        std::string_view variable;
        if (s.initFirst < s.initLast) {
            if (!init || init->declarators.size() != 1) return false;
            const Declarator& d = init->declarators[0];
            if (d.initFirst == d.initLast || d.dimsFirst < d.dimsLast ||
                !uniform(d.initFirst, d.initLast, {}))
                return false;
            for (std::size_t i = init->specFirst; i < init->specLast; ++i)
                if (isOneOf(k_.text(i), {"static", "auto"})) return false;
            variable = k_.text(d.name);
            if (assigned(variable, s.children[0].first, s.children[0].last)) return false;
        }
        return uniform(s.condFirst, s.condLast, variable) && uniform(s.incFirst, s.incLast, variable);
    }

    // Reads `specifiers declarator [= init], ...` or says it is not a declaration.
    std::optional<Declaration> declarationAt(std::size_t first, std::size_t last) const {
        Declaration d;
        d.specFirst = first;
        std::size_t i = first;
        const auto nameHere = [&](std::size_t j) {
            return k_.identifier(j) && j > first &&
                   (j + 1 == last || k_.is(j + 1, "=") || k_.is(j + 1, ",") || k_.is(j + 1, "["));
        };
        if (isOneOf(k_.text(first), {"return", "break", "continue", "goto", "delete", "throw", "new",
                                     "sizeof", "this", "true", "false", "nullptr"}))
            return std::nullopt;
        while (i < last && !nameHere(i)) {
            const std::string_view t = k_.text(i);
            if (k_.identifier(i) || t == "::") {
                ++i;
            } else if (t == "<" && i > first) {
                int depth = 0;
                for (; i < last; ++i) {
                    const std::string_view u = k_.text(i);
                    if (u == "<") ++depth;
                    if (u == ">") --depth;
                    if (u == ">>") depth -= 2;
                    if (u == ">>>") depth -= 3;
                    if (u == ";" || u == "{" || u == "}") return std::nullopt;
                    if (depth <= 0) break;
                }
                ++i;
            } else if (t == "*" || t == "&" || t == "&&") {
                break;
            } else {
                return std::nullopt;
            }
        }
        d.specLast = i;
        if (d.specLast == d.specFirst) return std::nullopt;
        for (;;) {
            Declarator one;
            one.typeFirst = i;
            while (i < last &&
                   (isOneOf(k_.text(i), {"*", "const", "volatile", "__restrict__", "__restrict", "&", "&&"})))
                ++i;
            one.typeLast = i;
            if (!k_.identifier(i)) return std::nullopt;
            for (std::size_t j = one.typeFirst; j < one.typeLast; ++j)
                if (k_.is(j, "&") || k_.is(j, "&&")) throw NotSplit{"a reference lives across a barrier"};
            one.name = i++;
            one.dimsFirst = i;
            while (k_.is(i, "[") && i < last)
                i = k_.closing(i) + 1;
            one.dimsLast = i;
            if (i < last && k_.is(i, "=")) {
                one.initFirst = ++i;
                int depth = 0;
                for (; i < last; ++i) {
                    const std::string_view u = k_.text(i);
                    if (u == "(" || u == "[" || u == "{") ++depth;
                    if (u == ")" || u == "]" || u == "}") --depth;
                    if (u == "," && depth == 0) break;
                }
                one.initLast = i;
            }
            d.declarators.push_back(one);
            if (i >= last) return d;
            if (!k_.is(i, ",")) return std::nullopt;
            ++i;
        }
    }

    // Source text of tokens [first, last) as written, without substitutions (types).
    std::string plain(std::size_t first, std::size_t last) const {
        if (first >= last) return {};
        return std::string(
            source_.substr(k_.token(first).offset, k_.token(last - 1).end() - k_.token(first).offset));
    }

    // The user's tokens [first, last) under #line, with threadIdx a local, frame variables indexed by
    // thread, and, in a region, return leaving the thread's region.
    std::string chunk(std::size_t first, std::size_t last, bool inRegion) {
        if (first >= last) return {};
        std::string out = lineDirective(k_.token(first).offset);
        for (std::size_t i = first; i < last; ++i) {
            if (i > first)
                out.append(source_.substr(k_.token(i - 1).end(), k_.token(i).offset - k_.token(i - 1).end()));
            const std::string_view t = k_.text(i);
            const bool member = i > 0 && (k_.is(i - 1, ".") || k_.is(i - 1, "->") || k_.is(i - 1, "::"));
            if (guard_ && i == guard_->ifAt) { // the row's loop stops before the threads it sends home
                out += guard_->assumptions;
                if (guard_->wraps) {
                    i = k_.closing(i + 1); // `if (C)` goes, S stays
                } else {
                    i = guard_->last - 1;
                }
                continue;
            }
            if (atomicCalls_.count(i)) {
                out += "::kernelpad::warpAtomicAdd";
                continue;
            }
            if (const auto c = computed_.find(i); c != computed_.end()) {
                out += c->second.second;
                i = c->second.first - 1;
                continue;
            }
            if (k_.identifier(i) && !member && (t == "blockIdx" || t == "blockDim" || t == "gridDim")) {
                // The block's built-ins as locals too: read from thread-local storage, the compiler had to
                // read them again after every store through a pointer, and would not vectorise the loop.
                out += t == "blockIdx" ? "__kp_bidx" : t == "blockDim" ? "__kp_block" : "__kp_gdim";
                continue;
            }
            if (k_.identifier(i) && !member && t == "threadIdx") {
                out += "__kp_tid";
            } else if (const auto a = aliases_.find(std::string(t));
                       k_.identifier(i) && !member && a != aliases_.end()) {
                out += "static_cast<" + a->second.first + ">(__kp_tid." + a->second.second + ")";
            } else if (const auto f = frameNames_.find(std::string(t));
                       k_.identifier(i) && !member && f != frameNames_.end() && i >= f->second.from &&
                       i < f->second.to) {
                out += promoted_.count(f->first) ? std::string(t) : "__kp_f." + std::string(t) + "[__kp_t]";
            } else if (inRegion && t == "return") {
                if (!k_.is(i + 1, ";")) throw NotSplit{"a return with a value"};
                out += "goto __kp_return" + std::to_string(region_);
                regionReturns_ = true;
            } else {
                out += t;
            }
        }
        return out;
    }

    std::string lineDirective(std::size_t offset) const {
        const std::size_t lineStart = source_.rfind('\n', offset == 0 ? 0 : offset - 1);
        const std::size_t column = lineStart == std::string_view::npos ? offset : offset - lineStart - 1;
        const auto line =
            std::count(source_.begin(), source_.begin() + static_cast<std::ptrdiff_t>(offset), '\n') + 1;
        return "\n#line " + std::to_string(line) + " \"" + options_.fileName + "\"\n" +
               std::string(column, ' ');
    }

    // The statement [first, last) as region code: a frame declaration becomes assignments.
    std::string regionStatement(std::size_t first, std::size_t last) {
        const auto found = declarations_.find(first);
        if (found == declarations_.end()) return chunk(first, last, true);
        std::string out;
        for (const Declarator& d : found->second.declarators)
            if (d.initFirst < d.initLast)
                out += chunk(d.name, d.name + 1, true) + " = " + chunk(d.initFirst, d.initLast, true) + ";";
        return out;
    }

    // A row's bisection for __kp_end, the first thread __kp_sends home (a prefix of the row stays).
    static constexpr const char* rowEnd =
        "unsigned __kp_end = __kp_block.x;\n"
        "if (__kp_sends(0)) __kp_end = 0;\n"
        "else if (__kp_sends(__kp_block.x - 1))\n"
        "for (unsigned __kp_low = 1, __kp_high = __kp_block.x - 1;;) {\n"
        "if (__kp_low >= __kp_high) { __kp_end = __kp_low; break; }\n"
        "const unsigned __kp_mid = __kp_low + (__kp_high - __kp_low) / 2;\n"
        "if (__kp_sends(__kp_mid)) __kp_high = __kp_mid; else __kp_low = __kp_mid + 1;\n}\n";

    // The start of a thread's turn in a thread loop: threads returned or outside `mask` skip it, __kp_tid;
    // with `stores`, the index where the built-ins read it (helpers, bounds reports, warp operations); and
    // where a deferred sum folds into lanes, the thread's lane (keepLaneStores drops it from the loops that
    // call no such sum).
    void threadStart(const std::string& mask, bool stores) {
        if (alive_) out_ += "if (!__kp_alive[__kp_t]) continue;\n";
        if (!mask.empty()) out_ += "if (!" + mask + "[__kp_t]) continue;\n";
        out_ += "[[maybe_unused]] const uint3 __kp_tid{__kp_x, __kp_y, __kp_z};\n";
        if (stores && options_.threadIndexInTls) out_ += "kernelpad_block_state.threadIndex = __kp_tid;\n";
        if (stores && warps_) out_ += "kernelpad_block_state.warpThread = static_cast<unsigned>(__kp_t);\n";
        if (options_.deferredSums) out_ += kLaneStore; // kept where the loop adds (keepLaneStores)
    }

    // for every thread of the block still running (and in `mask`; with x in [xFrom, xTo) when given):
    // `inner`.
    // `row`, code run at the start of each row (y and z fixed), may compute xTo.
    // `simd`: the row's loop is `omp simd`, its threads independent (no barrier, no warp operation, no
    // atomic result between them: the vectoriser declines what it cannot do).
    void threadLoop(const std::string& mask, const std::function<void()>& inner,
                    const std::string& xFrom = {}, const std::string& xTo = {}, const std::string& row = {},
                    bool simd = false) {
        if (xFrom.empty()) {
            out_ += "\nfor (unsigned __kp_z = 0, __kp_t = 0; __kp_z < __kp_block.z; ++__kp_z)\n"
                    "for (unsigned __kp_y = 0; __kp_y < __kp_block.y; ++__kp_y)\n"
                    "for (unsigned __kp_x = 0; __kp_x < __kp_block.x; ++__kp_x, ++__kp_t) {\n";
            threadTurn(mask, inner);
            return;
        }
        out_ += "\nfor (unsigned __kp_z = 0; __kp_z < __kp_block.z; ++__kp_z)\n"
                "for (unsigned __kp_y = 0; __kp_y < __kp_block.y; ++__kp_y) {" +
                row;
        rowLoop(mask, inner, xFrom, xTo, simd);
        out_ += "}\n"; // the row
    }

    // The loop over a row's threads with x in [xFrom, xTo) (y and z fixed), each running `inner`.
    // `counted`: x counts up as a signed int __kp_xi, for indices written as the row's first plus __kp_xi
    // (insideOutRows()).
    void rowLoop(const std::string& mask, const std::function<void()>& inner, const std::string& xFrom,
                 const std::string& xTo, bool simd, bool counted = false) {
        out_ +=
            std::string(simd ? "\n_Pragma(\"omp simd\")\n" : "") +
            (counted ? "for (int __kp_xi = static_cast<int>(" + xFrom + "); __kp_xi < static_cast<int>(" +
                           xTo + "); ++__kp_xi) {\nconst unsigned __kp_x = static_cast<unsigned>(__kp_xi);\n"
                     : "for (unsigned __kp_x = " + xFrom + "; __kp_x < " + xTo + "; ++__kp_x) {\n") +
            "const unsigned __kp_t = __kp_x + __kp_block.x * (__kp_y + __kp_block.y * __kp_z);\n";
        threadTurn(mask, inner);
    }

    // A thread's turn in a thread loop, up to the loop's closing brace: `inner` is a region of its own,
    // whose return ends the thread's turn.
    void threadTurn(const std::string& mask, const std::function<void()>& inner) {
        threadStart(mask, true);
        ++region_;
        regionReturns_ = false;
        out_ += "{";
        inner();
        out_ += "\n}\n";
        if (regionReturns_)
            out_ += "continue;\n__kp_return" + std::to_string(region_) + ":;\n" +
                    (alive_ ? "__kp_alive[__kp_t] = 0;\n" : "");
        out_ += "}\n";
    }

    // The tokens at i name threadIdx.x (directly or through an alias); returns how many tokens that took.
    std::size_t threadX(std::size_t i) const {
        if (k_.is(i, "threadIdx") && k_.is(i + 1, ".") && k_.is(i + 2, "x")) return 3;
        const auto alias = aliases_.find(std::string(k_.text(i)));
        return alias != aliases_.end() && alias->second.second == "x" && named(i, k_.text(i)) ? 1 : 0;
    }

    // A leading guard. A kernel without barriers or warp operations that begins with declarations of
    // indices and then `if (i >= n) return;` (or ends as `if (i < n) { ... }`, all after the declarations
    // under the if) runs the threads of a row of the block (threadIdx.x counting up, y and z fixed) in
    // order: once the guard sends one thread home, it sends every later thread of the row home too when
    // its condition can only turn from false to true as threadIdx.x grows. Each row's loop then ends
    // before that thread, found by bisection, and runs the body without the guard, instead of visiting
    // every thread (doublify_guarded, a block of 1,024 threads over 16 elements, visited 1,024). Before
    // the guard nothing but pure declarations runs, so a thread left out has nothing to do. The condition
    // qualifies when each index it compares is a sum of products of non-negative quantities that threadIdx.x
    // can only raise (threadIdx.x itself; the other built-ins and integer literals, the same along the row),
    // compared with a value the same along the row (literals, built-ins but threadIdx.x, parameters the
    // kernel never assigns, macros, such declarations), and clauses of either kind are joined by || (by &&
    // for the if that wraps). The sums are exact only while they stay below 2^31 (then no conversion wraps
    // them): the block checks, before its loop, the largest value each can take, and visits every thread when
    // one could pass it.
    // Across rows: where the condition can also only turn one way as threadIdx.y grows (x and z fixed), a row
    // whose first thread goes home is followed by rows whose every thread does (doublify_guarded's 31 rows
    // past its 16 elements), and the loop over y stops there. That holds when each clause compares a sum of
    // products (non-decreasing in every index) with a value the same for the whole block (no threadIdx, no
    // declaration that reads it), or is such a value itself; the sums' largest values are checked as above.
    struct Guard {
        std::size_t ifAt = 0;            // the if's token
        std::size_t last = 0;            // one past the if statement's last token
        bool wraps = false;              // `if (C) S` ends the kernel; else `if (C) return;`
        std::vector<std::string> bounds; // the largest value of each index the condition compares
        std::string assumptions;         // what the checked bounds promise of the indices declared
        std::optional<std::vector<std::string>> acrossRows; // the sums' bounds, where the rows end too
    };

    // How an expression behaves along a row.
    struct RowValue {
        enum class Kind { Same, Rising, Other } kind = Kind::Other; // Rising: non-decreasing in threadIdx.x
        std::string bound; // its largest value, as a double expression ("" unknown; always known if Rising)
        bool uniform = false; // a declaration's value is the same for the whole block (reads no threadIdx)
        bool unit = false;    // Rising by exactly one a thread: its value at x is its value at 0, plus x
    };

    // Tokens [first, last) name an integer type of 32 bits or more (`size_t`, `unsigned long long`, ...).
    bool integerType(std::size_t first, std::size_t last) const {
        if (first >= last) return false;
        for (std::size_t i = first; i < last; ++i)
            if (!isOneOf(k_.text(i), {"int", "unsigned", "long", "signed", "size_t", "std", "::", "const"}))
                return false;
        return true;
    }

    // Token i is a decimal integer literal (its suffix u, l, ul, ll, ...).
    bool integerLiteral(std::size_t i) const {
        const std::string_view t = k_.text(i);
        const std::size_t digits = t.find_first_not_of("0123456789");
        return k_.token(i).kind == TokenKind::Number && digits != 0 &&
               (digits == std::string_view::npos ||
                t.find_first_not_of("uUlL", digits) == std::string_view::npos);
    }

    static std::string builtinBound(std::string_view builtin, std::string_view member) {
        const std::string m(member);
        if (builtin == "threadIdx" || builtin == "blockDim") return "double(blockDim." + m + ")";
        return "double(gridDim." + m + ")"; // blockIdx, gridDim
    }

    // [first, last) without parentheses around the whole of it.
    std::pair<std::size_t, std::size_t> unwrapped(std::size_t first, std::size_t last) const {
        while (last - first >= 2 && k_.is(first, "(") && k_.closing(first) == last - 1) {
            ++first;
            --last;
        }
        return {first, last};
    }

    // The positions of `op` in [first, last) outside parentheses and brackets.
    std::vector<std::size_t> outside(std::size_t first, std::size_t last, std::string_view op) const {
        std::vector<std::size_t> at;
        int depth = 0;
        for (std::size_t i = first; i < last; ++i) {
            const std::string_view t = k_.text(i);
            if (t == "(" || t == "[") ++depth;
            if (t == ")" || t == "]") --depth;
            if (depth == 0 && t == op) at.push_back(i);
        }
        return at;
    }

    // Tokens [first, last) are the same for every thread of a row and read no memory.
    bool sameAlongRow(std::size_t first, std::size_t last) const {
        for (std::size_t i = first; i < last; ++i) {
            const std::string_view t = k_.text(i);
            if (isOneOf(t, {"[", "->", "++", "--", "{", "?", ":"}) || isAssignment(t)) return false;
            if (!k_.identifier(i) || k_.is(i - 1, ".")) continue;
            if (k_.is(i + 1, "(") && !isOneOf(t, {"int", "unsigned", "long", "float", "double", "sizeof"}))
                return false; // a call
            const std::string w(t);
            if (isOneOf(t, {"static_cast", "int", "unsigned", "long", "signed", "size_t", "std"}))
                continue; // a cast
            if (t == "threadIdx") {
                if (!k_.is(i + 1, ".") || !isOneOf(k_.text(i + 2), {"y", "z"})) return false;
            } else if (const auto local = guardLocals_.find(w); local != guardLocals_.end()) {
                if (local->second.kind != RowValue::Kind::Same) return false;
            } else if (!(launchConstant(t) || constants_.count(w) || macroLike(t) ||
                         isOneOf(t, {"true", "false"}) ||
                         (scalarParameters_.count(w) && !assigned(t, bodyFirst_, bodyLast_)))) {
                return false;
            }
        }
        return true;
    }

    // [first, last) as a sum of products of built-ins, integer literals and such declarations: how it
    // moves along a row, and its largest value. Other: anything else (a subtraction, a division, a
    // parameter: no bound).
    RowValue sumOfProducts(std::size_t first, std::size_t last) const {
        std::tie(first, last) = unwrapped(first, last);
        if (first >= last) return {};
        const auto pieces = [&](std::size_t from, std::size_t to, std::string_view op) {
            std::vector<std::pair<std::size_t, std::size_t>> parts;
            for (const std::size_t at : outside(from, to, op)) {
                parts.emplace_back(from, at);
                from = at + 1;
            }
            parts.emplace_back(from, to);
            return parts;
        };
        RowValue sum{RowValue::Kind::Same, {}};
        int risingFactors = 0, unitTerms = 0;
        for (const auto& [termFirst, termLast] : pieces(first, last, "+")) {
            std::string product;
            const auto factors = pieces(termFirst, termLast, "*");
            for (auto [a, b] : factors) {
                RowValue factor;
                // `(size_t)blockIdx.x`, `static_cast<long long>(i)`: a cast to an integer type of 32 bits or
                // more changes no value below 2^31, the bound every exact sum is checked against.
                for (bool cast = true; cast && a < b;) {
                    cast = false;
                    if (k_.is(a, "(") && k_.closing(a) + 1 < b && integerType(a + 1, k_.closing(a))) {
                        a = k_.closing(a) + 1;
                        cast = true;
                    } else if (k_.is(a, "static_cast") && k_.is(a + 1, "<")) {
                        std::size_t close = a + 2;
                        while (close < b && !k_.is(close, ">"))
                            ++close;
                        if (close + 1 < b && integerType(a + 2, close) && k_.is(close + 1, "(") &&
                            k_.closing(close + 1) == b - 1) {
                            a = close + 1; // the parenthesised operand, read below
                            cast = true;
                        }
                    }
                }
                if (b - a == 3 && k_.is(a + 1, ".") && named(a, k_.text(a)) &&
                    isOneOf(k_.text(a), {"threadIdx", "blockIdx", "blockDim", "gridDim"}) &&
                    isOneOf(k_.text(a + 2), {"x", "y", "z"})) {
                    const bool rising = k_.is(a, "threadIdx") && k_.is(a + 2, "x");
                    factor = {rising ? RowValue::Kind::Rising : RowValue::Kind::Same,
                              builtinBound(k_.text(a), k_.text(a + 2)), false, rising};
                } else if (b - a == 1 && integerLiteral(a)) {
                    factor = {RowValue::Kind::Same, "double(" + std::string(k_.text(a)) + ")"};
                } else if (const auto local = b - a == 1 && named(a, k_.text(a))
                                                  ? guardLocals_.find(std::string(k_.text(a)))
                                                  : guardLocals_.end();
                           local != guardLocals_.end()) {
                    factor = local->second;
                } else if (k_.is(a, "(") && k_.closing(a) == b - 1) {
                    factor = sumOfProducts(a, b);
                }
                if (factor.kind == RowValue::Kind::Other || factor.bound.empty()) return {};
                if (factor.kind == RowValue::Kind::Rising) {
                    sum.kind = RowValue::Kind::Rising;
                    ++risingFactors;
                    if (factors.size() == 1 && factor.unit) ++unitTerms;
                }
                product += (product.empty() ? "" : " * ") + factor.bound;
            }
            sum.bound += (sum.bound.empty() ? "(" : " + ") + product;
        }
        sum.bound += ")";
        sum.unit = risingFactors == 1 && unitTerms == 1; // one term that is threadIdx.x, or such a value
        return sum;
    }

    RowValue rowValue(std::size_t first, std::size_t last) const {
        RowValue v = sumOfProducts(first, last);
        if (v.kind == RowValue::Kind::Other && sameAlongRow(first, last)) v.kind = RowValue::Kind::Same;
        return v;
    }

    // The position of the one comparison (<, <=, >, >=) outside parentheses in [first, last), or `last`
    // where there is none or more than one.
    std::size_t oneComparison(std::size_t first, std::size_t last) const {
        std::size_t op = last;
        for (const std::string_view c : {"<", "<=", ">", ">="})
            for (const std::size_t at : outside(first, last, c)) {
                if (op != last) return last; // two comparisons
                op = at;
            }
        return op;
    }

    // The condition [first, last) can only turn one way (from false to true where `up`) as an index grows:
    // clauses that are `same` throughout, or one comparison that `compares` accepts (given its operator's
    // position and whether it is > or >=), joined by || (by && where not `up`).
    template <typename Same, typename Compares>
    bool turnsOneWay(std::size_t first, std::size_t last, bool up, const Same& same,
                     const Compares& compares) const {
        std::tie(first, last) = unwrapped(first, last);
        if (first >= last) return false;
        if (same(first, last)) return true;
        if (const auto joins = outside(first, last, up ? "||" : "&&"); !joins.empty()) {
            std::size_t from = first;
            for (const std::size_t at : joins) {
                if (!turnsOneWay(from, at, up, same, compares)) return false;
                from = at + 1;
            }
            return turnsOneWay(from, last, up, same, compares);
        }
        const std::size_t op = oneComparison(first, last);
        if (op == last || !bindsTighter(first, op) || !bindsTighter(op + 1, last)) return false;
        return compares(first, op, last, isOneOf(k_.text(op), {">", ">="}));
    }

    // The condition [first, last) can only turn from false to true along a row (`up`), or only from true
    // to false; the largest values of the indices it compares go to `bounds`.
    bool monotone(std::size_t first, std::size_t last, bool up, std::vector<std::string>& bounds) const {
        const auto same = [&](std::size_t a, std::size_t b) { return sameAlongRow(a, b); };
        return turnsOneWay(first, last, up, same,
                           [&](std::size_t a, std::size_t op, std::size_t b, bool greater) {
                               const RowValue left = rowValue(a, op), right = rowValue(op + 1, b);
                               using K = RowValue::Kind;
                               // Rising > same: false, then true (up); rising < same: true, then false.
                               if (left.kind == K::Rising && right.kind == K::Same && greater == up) {
                                   bounds.push_back(left.bound);
                                   return true;
                               }
                               if (right.kind == K::Rising && left.kind == K::Same && greater != up) {
                                   bounds.push_back(right.bound);
                                   return true;
                               }
                               return false;
                           });
    }

    // Tokens [first, last) are the same for every thread of the block (the same along a row, and no
    // threadIdx, directly or through a declaration).
    bool sameInBlock(std::size_t first, std::size_t last) const {
        if (!sameAlongRow(first, last)) return false;
        for (std::size_t i = first; i < last; ++i) {
            if (!k_.identifier(i) || k_.is(i - 1, ".")) continue;
            if (k_.is(i, "threadIdx")) return false;
            if (const auto local = guardLocals_.find(std::string(k_.text(i)));
                local != guardLocals_.end() && named(i, local->first) && !local->second.uniform)
                return false;
        }
        return true;
    }

    // The condition [first, last) can only turn from false to true as threadIdx.y or z grows, the other
    // indices fixed (`up`), or only from true to false; the largest values of the sums it compares go to
    // `bounds` (a sum is non-decreasing only while it does not wrap).
    bool monotoneAcrossRows(std::size_t first, std::size_t last, bool up,
                            std::vector<std::string>& bounds) const {
        const auto same = [&](std::size_t a, std::size_t b) { return sameInBlock(a, b); };
        return turnsOneWay(first, last, up, same,
                           [&](std::size_t a, std::size_t op, std::size_t b, bool greater) {
                               // A sum of products > the same for the block: false, then true (up).
                               if (const RowValue left = sumOfProducts(a, op);
                                   !left.bound.empty() && sameInBlock(op + 1, b) && greater == up) {
                                   bounds.push_back(left.bound);
                                   return true;
                               }
                               if (const RowValue right = sumOfProducts(op + 1, b);
                                   !right.bound.empty() && sameInBlock(a, op) && greater != up) {
                                   bounds.push_back(right.bound);
                                   return true;
                               }
                               return false;
                           });
    }

    // The declaration statement s, before the guard: its variables are the same along a row or rise
    // (integers of 32 bits or more), and initialising them does nothing else.
    bool guardDeclaration(const Stmt& s) {
        const auto d = declarationAt(s.first, s.last - 1);
        if (!d) return false;
        bool integer = true;
        for (std::size_t i = d->specFirst; i < d->specLast; ++i) {
            if (isOneOf(k_.text(i), {"float", "double", "bool"}))
                integer = false;
            else if (!isOneOf(k_.text(i), {"const", "int", "unsigned", "long", "signed", "size_t", "auto"}))
                return false;
        }
        for (const Declarator& one : d->declarators) {
            if (one.typeFirst < one.typeLast || one.dimsFirst < one.dimsLast || one.initFirst == one.initLast)
                return false;
            RowValue v = rowValue(one.initFirst, one.initLast);
            if (v.kind == RowValue::Kind::Other || (v.kind == RowValue::Kind::Rising && !integer))
                return false;
            if (!integer) v.bound.clear();
            v.uniform = sameInBlock(one.initFirst, one.initLast);
            guardLocals_[std::string(k_.text(one.name))] = v;
            guardInits_[std::string(k_.text(one.name))] = {one.initFirst, one.initLast};
        }
        return true;
    }

    // A declaration of the thread's own integer from its index, the launch's constants and the locals
    // declared before it alone, no memory read (`const int lane = threadIdx.x % 32;`): before a whole
    // kernel's grid-stride loop, each pass declares it afresh for each thread, as it does a guard's locals (a
    // value of no known shape there).
    bool threadDeclaration(const Stmt& s) {
        const auto d = declarationAt(s.first, s.last - 1);
        if (!d) return false;
        for (std::size_t i = d->specFirst; i < d->specLast; ++i)
            if (!isOneOf(k_.text(i), {"const", "int", "unsigned", "long", "signed", "size_t"})) return false;
        for (const Declarator& one : d->declarators) {
            if (one.typeFirst < one.typeLast || one.dimsFirst < one.dimsLast || one.initFirst == one.initLast)
                return false;
            for (std::size_t i = one.initFirst; i < one.initLast; ++i) {
                if (k_.is(i, "[") || k_.is(i, "->")) return false;
                if (!k_.identifier(i) || k_.is(i - 1, ".")) continue;
                if (!(k_.is(i, "threadIdx") && k_.is(i + 1, ".")) && !uniform(i, i + 1, {}) &&
                    !guardLocals_.count(std::string(k_.text(i)))) // declared before it, so declared again too
                    return false;
            }
            guardLocals_[std::string(k_.text(one.name))] = RowValue{};
            guardInits_[std::string(k_.text(one.name))] = {one.initFirst, one.initLast};
        }
        return true;
    }

    std::optional<Guard> leadingGuard(const Stmt& root) {
        guardLocals_.clear();
        guardInits_.clear();
        for (std::size_t c = 0; c < root.children.size(); ++c) {
            const Stmt& s = root.children[c];
            if (s.kind == Stmt::Kind::Empty) continue;
            if (s.kind == Stmt::Kind::Simple) {
                if (!guardDeclaration(s)) return std::nullopt;
                continue;
            }
            if (s.kind != Stmt::Kind::If || s.children.size() != 1) return std::nullopt;
            const Stmt* then = &s.children[0];
            if (then->kind == Stmt::Kind::Block && then->children.size() == 1) then = &then->children[0];
            const bool returns = then->kind == Stmt::Kind::Simple && k_.is(then->first, "return") &&
                                 k_.is(then->first + 1, ";");
            Guard g{s.first, s.last, !returns, {}, {}, {}};
            if (!(returns
                      ? monotone(s.condFirst, s.condLast, true, g.bounds)
                      : c + 1 == root.children.size() && monotone(s.condFirst, s.condLast, false, g.bounds)))
                return std::nullopt;
            // An integer index the condition compares (alone: its sum of one product is its own bound in
            // parentheses), whose largest value the block checks: it is exact where the rows stop early.
            for (const auto& [name, value] : guardLocals_)
                if (value.kind == RowValue::Kind::Rising && !value.bound.empty() &&
                    std::find(g.bounds.begin(), g.bounds.end(), "(" + value.bound + ")") != g.bounds.end())
                    g.assumptions += "::kernelpad::assumeExactIndex(" + name + ");";
            if (std::vector<std::string> sums; monotoneAcrossRows(s.condFirst, s.condLast, returns, sums))
                g.acrossRows = std::move(sums);
            return g;
        }
        return std::nullopt;
    }

    // A loop after a leading guard that every thread runs alike, turned inside out: matmul's
    // `for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];` runs as one loop over k around
    // each row's threads, so the row's threads are the inner loop, which the compiler vectorises (lane x
    // adds thread x's product at step k). Run as written, each thread's k loop is a chain of scalar
    // multiply-adds that GCC does not vectorise across the row (its outer-loop vectoriser needs a constant
    // stride), and matmul_naive took three times a plain loop's time per core. Each thread still runs its
    // own steps in order, only interleaved with the row's other threads, as any interleaving of a kernel
    // without barriers is one a GPU may run. It applies when the statements after the guard are
    // declarations, then the loop (its start, test and step the same for every thread: literals, launch
    // built-ins, parameters the kernel never changes, and none of those declarations; not constants alone),
    // then anything. The loop leaves its body only at its end (no return, goto, break or continue in it),
    // holds no loop, and writes none of the guard's indices. The declarations run once, before the loop; a
    // variable the loop writes, or one whose value is not plain index arithmetic, is kept for each thread of
    // the row in an array between the three parts; the others are recomputed in each part, so that an index
    // such as `col` stays one the compiler sees rise by one along the row (loaded from an array, `b[k * n +
    // col]` would be a gather).
    struct Carried {
        std::string name, type;
    };
    struct InsideOut {
        std::vector<const Stmt*> before; // declarations after the guard
        const Stmt* loop = nullptr;
        std::string variable; // the loop's, or "loop" where its header declares none
        std::vector<const Stmt*> after;
        std::vector<Carried> carried;
        std::string recomputed; // the declarations of the others, as code for each part
    };

    std::optional<InsideOut> insideOut(const Stmt& root, const Guard& guard) {
        const auto at = std::find_if(root.children.begin(), root.children.end(),
                                     [&](const Stmt& c) { return c.first == guard.ifAt; });
        if (at == root.children.end()) return std::nullopt;
        std::vector<const Stmt*> list;
        if (guard.wraps) {
            const Stmt& then = at->children[0];
            if (then.kind == Stmt::Kind::Block)
                for (const Stmt& c : then.children)
                    list.push_back(&c);
            else
                list.push_back(&then);
        } else {
            for (auto c = at + 1; c != root.children.end(); ++c)
                list.push_back(&*c);
        }
        InsideOut shape;
        std::size_t j = 0;
        std::vector<Declaration> declarations;
        for (; j < list.size() && list[j]->kind != Stmt::Kind::For; ++j) {
            const Stmt& c = *list[j];
            if (c.kind == Stmt::Kind::Empty) continue;
            if (c.kind != Stmt::Kind::Simple) return std::nullopt;
            auto d = declarationAt(c.first, c.last - 1);
            if (!d) return std::nullopt;
            for (std::size_t i = d->specFirst; i < d->specLast; ++i)
                if (isOneOf(k_.text(i), {"static", "extern", "__shared__", "auto", "typedef", "using"}))
                    return std::nullopt;
            shape.before.push_back(&c);
            declarations.push_back(std::move(*d));
        }
        if (j == list.size()) return std::nullopt;
        const Stmt& loop = *list[j];
        const auto init =
            loop.initFirst < loop.initLast ? declarationAt(loop.initFirst, loop.initLast) : std::nullopt;
        if (!uniformLoop(loop, init)) return std::nullopt;
        for (std::size_t i = loop.first; i < loop.last; ++i)
            if (isOneOf(k_.text(i), {"return", "goto", "break", "continue", "co_return"}))
                return std::nullopt;
        // A loop in its body keeps the row's loop from vectorising, and then inside out only adds the
        // values kept between steps (a box filter's dy loop around its dx loop: 24.8 against 22.6 ms).
        for (std::size_t i = loop.children[0].first; i < loop.children[0].last; ++i)
            if (isOneOf(k_.text(i), {"for", "while", "do"})) return std::nullopt;
        shape.loop = &loop;
        shape.variable = init ? std::string(k_.text(init->declarators[0].name)) : "loop";
        for (++j; j < list.size(); ++j)
            shape.after.push_back(list[j]);
        std::set<std::string> declared;
        for (const auto& [name, value] : guardLocals_) {
            if (assigned(name, loop.first, loop.last)) return std::nullopt;
            declared.insert(name);
        }
        for (const Declaration& d : declarations)
            for (const Declarator& one : d.declarators) {
                const std::string name(k_.text(one.name));
                if (one.dimsFirst < one.dimsLast || addressTaken(name)) return std::nullopt;
                for (std::size_t i = one.typeFirst; i < one.typeLast; ++i)
                    if (k_.is(i, "&") || k_.is(i, "&&")) return std::nullopt;
                declared.insert(name);
                const bool plainIndex = one.initFirst < one.initLast &&
                                        rowValue(one.initFirst, one.initLast).kind != RowValue::Kind::Other;
                if (plainIndex && !assigned(name, loop.first, loop.last)) {
                    shape.recomputed += plain(d.specFirst, d.specLast) + " " +
                                        plain(one.typeFirst, one.typeLast) + " " + name + " = " +
                                        chunk(one.initFirst, one.initLast, true) + ";(void)" + name + ";";
                } else {
                    shape.carried.push_back({name, storageType(d, one)});
                }
            }
        // The loop's start, test and step are written outside the threads' loops: they name none of them.
        // A header of constants alone (literals, macros) stays as written: the compiler knows its steps,
        // unrolls a few (a filter's taps, which then vectorise across the row), and its strides are often
        // constants it vectorises across the row itself; inside out, separable_convolution's 17 taps, whose
        // clamped indices do not vectorise, took four times as long.
        bool constant = true;
        for (std::size_t i = loop.first; i < loop.children[0].first; ++i) {
            if (!k_.identifier(i) ||
                (i > 0 && (k_.is(i - 1, ".") || k_.is(i - 1, "->") || k_.is(i - 1, "::"))))
                continue;
            const std::string w(k_.text(i));
            if (declared.count(w)) return std::nullopt;
            if (!(macroLike(w) || constants_.count(w) || (init && w == k_.text(init->declarators[0].name)) ||
                  isOneOf(w, {"for", "int", "unsigned", "long", "short", "char", "signed", "size_t", "std",
                              "const", "sizeof"})))
                constant = false;
        }
        if (constant) return std::nullopt;
        return shape;
    }

    // The guarded rows of a kernel whose loop runs inside out (insideOut()): in each row, the guard's
    // indices and the declarations after it for each thread, then the loop around the row's threads,
    // then what follows the loop for each thread. `row` is the row's start (its end, __kp_end). A row of
    // fewer than four threads runs `body` as written: one or two lanes a step would not pay for the
    // values kept between the steps.
    void insideOutRows(const std::string& mask, const InsideOut& shape, const Stmt& root,
                       const std::string& row, const std::function<void()>& body) {
        // An index rising by one a thread (`col`) is the row's first plus a signed counter: GCC 13 kept
        // `blockIdx.x * blockDim.x + threadIdx.x` made int, with the assumption that it is exact, as a
        // branch in the loop and vectorised none of the parts (as for grid-stride passes).
        std::string indices, firsts, assumptions = guard_->assumptions;
        for (const Stmt& c : root.children) {
            if (c.first >= guard_->ifAt) break;
            const auto d = c.kind == Stmt::Kind::Simple ? declarationAt(c.first, c.last - 1) : std::nullopt;
            if (!d) continue;
            const std::string spec = plain(d->specFirst, d->specLast);
            for (const Declarator& one : d->declarators) {
                const std::string name(k_.text(one.name));
                const auto value = guardLocals_.find(name);
                if (value == guardLocals_.end()) continue;
                const std::string assumption = "::kernelpad::assumeExactIndex(" + name + ");";
                if (value->second.unit && guard_->assumptions.find(assumption) != std::string::npos) {
                    firsts += "const auto __kp_first_" + name +
                              " = [&] {\n[[maybe_unused]] const uint3 __kp_tid{0u, __kp_y, __kp_z};" +
                              chunk(root.first + 1, guard_->ifAt, true) + "\nreturn " + name + ";\n}();\n";
                    // Exact as a signed sum (the block checked its largest value, as the assumption says):
                    // nothing left to assume (GCC 12 kept that assumption as a branch).
                    if (const auto at = assumptions.find(assumption); at != std::string::npos)
                        assumptions.erase(at, assumption.size());
                    indices += "\n" + spec + " " + name + " = __kp_first_" + name +
                               " + static_cast<std::remove_const_t<" + spec + ">>(__kp_xi);";
                } else {
                    indices +=
                        "\n" + spec + " " + name + " = " + chunk(one.initFirst, one.initLast, true) + ";";
                }
                indices += "(void)" + name + ";";
            }
        }
        indices += assumptions;
        std::string restore = shape.recomputed;
        for (std::size_t c = 0; c < shape.carried.size(); ++c)
            restore += "\n" + shape.carried[c].type + " " + shape.carried[c].name + " = __kp_carried" +
                       std::to_string(c) + "[__kp_x];(void)" + shape.carried[c].name + ";";
        std::string keep;
        for (std::size_t c = 0; c < shape.carried.size(); ++c)
            keep += "\n__kp_carried" + std::to_string(c) + "[__kp_x] = " + shape.carried[c].name + ";";
        out_ += "\nfor (unsigned __kp_z = 0; __kp_z < __kp_block.z; ++__kp_z)\n"
                "for (unsigned __kp_y = 0; __kp_y < __kp_block.y; ++__kp_y) {" +
                row + "if (__kp_end < 4) {";
        rowLoop(mask, body, "0", "__kp_end", true);
        out_ += "continue;\n}\n" + firsts;
        for (std::size_t c = 0; c < shape.carried.size(); ++c)
            out_ += shape.carried[c].type + " __kp_carried" + std::to_string(c) + "[1024];\n";
        rowLoop(
            mask,
            [&] {
                out_ += indices;
                for (const Stmt* s : shape.before)
                    out_ += chunk(s->first, s->last, true);
                out_ += keep;
            },
            "0", "__kp_end", true, true);
        const Stmt& loop = *shape.loop;
        insideOut_ = shape.variable;
        // Each step's threads in two loops, halves of the row (in multiples of 8): with one, GCC took the
        // step's loop for an outer loop to vectorise, failed (its strides are not constants), and left the
        // row's loop inside it scalar; two loops in a row keep it from that.
        out_ += "const unsigned __kp_half = __kp_end / 2 & ~7u;\n" +
                chunk(loop.first, loop.children[0].first, true) + " {";
        const auto step = [&] {
            out_ += indices + restore + chunk(loop.children[0].first, loop.children[0].last, true) + keep;
        };
        rowLoop(mask, step, "0", "__kp_half", true, true);
        rowLoop(mask, step, "__kp_half", "__kp_end", true, true);
        out_ += "}\n";
        rowLoop(
            mask,
            [&] {
                out_ += indices + restore;
                for (const Stmt* s : shape.after)
                    out_ += chunk(s->first, s->last, true);
            },
            "0", "__kp_end", true, true);
        out_ += "}\n"; // the row
    }

    // Tokens [first, last) hold no operator, outside parentheses, that binds more loosely than a
    // comparison: then `x < first..last` is the whole condition (not `(x == 0) || flag`).
    bool bindsTighter(std::size_t first, std::size_t last) const {
        int depth = 0;
        for (std::size_t i = first; i < last; ++i) {
            const std::string_view t = k_.text(i);
            if (t == "static_cast" && k_.is(i + 1, "<")) { // its type's brackets compare nothing
                while (i + 1 < last && !k_.is(i + 1, ">"))
                    ++i;
                ++i;
                continue;
            }
            if (t == "(" || t == "[") ++depth;
            if (t == ")" || t == "]") --depth;
            if (depth == 0 &&
                isOneOf(t, {"&&", "||", "?", ":", ",", "&", "|", "^", "==", "!=", "<", ">", "<=", ">="}))
                return false;
        }
        return true;
    }

    // What a loop's threads do after each pass through its body: tokens of the increment (empty but for
    // a for) and of the condition (empty in `for (;;)`), and the loop's mask.
    struct LoopTail {
        std::size_t incFirst = 0, incLast = 0;
        std::size_t condFirst = 0, condLast = 0;
        std::string mask;           // its `any` is mask + "_any"
        const Stmt* body = nullptr; // the loop's body: a block whose last region may run them
        bool taken = false;         // it did
    };

    // The frame variables tokens [first, last) use (`promote`) and assign (`writeBack`), which a region holds
    // in locals while it runs.
    void frameUses(std::size_t first, std::size_t last, std::set<std::string>& promote,
                   std::set<std::string>& writeBack) const {
        for (std::size_t i = first; i < last; ++i) {
            const auto f = frameNames_.find(std::string(k_.text(i)));
            if (f == frameNames_.end() || !named(i, f->first) || i < f->second.from || i >= f->second.to ||
                f->second.stays)
                continue;
            promote.insert(f->first);
            if (!writeBack.count(f->first) && assigned(f->first, first, last)) writeBack.insert(f->first);
        }
    }

    // A grid-stride loop: `for (T v = first; v < limit; v += step) body` (or v <= limit), where `first`
    // is a sum of products that threadIdx.x raises (the thread's first element), and `limit` and `step` are
    // the same for the whole block and unchanged by the body, which never writes v, returns, breaks or
    // jumps out. A split region, or a kernel without barriers, runs it in passes (below).
    struct GridStride {
        std::size_t typeFirst = 0, typeLast = 0; // T
        std::size_t name = 0;                    // v
        std::size_t firstFirst = 0, firstLast = 0, limitFirst = 0, limitLast = 0, stepFirst = 0, stepLast = 0;
        bool inclusive = false; // v <= limit
        std::string bound;      // the largest value of `first`
        bool unit = false;      // `first` rises by exactly one a thread (RowValue::unit)
    };

    // `withLocals`: the declarations before it (guardLocals_, a kernel without barriers) may name its first
    // index, limit and step.
    std::optional<GridStride> gridStride(const Stmt& s, bool withLocals = false) {
        if (s.kind != Stmt::Kind::For || s.children.size() != 1 || s.initFirst >= s.initLast) return {};
        const auto init = declarationAt(s.initFirst, s.initLast);
        if (!init || init->declarators.size() != 1) return {};
        const Declarator& d = init->declarators[0];
        if (d.typeFirst < d.typeLast || d.dimsFirst < d.dimsLast || d.initFirst == d.initLast) return {};
        for (std::size_t i = init->specFirst; i < init->specLast; ++i)
            if (!isOneOf(k_.text(i), {"int", "unsigned", "long", "signed", "size_t"})) return {};
        const std::string_view v = k_.text(d.name);
        GridStride g{
            init->specFirst, init->specLast, d.name, d.initFirst, d.initLast, 0, 0, 0, 0, false, {}, false};
        if (!withLocals) {
            guardLocals_.clear();
            guardInits_.clear();
        }
        const RowValue first = sumOfProducts(d.initFirst, d.initLast);
        if (first.kind != RowValue::Kind::Rising || first.bound.empty()) return {};
        g.bound = first.bound;
        g.unit = first.unit;
        // The test: v < limit, v <= limit, limit > v or limit >= v.
        const std::size_t op = oneComparison(s.condFirst, s.condLast);
        if (op == s.condLast) return {};
        const bool less = isOneOf(k_.text(op), {"<", "<="});
        const bool vLeft = op == s.condFirst + 1 && named(s.condFirst, v);
        const bool vRight = op + 2 == s.condLast && named(op + 1, v);
        if (less ? !vLeft : !vRight) return {};
        g.inclusive = isOneOf(k_.text(op), {"<=", ">="});
        std::tie(g.limitFirst, g.limitLast) =
            less ? std::pair(op + 1, s.condLast) : std::pair(s.condFirst, op);
        // The step: v += step.
        if (!(named(s.incFirst, v) && k_.is(s.incFirst + 1, "+=") && s.incFirst + 2 < s.incLast)) return {};
        std::tie(g.stepFirst, g.stepLast) = std::pair(s.incFirst + 2, s.incLast);
        const Stmt& body = s.children[0];
        for (const auto& [a, b] :
             {std::pair(g.limitFirst, g.limitLast), std::pair(g.stepFirst, g.stepLast)}) {
            if (!(uniform(a, b, {}) || sameInBlock(a, b)) || !bindsTighter(a, b)) return {};
            for (std::size_t i = a; i < b; ++i)
                if (k_.identifier(i) && !k_.is(i - 1, ".") && assigned(k_.text(i), body.first, body.last))
                    return {};
        }
        for (std::size_t i = body.first; i < body.last; ++i) {
            if (isOneOf(k_.text(i),
                        {"return", "break", "goto", "throw", "co_return", "co_await", "co_yield"}))
                return {};
            if (named(i, v) && writes(i)) return {};
        }
        return g;
    }

    // Tokens [first, last) call an atomic (as written, or renamed for shared memory or deferred): a row's
    // loop with one is not `omp simd`, which would let the vectoriser read and write two lanes' addresses
    // at once (the same bin) where a shared-memory atomic is a plain read-modify-write.
    bool atomics(std::size_t first, std::size_t last) const {
        for (std::size_t i = first; i + 1 < last; ++i)
            if (k_.identifier(i) && k_.is(i + 1, "(") &&
                (k_.text(i).starts_with("atomic") || k_.text(i).starts_with("_kp_")))
                return true;
        return false;
    }

    // Tokens [first, last) call a function (not a cast, sizeof or a statement's parentheses).
    bool calls(std::size_t first, std::size_t last) const {
        for (std::size_t i = first; i + 1 < last; ++i)
            if (k_.identifier(i) && k_.is(i + 1, "(") &&
                !isOneOf(k_.text(i), {"if", "for", "while", "switch", "sizeof", "return", "int", "unsigned",
                                      "long", "short", "char", "float", "double", "bool", "signed"}))
                return true;
        return false;
    }

    // Statement s declares nothing that a later statement of its region could read: it declares no
    // variable, or only frame variables (kept in the frame between regions), and does not return.
    bool keepsNothing(const Stmt& s) const {
        for (std::size_t i = s.first; i < s.last; ++i)
            if (isOneOf(k_.text(i), {"return", "goto"})) return false;
        return s.kind != Stmt::Kind::Simple || declarations_.count(s.first) ||
               !declarationAt(s.first, s.last - 1);
    }

    // A grid-stride loop in passes: in pass p every thread of the block takes its element first + p * step,
    // row by row (threadIdx.x counting up, y and z fixed), the block's threads together as on a GPU,
    // instead of each thread walking the whole array before the next starts. The threads of a row are
    // consecutive elements, read as a stream (a thread's own walk, 16 elements a megabyte apart, fell in
    // one set of the cache), and the row's loop is `omp simd` (`sum += in[i]` becomes vector adds, each
    // lane one thread's sum in its own order). Any interleaving of the block's threads between barriers is
    // one a GPU may run. The threads still in a pass are a prefix of each row, since `first` rises along
    // it (found by bisection); the passes end when no thread has an element left. Exact while every
    // index stays below 2^31 (checked at run time, with a positive step and an integer limit; otherwise each
    // thread walks its own elements, as written).
    // `prefix`: pure declarations before the loop (a kernel without barriers), which each thread runs
    // before its index; the block-uniform ones also run once before the passes, for the limit and the step.
    // `fallback`: what runs where the passes do not fit (the loop, or the kernel's whole body).
    void passes(const Stmt& s, const GridStride& g, const std::string& mask,
                const std::vector<const Stmt*>& prefix = {}, const Stmt* fallback = nullptr) {
        ++gridStrideLoops_;
        const std::string type = chunk(g.typeFirst, g.typeLast, false);
        const bool simd = !atomics(s.first, s.last);
        const bool counted = g.unit && simd; // the index as the row's first plus a counter (below)
        const std::string name(k_.text(g.name));
        std::set<std::string> promote, writeBack;
        frameUses(s.first, s.last, promote, writeBack);
        std::string declarations; // the prefix, for a thread
        for (const Stmt* p : prefix)
            declarations += chunk(p->first, p->last, true);
        // A declared index that rises along the row is exact where its largest value is below 2^31 (checked
        // with the others): said, GCC reads a[index + offset] as consecutive elements.
        std::string fits;
        for (const auto& [local, value] : guardLocals_) {
            if (prefix.empty()) break;
            declarations += "(void)" + local + ";";
            if (value.kind == RowValue::Kind::Rising && !value.bound.empty()) {
                declarations += "::kernelpad::assumeExactIndex(" + local + ");";
                fits += " && " + value.bound + " < 2147483647.0";
            }
        }
        out_ += "\n{";
        for (const Stmt* p : prefix) // the block's own values, one declaration each (`int i = .., s = ..;`)
            if (const auto d = declarationAt(p->first, p->last - 1))
                for (const Declarator& one : d->declarators)
                    if (const auto local = guardLocals_.find(std::string(k_.text(one.name)));
                        local != guardLocals_.end() && local->second.uniform)
                        out_ += "\n" + chunk(d->specFirst, d->specLast, false) + " " +
                                chunk(one.name, one.name + 1, false) + " = " +
                                chunk(one.initFirst, one.initLast, false) + ";";
        out_ +=
            "\nconst auto __kp_limit = (" + chunk(g.limitFirst, g.limitLast, false) +
            ");\nconst auto __kp_step = (" + chunk(g.stepFirst, g.stepLast, false) +
            ");\nif (::kernelpad::passesFit(__kp_limit, __kp_step, " + g.bound +
            ") && double(gridDim.x) * double(blockDim.x) < 2147483647.0" + fits +
            ") {\n"
            "for (long long __kp_pass = 0;; ++__kp_pass) {\nbool __kp_more = false;\n"
            "const long long __kp_offset = __kp_pass * static_cast<long long>(__kp_step);\n"
            "for (unsigned __kp_z = 0; __kp_z < __kp_block.z; ++__kp_z)\n"
            "for (unsigned __kp_y = 0; __kp_y < __kp_block.y; ++__kp_y) {\n"
            "const auto __kp_index = [&](unsigned __kp_x) -> long long {\n"
            "[[maybe_unused]] const uint3 __kp_tid{__kp_x, __kp_y, __kp_z};\n" +
            declarations + "\nreturn static_cast<long long>(" + chunk(g.firstFirst, g.firstLast, true) +
            ") + __kp_offset;\n};\n"
            "const auto __kp_sends = [&](unsigned __kp_x) { return !(__kp_index(__kp_x) " +
            (g.inclusive ? "<=" : "<") + " static_cast<long long>(__kp_limit)); };\n" + rowEnd +
            "if (__kp_end == 0) continue;\n__kp_more = true;\n::kernelpad::assumeRowFits(__kp_bidx.x, "
            "__kp_block.x, __kp_end);\n"
            "const std::size_t __kp_row = std::size_t{__kp_block.x} * (__kp_y + __kp_block.y * __kp_z);\n" +
            (counted ? "const " + type + " __kp_first0 = static_cast<" + type + ">(__kp_index(0));\n" : "") +
            (simd ? "_Pragma(\"omp simd\")\n" : "") +
            (counted ? "for (int __kp_xi = 0; __kp_xi < static_cast<int>(__kp_end); ++__kp_xi) {\n"
                       "const unsigned __kp_x = static_cast<unsigned>(__kp_xi);\n"
                     : "for (unsigned __kp_x = 0; __kp_x < __kp_end; ++__kp_x) {\n") +
            "const std::size_t __kp_t = __kp_row + __kp_x;\n";
        // The thread's index for the helpers it calls, the macros that read it (`#define TX threadIdx.x`) and
        // the bounds checks' reports (none: `sum += in[i]`, then the stores would keep the row's loop from
        // vectorising, and the three fields read back at once stall the store buffer).
        threadStart(mask, options_.boundsChecked || options_.threadIdxOutside ||
                              calls(s.children[0].first, s.children[0].last));
        ++region_;
        regionReturns_ = false;
        promoted_ = promote;
        for (const std::string& frame : promote)
            out_ += "\n" + frameNames_.at(frame).type + " " + frame + " = __kp_f." + frame + "[__kp_t];";
        // The index as the loop's first, plus the pass's offset in its type, in one expression: GCC then
        // reads a[i] as consecutive elements (through __kp_index's long long, or added in a statement of its
        // own, it gathered them one by one). In a scope of its own: it hides a frame variable of its name
        // (`int i` of the thread, promoted above) as the loop's own did.
        // A declared first index (`int index = blockIdx.x * blockDim.x + threadIdx.x;`) goes in as what it
        // holds: GCC 12 read `index + offset`, the sum made int first, one element at a time.
        // An index rising by one a thread, in a loop to vectorise, is the row's first plus a signed counter:
        // GCC 13 read neither form above as consecutive (the unsigned threadIdx.x made int does not step by
        // one for it) and gathered. Not in a loop with atomics (not vectorised): there it cost 12%.
        std::string index = "__kp_first0 + static_cast<" + type + ">(__kp_xi)";
        if (!counted) {
            std::string first = chunk(g.firstFirst, g.firstLast, true);
            if (const auto declared = g.firstLast == g.firstFirst + 1
                                          ? guardInits_.find(std::string(k_.text(g.firstFirst)))
                                          : guardInits_.end();
                declared != guardInits_.end())
                first = "(" + chunk(declared->second.first, declared->second.second, true) + ")";
            index = first + " + static_cast<" + type + ">(__kp_offset)";
        }
        out_ += "\n{" + declarations + "\n{" + type + " " + name + " = " + index +
                ";\n::kernelpad::assumeExactIndex(" + name + ");\ndo {" +
                chunk(s.children[0].first, s.children[0].last, true) + "} while (false);}}";
        for (const std::string& frame : writeBack)
            out_ += "\n__kp_f." + frame + "[__kp_t] = " + frame + ";";
        promoted_.clear();
        out_ += "\n}\n}\nif (!__kp_more) break;\n}\n} else {";
        inFallback_ = true;
        region({fallback ? fallback : &s}, mask);
        inFallback_ = false;
        out_ += "}\n}\n";
    }

    // A warp statement whose call is one of CUDA's warp intrinsics (a shuffle, vote, match, reduce or
    // __syncwarp), whose take needs nothing but the exchange's result, or cooperative groups' reduce over a
    // tile, whose take works out a warp checked whole from its values alone: not __activemask (no mask), a
    // tile's other operations or a gathered atomic, which read their records in full in their takes.
    bool lightCall(const Stmt& put) const {
        if (put.atomic) return false;
        const std::string_view name = k_.text(put.callFirst);
        if (k_.identifier(put.callFirst) && isWarpOperation(name) && name != "__activemask") return true;
        for (std::size_t i = put.callFirst; i < put.callLast && i <= put.callFirst + 2; ++i) // cg::reduce(
            if (k_.groupFunction(i, "reduce") == put.callFirst) return true;
        return false;
    }

    // The statements as one loop over the block's threads (in `mask`); `put`, a warp statement, records its
    // call after them (a new occasion: WarpExchange.h).
    // `tail`: the enclosing loop's increment and test, run by each thread at the end of this region (the
    // last of the loop's body, over the loop's threads) instead of in thread loops of their own.
    void region(const std::vector<const Stmt*>& statements, const std::string& mask,
                const Stmt* put = nullptr, const LoopTail* tail = nullptr) {
        if (statements.empty() && !put) return;
        if (!tail && !inFallback_) // a grid-stride loop, and the statements before and after it
            for (std::size_t j = 0; j < statements.size(); ++j) {
                if (!keepsNothing(*statements[j])) break; // a local the loop or what follows may read
                if (const auto g = gridStride(*statements[j])) {
                    region({statements.begin(), statements.begin() + static_cast<std::ptrdiff_t>(j)}, mask);
                    passes(*statements[j], *g, mask);
                    region({statements.begin() + static_cast<std::ptrdiff_t>(j) + 1, statements.end()}, mask,
                           put);
                    return;
                }
            }
        if (put) out_ += "\n++kernelpad_block_state.warpOccasion;";
        for (const Stmt* s : statements)
            escapes(*s, 0, 0);
        // The frame variables the region uses are locals while it runs: copied in when a thread starts
        // the region and back when it ends it (not when it returns: it is done). A frame slot written in
        // a loop (`sum += tileA[..] * tileB[..]`) would be a store and a load at every step, since the
        // compiler cannot tell the slot from the arrays the loop reads. Not arrays, nor a variable whose
        // address is taken anywhere (the pointer must outlive the region).
        std::set<std::string> promote, writeBack;
        for (const Stmt* s : statements)
            frameUses(s->first, s->last, promote, writeBack);
        if (tail) {
            frameUses(tail->incFirst, tail->incLast, promote, writeBack);
            frameUses(tail->condFirst, tail->condLast, promote, writeBack);
        }
        // The put's call, run by a thread to record in `phase` (then back to taking).
        const auto record = [&](const std::string& phase) {
            return "\nkernelpad_block_state.warpPhase = " + phase + "; (void)(" +
                   chunk(put->callFirst, put->callLast, true) + ");\nkernelpad_block_state.warpPhase = 2;";
        };
        std::string recordPhase = "1";
        const auto body = [&] {
            promoted_ = promote;
            for (const std::string& name : promote)
                out_ += "\n" + frameNames_.at(name).type + " " + name + " = __kp_f." + name + "[__kp_t];";
            for (const Stmt* s : statements)
                out_ += s->kind == Stmt::Kind::Simple ? regionStatement(s->first, s->last - 1) + ";"
                                                      : chunk(s->first, s->last, true);
            if (put) out_ += record(recordPhase);
            if (tail) {
                if (tail->incFirst < tail->incLast) out_ += chunk(tail->incFirst, tail->incLast, false) + ";";
                out_ += loopTest(tail->mask, tail->condFirst, tail->condLast);
            }
            for (const std::string& name : writeBack)
                out_ += "\n__kp_f." + name + "[__kp_t] = " + name + ";";
            promoted_.clear();
        };
        if (put && (tail || !lightCall(*put) || lightSites_ >= kLightSites)) {
            threadLoop(mask, body); // its call records for every thread of the mask
            return;
        }
        if (put) {
            // A plain warp intrinsic records lightly first (WarpExchange.h): the loop's threads bring their
            // values alone, and the core completes each warp at once where all 32 lanes called with the full
            // mask. Where they did not, each thread that recorded records again in full (its arguments
            // change nothing, and nothing after the call in the loop has changed what they read: not with a
            // tail), and the site records in full for its next kFullRecords occasions on this worker (a
            // divergent site then costs a sixteenth of a light loop; a grid-stride loop's last pass, with
            // fewer lanes, does not make its other passes record in full).
            const std::string site = "__kp_sites.generic[" + std::to_string(lightSites_++) + "]";
            out_ += "\n{\nconst unsigned __kp_record = " + site + " != 0 ? (--" + site + ", 1u) : 3u;";
            recordPhase = "__kp_record";
            threadLoop(mask, body);
            out_ += "\nif (__kp_record == 3u && !::kernelpad::recordedLight()) {\n" + site + " = " +
                    std::to_string(kFullRecords) + ";";
            promoted_.clear();
            threadLoop("", [&] { out_ += "\nif (::kernelpad::recordedHere()) {" + record("1") + "\n}"; });
            out_ += "\n}\n}";
            return;
        }
        // The whole kernel, free of barriers: pure declarations, then a grid-stride loop, runs in passes.
        if (statements.size() == 1 && statements.front()->first == bodyFirst_ && !alive_ && mask.empty() &&
            !statements.front()->barrier && !tail && !inFallback_ &&
            statements.front()->kind == Stmt::Kind::Block) {
            const Stmt& root = *statements.front();
            guardLocals_.clear();
            guardInits_.clear();
            std::vector<const Stmt*> prefix;
            const Stmt* loop = nullptr;
            for (const Stmt& c : root.children) {
                if (c.kind == Stmt::Kind::Empty) continue;
                if (loop || !(c.kind == Stmt::Kind::For || (c.kind == Stmt::Kind::Simple &&
                                                            (guardDeclaration(c) || threadDeclaration(c))))) {
                    loop = nullptr; // something after the loop, or before it that is not a pure declaration
                    break;
                }
                if (c.kind == Stmt::Kind::For)
                    loop = &c;
                else
                    prefix.push_back(&c);
            }
            for (const auto& [local, value] : guardLocals_) // each pass declares them afresh
                if (loop && assigned(local, loop->first, loop->last)) loop = nullptr;
            if (loop)
                if (const auto g = gridStride(*loop, true)) {
                    passes(*loop, *g, mask, prefix, &root);
                    return;
                }
        }
        // The whole kernel, free of barriers, with a leading guard: each row's loop ends where the guard
        // starts sending threads home (found by bisection), when the indices it compares are exact.
        if (statements.size() == 1 && statements.front()->first == bodyFirst_ && !alive_ && mask.empty() &&
            !statements.front()->barrier && !tail) {
            if (auto guard = leadingGuard(*statements.front())) {
                const Stmt& root = *statements.front();
                std::string exact = "true";
                for (const std::string& bound : guard->bounds)
                    exact += " && " + bound + " < 2147483647.0";
                const std::size_t open = guard->ifAt + 1, close = k_.closing(open);
                std::string sends = "\nconst auto __kp_sends = [&](unsigned __kp_x) -> bool {\n"
                                    "[[maybe_unused]] const uint3 __kp_tid{__kp_x, __kp_y, __kp_z};" +
                                    chunk(root.first + 1, guard->ifAt, true);
                for (const auto& [name, value] : guardLocals_)
                    sends += "(void)" + name + ";";
                const std::string condition = chunk(open + 1, close, true);
                sends += "\nreturn " +
                         (guard->wraps ? "!(" + condition + ")" : "static_cast<bool>(" + condition + ")") +
                         ";\n};\n" + rowEnd;
                if (guard->acrossRows) {
                    std::string fits = "true";
                    for (const std::string& bound : *guard->acrossRows)
                        fits += " && " + bound + " < 2147483647.0";
                    sends += "if (__kp_end == 0 && (" + fits + ")) break; // and every later row\n";
                }
                sends += "::kernelpad::assumeRowFits(__kp_bidx.x, __kp_block.x, __kp_end);\n";
                // The rows' loops also take the whole grid's x below 2^31, which assumeRowFits says.
                exact += " && double(gridDim.x) * double(blockDim.x) < 2147483647.0";
                // Inside out, each row keeps up to 1,024 threads' values (a block's most) between its parts.
                const bool simd = !atomics(root.first, root.last);
                const auto shape = simd ? insideOut(root, *guard) : std::nullopt;
                if (shape) exact += " && blockDim.x <= 1024u";
                out_ += "\nif (" + exact + ") {";
                guard_ = guard;
                if (shape)
                    insideOutRows(mask, *shape, root, sends, body);
                else
                    threadLoop(mask, body, "0", "__kp_end", sends, simd);
                guard_.reset();
                out_ += "} else {";
                threadLoop(mask, body);
                out_ += "}\n";
                return;
            }
        }
        // A region that is one `if (threadIdx.x < u)` (or <=, ==) with u the same for all threads, the
        // reduction's step, runs only the threads that can take it: the loop over x stops where the
        // condition stops holding (found by bisection, so C++'s conversions decide as they do in the if).
        const Stmt& only = *statements.front();
        const std::size_t x =
            statements.size() == 1 && only.kind == Stmt::Kind::If && only.children.size() == 1
                ? threadX(only.condFirst)
                : 0;
        const std::size_t op = only.condFirst + x;
        if (tail || x == 0 || !isOneOf(k_.text(op), {"<", "<=", "=="}) || op + 1 >= only.condLast ||
            !uniform(op + 1, only.condLast, {}) || !bindsTighter(op + 1, only.condLast)) {
            threadLoop(mask, body);
            return;
        }
        const std::string r = std::to_string(region_ + 1);
        out_ += "\n{\nauto __kp_cond" + r +
                " = [&](unsigned __kp_x) { [[maybe_unused]] const uint3 __kp_tid{__kp_x, 0u, 0u}; return "
                "static_cast<bool>(" +
                chunk(only.condFirst, only.condLast, false) + "); };\nunsigned __kp_from" + r +
                " = 0, __kp_to" + r + " = __kp_block.x;\n";
        if (k_.is(op, "==")) {
            out_ += "{ const auto __kp_at = static_cast<unsigned>(" + chunk(op + 1, only.condLast, false) +
                    ");\n"
                    "if (__kp_at < __kp_block.x && __kp_cond" +
                    r + "(__kp_at)) { __kp_from" + r + " = __kp_at; __kp_to" + r +
                    " = __kp_at + 1; } else { __kp_to" + r + " = 0; } }\n";
        } else {
            out_ += "for (unsigned __kp_low = 0, __kp_high = __kp_block.x;;) {\nif (__kp_low >= __kp_high) { "
                    "__kp_to" +
                    r +
                    " = __kp_low; break; }\nconst unsigned __kp_mid = __kp_low + (__kp_high - __kp_low) / "
                    "2;\nif (__kp_cond" +
                    r + "(__kp_mid)) __kp_low = __kp_mid + 1; else __kp_high = __kp_mid;\n}\n";
        }
        threadLoop(mask, body, "__kp_from" + r, "__kp_to" + r);
        out_ += "}\n";
    }

    // break or continue that would leave the region (its loop is outside it) cannot be a thread loop's.
    void escapes(const Stmt& s, int loops, int switches) const {
        using K = Stmt::Kind;
        if (s.kind == K::Simple) {
            if ((k_.is(s.first, "break") && loops + switches == 0) ||
                (k_.is(s.first, "continue") && loops == 0))
                throw NotSplit{std::string(k_.text(s.first)) + " out of a loop that holds a barrier"};
            return;
        }
        const bool loop = s.kind == K::For || s.kind == K::RangeFor || s.kind == K::While || s.kind == K::Do;
        for (const Stmt& c : s.children)
            escapes(c, loops + (loop ? 1 : 0), switches + (s.kind == K::Switch ? 1 : 0));
    }

    std::string mask(const char* what) { return std::string("__kp_") + what + std::to_string(++masks_); }

    // A loop that the threads of `outer` enter: declares its mask, of the threads still in it, and its
    // `any`, whether one of them goes on; each thread joins the mask, runs `init` [initFirst, initLast) and,
    // unless the body comes first (do), the test, in one thread loop. Returns the mask's name.
    std::string enterLoop(const std::string& outer, std::size_t initFirst, std::size_t initLast,
                          std::size_t condFirst, std::size_t condLast, bool test) {
        std::string m = mask("loop");
        out_ += "\n{\nunsigned char " + m + "[::kernelpad::kMaxThreads];\nstd::memset(" + m +
                ", 0, __kp_n);\nbool " + m + "_any = false;\n";
        threadLoop(outer, [&] {
            out_ += m + "[__kp_t] = 1;";
            if (initFirst < initLast && !placed_.count(initFirst))
                out_ += regionStatement(initFirst, initLast) + ";";
            if (test) out_ += loopTest(m, condFirst, condLast);
        });
        return m;
    }

    // A thread's test of the loop condition [first, last): it goes on (the loop's `any`) or leaves the mask
    // `m`. With no condition (`for (;;)`) it goes on; a loop whose threads have all returned then ends.
    std::string loopTest(const std::string& m, std::size_t first, std::size_t last) {
        const std::string any = m + "_any";
        if (first >= last) return "\n" + any + " = true;";
        return "\nif (" + chunk(first, last, false) + ") " + any + " = true; else " + m + "[__kp_t] = 0;";
    }

    // The body of a loop whose mask is `m`, then its increment and test: in the body's last region when
    // it runs all of the loop's threads, else in thread loops of their own.
    void loopBody(const Stmt& s, const Stmt& body, const std::string& m, bool increment) {
        LoopTail tail{
            increment ? s.incFirst : 0, increment ? s.incLast : 0, s.condFirst, s.condLast, m, &body};
        LoopTail* const outer = tail_;
        tail_ = &tail;
        statement(body, m);
        tail_ = outer;
        if (tail.taken) return;
        if (tail.incFirst < tail.incLast)
            threadLoop(m, [&] { out_ += chunk(tail.incFirst, tail.incLast, false) + ";"; });
        threadLoop(m, [&] { out_ += loopTest(m, tail.condFirst, tail.condLast); });
    }

    // A warp statement whose call is `__activemask()` and that begins a region (its threads, those in
    // `active` still running, are all there): the lanes of each warp are computed for the block before
    // the region, and the statement reads them, instead of a thread loop that records and a completion
    // per warp (the lanes that record there would be these). The loop of a grid-stride histogram begins
    // so (`const unsigned active = __activemask();`).
    bool computedActiveMask(const Stmt& c, const std::string& active) {
        if (!k_.is(c.callFirst, "__activemask") || c.callLast != c.callFirst + 3) return false;
        const std::string lanes = "__kp_lanes" + std::to_string(++masks_);
        out_ += "\nunsigned " + lanes + "[::kernelpad::kMaxThreads / 32];" +
                lineDirective(k_.token(c.callFirst).offset) + "::kernelpad::activeLanes(" + lanes + ", " +
                (alive_ ? "__kp_alive" : "nullptr") + ", " + (active.empty() ? "nullptr" : active) +
                ", __kp_n);\n";
        computed_[c.callFirst] = {c.callLast, lanes + "[__kp_t / 32]"};
        return true;
    }

    // A loop the block runs once for its threads in `active` goes round while its condition holds, which
    // may be never false (`for (;;)` left by returning): once every one of them has returned, it ends.
    std::string leaveWhenAllReturned(const Stmt& loop, const std::string& active) const {
        if (!alive_) return {};
        for (std::size_t i = loop.first; i < loop.last; ++i)
            if (k_.is(i, "return"))
                return "\nif (!::kernelpad::anyLeft(__kp_alive, " + (active.empty() ? "nullptr" : active) +
                       ", __kp_n)) break;\n";
        return {};
    }

    // A block-uniform variable's declaration (its initialisation) or change, run once for the block.
    void uniformStatement(const Stmt& c, const UniformStatement& what) {
        if (!what.declaration) {
            out_ += chunk(c.first, c.last - 1, false) + ";\n";
            return;
        }
        const Declarator& d = uniformDeclarations_.at(c.first).declarators[0];
        if (d.initFirst < d.initLast)
            out_ += chunk(d.name, d.name + 1, false) + " = " + chunk(d.initFirst, d.initLast, false) + ";\n";
    }

    void statement(const Stmt& s, const std::string& active) {
        using K = Stmt::Kind;
        if (!s.barrier && !(strideBody_ && s.first == bodyFirst_)) {
            region({&s}, active);
            return;
        }
        switch (s.kind) {
        case K::Barrier:
            if (warps_)
                out_ += lineDirective(k_.token(s.first).offset) + "::kernelpad::warpBarrier(" +
                        (alive_ ? "__kp_alive" : "nullptr") + ", __kp_n);\n";
            return;
        case K::Simple: // a warp operation
            if (!computedActiveMask(s, active)) region({}, active, &s);
            region({&s}, active);
            return;
        case K::Block: {
            std::vector<const Stmt*> pending;
            for (const Stmt& c : s.children) {
                if (const auto once = uniformStatements_.find(c.first); once != uniformStatements_.end()) {
                    region(pending, active);
                    pending.clear();
                    uniformStatement(c, once->second);
                } else if (c.warp) {
                    if (pending.empty() && computedActiveMask(c, active)) {
                        pending.assign(1, &c);
                        continue;
                    }
                    region(pending, active, &c); // they, then its call records
                    pending.assign(1, &c);       // it takes the result in the next region
                } else if (c.barrier) {
                    region(pending, active);
                    pending.clear();
                    statement(c, active);
                } else if (!placed_.count(c.first)) {
                    pending.push_back(&c);
                }
            }
            if (tail_ && tail_->body == &s && tail_->mask == active && !pending.empty()) {
                tail_->taken = true;
                region(pending, active, nullptr, tail_);
                return;
            }
            region(pending, active);
            return;
        }
        case K::If:
            if (uniform_.count(s.first)) {
                out_ += "\nif (" + chunk(s.condFirst, s.condLast, false) + ") {";
                statement(s.children[0], active);
                out_ += "}\n";
                if (s.children.size() > 1) {
                    out_ += "else {";
                    statement(s.children[1], active);
                    out_ += "}\n";
                }
                return;
            }
            {
                const std::string then = mask("then"), otherwise = mask("else");
                out_ += "\n{\nunsigned char " + then + "[::kernelpad::kMaxThreads], " + otherwise +
                        "[::kernelpad::kMaxThreads];\nstd::memset(" + then + ", 0, __kp_n);\nstd::memset(" +
                        otherwise + ", 0, __kp_n);\n";
                threadLoop(active, [&] {
                    out_ += "\nconst bool __kp_c = static_cast<bool>(" +
                            chunk(s.condFirst, s.condLast, false) + ");\n" + then + "[__kp_t] = __kp_c;\n" +
                            otherwise + "[__kp_t] = !__kp_c;";
                });
                statement(s.children[0], then);
                if (s.children.size() > 1) statement(s.children[1], otherwise);
                out_ += "}\n";
            }
            return;
        case K::While: {
            if (uniform_.count(s.first)) {
                out_ += "\nwhile (" + chunk(s.condFirst, s.condLast, false) + ") {" +
                        leaveWhenAllReturned(s, active);
                statement(s.children[0], active);
                out_ += "}\n";
                return;
            }
            const std::string m = enterLoop(active, 0, 0, s.condFirst, s.condLast, true);
            out_ += "for (;;) {\nif (!" + m + "_any) break;\n" + m + "_any = false;\n";
            loopBody(s, s.children[0], m, false);
            out_ += "}\n}\n";
            return;
        }
        case K::Do: {
            if (uniform_.count(s.first)) {
                out_ += "\ndo {" + leaveWhenAllReturned(s, active);
                statement(s.children[0], active);
                out_ += "} while (" + chunk(s.condFirst, s.condLast, false) + ");\n";
                return;
            }
            const std::string m = enterLoop(active, 0, 0, s.condFirst, s.condLast, false);
            out_ += "for (;;) {\n" + m + "_any = false;\n";
            loopBody(s, s.children[0], m, false);
            out_ += "if (!" + m + "_any) break;\n}\n}\n";
            return;
        }
        case K::For: {
            if (uniform_.count(s.first)) {
                out_ += "\nfor (" + chunk(s.initFirst, s.initLast, false) + ";" +
                        chunk(s.condFirst, s.condLast, false) + ";" + chunk(s.incFirst, s.incLast, false) +
                        ") {" + leaveWhenAllReturned(s, active);
                statement(s.children[0], active);
                out_ += "}\n";
                return;
            }
            const std::string m = enterLoop(active, s.initFirst, s.initLast, s.condFirst, s.condLast, true);
            out_ += "for (;;) {\nif (!" + m + "_any) break;\n" + m + "_any = false;\n";
            loopBody(s, s.children[0], m, true);
            out_ += "}\n}\n";
            return;
        }
        default:
            throw NotSplit{"__syncthreads() inside a statement it cannot split"};
        }
    }

    const Kernel& k_;
    std::string_view source_;
    const SplitOptions& options_;
    bool alive_;
    std::size_t bodyFirst_, bodyLast_; // the kernel's body, tokens
    std::set<std::string> scalarParameters_;
    bool warps_;                             // the kernel has warp statements
    std::set<std::size_t> uniform_;          // first tokens of ifs and loops every thread takes alike
    std::set<std::string> uniformNames_;     // variables of uniform loops
    std::set<std::string> uniformVariables_; // findUniformVariables()
    std::map<std::size_t, UniformStatement> uniformStatements_; // by first token: they run once
    std::map<std::size_t, Declaration> uniformDeclarations_;    // by first token
    std::map<std::string, std::pair<std::string, std::string>>
        aliases_; // name -> (type, component of threadIdx)
    std::vector<std::pair<std::size_t, std::size_t>>
        prelude_;                  // kernel-scope statements, tokens [first, last]
    bool innerScope_ = false;      // the body is in a scope that names the __shared__ variables by reference
    std::string blockSums_;        // declarations of the block's deferred sums (declareBlockSums)
    bool strideBody_ = false;      // the body's grid-stride loop splits it (findStrideBody)
    std::set<std::size_t> placed_; // first tokens of those
    std::map<std::size_t, Declaration> declarations_; // frame declarations by first token
    struct FrameName {
        std::size_t from = 0, to = 0; // its scope, tokens [from, to)
        std::string type;
        bool stays = false; // an array, or a variable whose address is taken: never copied to a local
    };
    std::map<std::string, FrameName> frameNames_;
    std::set<std::string> promoted_;  // frame variables the region being written holds in locals
    LoopTail* tail_ = nullptr;        // the innermost loop's increment and test, while its body is written
    std::set<std::string> constants_; // kernel-scope constants
    std::vector<std::string> frame_;
    std::string out_;
    int region_ = 0;
    int masks_ = 0;
    bool regionReturns_ = false;
    bool inFallback_ = false; // writing a grid-stride loop as written, where its passes do not fit
    // Statements of plain warp intrinsics that record lightly first (region()), each with a count of its own
    // of the occasions it records in full.
    static constexpr int kLightSites = 64;
    static constexpr int kFullRecords = 15; // after a light record that could not be
    int lightSites_ = 0;
    int gridStrideLoops_ = 0; // written in passes
    std::string insideOut_;   // the variable of a loop written inside out (insideOut()), or "loop"
    std::set<std::string> constantMacros_;         // macroLike()
    const std::set<std::string>& referenceTakers_; // writes()
    std::set<std::size_t> atomicCalls_;            // atomicAdd tokens of gathered atomics
    // computedActiveMask(): a call's first token -> (its end, the text read instead)
    std::map<std::size_t, std::pair<std::size_t, std::string>> computed_;
    std::optional<Guard> guard_;                  // the kernel's leading guard, while its region is written
    std::map<std::string, RowValue> guardLocals_; // the declarations before it
    std::map<std::string, std::pair<std::size_t, std::size_t>> guardInits_; // and their initialisers
};

// Helpers with warp operations, inlined where the kernel calls them as a whole statement, so that their
// warp operations become the kernel's own statements and split there. A helper qualifies when it is one
// __device__ definition, not a template, takes its parameters by value, and either returns nothing
// (and has no return) or ends with its only `return value;`; its body holds warp operations and no other
// synchronising call. The call statement `f(args);`, `x op= f(args);` or `T x = f(args);` becomes the
// helper's body in a block of its own, its parameters and locals renamed so they clash with nothing,
// the whole on the call's line: every other line keeps its number.
struct Helper {
    std::string returnType;                                      // empty: void
    std::vector<std::pair<std::string, std::string>> parameters; // (type, name)
    std::vector<std::string_view> body;                  // the body's tokens, without the final return
    std::vector<std::string_view> value;                 // the returned expression
    std::size_t definitionFirst = 0, definitionLast = 0; // offsets of the whole definition
};

std::map<std::string, Helper> warpHelpers(std::string_view source) {
    source::Lexer lexer(source);
    const std::vector<Token> tokens = lexer.rest();
    const auto text = [&](std::size_t i) {
        return i < tokens.size() ? lexer.text(tokens[i]) : std::string_view();
    };
    const auto closing = [&](std::size_t open) {
        int depth = 0;
        for (std::size_t i = open; i < tokens.size(); ++i) {
            const std::string_view t = text(i);
            if (t == "(" || t == "[" || t == "{") ++depth;
            if ((t == ")" || t == "]" || t == "}") && --depth == 0) return i;
        }
        return tokens.size();
    };
    std::map<std::string, Helper> helpers;
    std::set<std::string> refused; // names defined twice or not inlinable
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (text(i) != "__device__" || tokens[i].inDirective) continue;
        // The declaration's start: back over specifiers to the previous ';', '}' or directive.
        std::size_t start = i;
        while (start > 0 && tokens[start - 1].kind == TokenKind::Identifier && !tokens[start - 1].inDirective)
            --start;
        std::size_t open = i + 1;
        while (open < tokens.size() && !isOneOf(text(open), {"(", ";", "{", "=", "<"}))
            ++open;
        if (text(open) != "(" || open == i + 1 || tokens[open - 1].kind != TokenKind::Identifier) continue;
        const std::string name(text(open - 1));
        const std::size_t close = closing(open);
        if (close >= tokens.size() || text(close + 1) != "{") continue; // a declaration, or qualifiers
        const std::size_t bodyOpen = close + 1, bodyClose = closing(bodyOpen);
        if (bodyClose >= tokens.size()) continue;
        i = bodyClose;
        bool fine = start == 0 || !isOneOf(text(start - 1), {">", "template"});
        Helper h;
        h.definitionFirst = tokens[start].offset;
        h.definitionLast = tokens[bodyClose].end();
        for (std::size_t t = start; t < open - 1; ++t)
            if (!isOneOf(text(t), {"__device__", "__host__", "inline", "__inline__", "__forceinline__",
                                   "__noinline__", "static", "constexpr"}))
                h.returnType += (h.returnType.empty() ? "" : " ") + std::string(text(t));
        if (h.returnType == "void") h.returnType.clear();
        fine = fine && h.returnType.find("auto") == std::string::npos;
        // Parameters: `type name`, by value.
        for (std::size_t p = open + 1, segment = p; fine && p <= close && close > open + 1; ++p) {
            if (p < close && text(p) != ",") {
                if (isOneOf(text(p), {"&", "&&", "[", "=", "...", "(", "<"})) fine = false;
                continue;
            }
            if (p - segment < 2 || tokens[p - 1].kind != TokenKind::Identifier) {
                fine = fine && !(p - segment == 1 && text(segment) == "void" && close == open + 2);
                segment = p + 1;
                continue;
            }
            std::string type;
            for (std::size_t t = segment; t + 1 < p; ++t)
                type += (type.empty() ? "" : " ") + std::string(text(t));
            h.parameters.emplace_back(type, std::string(text(p - 1)));
            segment = p + 1;
        }
        // The body: warp operations and nothing else that synchronises; one return, last.
        bool warp = false;
        std::size_t returnAt = bodyClose;
        for (std::size_t t = bodyOpen + 1; fine && t < bodyClose; ++t) {
            const std::string_view word = text(t);
            if (tokens[t].kind == TokenKind::Directive || tokens[t].inDirective) fine = false;
            if (tokens[t].kind != TokenKind::Identifier) continue;
            if (word == name) fine = false; // recursion
            if (source::isSynchronisingCall(word)) {
                if (!isWarpOperation(word)) fine = false;
                warp = true;
            }
            if (word == "return") {
                if (returnAt != bodyClose) fine = false;
                returnAt = t;
            }
        }
        if (returnAt != bodyClose) {
            std::size_t semicolon = returnAt;
            while (semicolon < bodyClose && text(semicolon) != ";")
                ++semicolon;
            fine = fine && !h.returnType.empty() && semicolon + 1 == bodyClose && semicolon > returnAt + 1;
            for (std::size_t t = returnAt + 1; fine && t < semicolon; ++t)
                h.value.push_back(text(t));
        } else {
            fine = fine && h.returnType.empty();
        }
        for (std::size_t t = bodyOpen + 1; fine && t < returnAt; ++t)
            h.body.push_back(text(t));
        if (!warp) continue;
        if (!fine || helpers.count(name)) {
            refused.insert(name);
            continue;
        }
        helpers.emplace(name, std::move(h));
    }
    for (const std::string& name : refused)
        helpers.erase(name);
    return helpers;
}

// The helper's tokens with its parameters and locals renamed (`value` to `__kp_i3_value`): an identifier
// that its body declares (after a type, before `=`, `;`, `,`, `[` or `)`) or a parameter. A name taken for a
// local that is not one only renames a global the body reads, which then fails to compile and the kernel
// runs as fibers: never a wrong result.
std::string renamedTokens(const std::vector<std::string_view>& tokens, const std::set<std::string>& names,
                          const std::string& prefix) {
    std::string out;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string_view t = tokens[i];
        const bool member = i > 0 && isOneOf(tokens[i - 1], {".", "->", "::"});
        out += (!member && names.count(std::string(t)) ? prefix + std::string(t) : std::string(t)) + " ";
    }
    return out;
}

std::set<std::string> localsOf(const Helper& h) {
    std::set<std::string> names;
    for (const auto& [type, name] : h.parameters)
        names.insert(name);
    const auto word = [](std::string_view t) {
        return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_');
    };
    for (std::size_t i = 1; i + 1 < h.body.size(); ++i) {
        const std::string_view before = h.body[i - 1], after = h.body[i + 1];
        if (word(h.body[i]) && (word(before) || before == "*" || before == "&") &&
            !isOneOf(before, {"return", "case", "goto", "sizeof", "else", "do", "new", "delete", "throw"}) &&
            isOneOf(after, {"=", ";", ",", "[", ")", ":"}))
            names.insert(std::string(h.body[i]));
    }
    return names;
}

// The kernel's source with every call statement of a warp helper (warpHelpers) replaced by the helper's
// body, or empty when there is none. `inlined` gets the definitions whose every call was replaced: their
// warp operations are no longer this kernel's to meet.
std::string inlineWarpHelpers(const std::string& source, const Kernel& k, const Stmt& root,
                              std::vector<std::pair<std::size_t, std::size_t>>& inlined) {
    const auto helpers = warpHelpers(source);
    if (helpers.empty()) return {};
    struct Edit {
        std::size_t first, last; // offsets replaced
        std::string text;
    };
    std::vector<Edit> edits;
    std::map<std::string, int> replaced;
    int serial = 0;
    const std::function<void(const Stmt&, bool)> walk = [&](const Stmt& s, bool inBlock) {
        for (const Stmt& c : s.children)
            walk(c, s.kind == Stmt::Kind::Block);
        if (s.kind != Stmt::Kind::Simple) return;
        // `f(args);`, `x op= f(args);` or `T x = f(args);`: the call is the statement's last tokens.
        const std::size_t semicolon = s.last - 1;
        if (!k.is(semicolon - 1, ")")) return;
        std::size_t open = semicolon - 1;
        for (int depth = 0; open > s.first; --open) {
            if (k.is(open, ")")) ++depth;
            if (k.is(open, "(") && --depth == 0) break;
        }
        if (open == s.first || !k.identifier(open - 1)) return;
        const auto found = helpers.find(std::string(k.text(open - 1)));
        if (found == helpers.end()) return;
        const Helper& h = found->second;
        const std::size_t name = open - 1;
        const bool alone = name == s.first;
        if (!alone && !isAssignment(k.text(name - 1))) return;
        if (!alone && (h.returnType.empty() || !inBlock)) return;
        // The arguments, split at top-level commas.
        std::vector<std::pair<std::size_t, std::size_t>> arguments;
        for (std::size_t a = open + 1, from = a, depth = 0; a <= semicolon - 1; ++a) {
            const std::string_view t = k.text(a);
            if (a < semicolon - 1 && (t == "(" || t == "[" || t == "{")) ++depth;
            if (a < semicolon - 1 && (t == ")" || t == "]" || t == "}")) --depth;
            if ((t == "," && depth == 0) || a == semicolon - 1) {
                if (a > from) arguments.emplace_back(from, a);
                from = a + 1;
            }
        }
        if (arguments.size() != h.parameters.size()) return;
        const std::string prefix = "__kp_i" + std::to_string(++serial) + "_";
        const std::set<std::string> names = localsOf(h);
        const auto plain = [&](std::size_t first, std::size_t last) {
            return std::string(
                source.substr(k.token(first).offset, k.token(last - 1).end() - k.token(first).offset));
        };
        std::string out;
        const std::string result = "__kp_r" + std::to_string(serial);
        if (!alone) out += h.returnType + " " + result + "; ";
        out += "{ ";
        for (std::size_t p = 0; p < arguments.size(); ++p)
            out += h.parameters[p].first + " " + prefix + h.parameters[p].second + " = (" +
                   plain(arguments[p].first, arguments[p].second) + "); ";
        out += renamedTokens(h.body, names, prefix);
        if (!alone) out += result + " = (" + renamedTokens(h.value, names, prefix) + "); ";
        out += "} ";
        if (!alone) out += plain(s.first, name) + " " + result + ";";
        // The statement's line breaks stay, after it: the lines below keep their numbers.
        const std::size_t first = k.token(s.first).offset, last = k.token(semicolon).end();
        const std::string_view replacedText = std::string_view(source).substr(first, last - first);
        out += std::string(
            static_cast<std::size_t>(std::count(replacedText.begin(), replacedText.end(), '\n')), '\n');
        edits.push_back({first, last, std::move(out)});
        ++replaced[found->first];
    };
    walk(root, false);
    if (edits.empty()) return {};
    // A helper's remaining calls (in conditions, expressions) keep its warp operations this kernel's.
    std::map<std::string, int> calls;
    for (std::size_t i = 0; i < k.size(); ++i)
        if (k.identifier(i) && k.is(i + 1, "(") && helpers.count(std::string(k.text(i))))
            ++calls[std::string(k.text(i))];
    for (const auto& [name, count] : replaced)
        if (calls[name] == count)
            inlined.emplace_back(helpers.at(name).definitionFirst, helpers.at(name).definitionLast);
    std::string out = source;
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.first > b.first; });
    for (const Edit& e : edits)
        out.replace(e.first, e.last - e.first, e.text);
    return out;
}

// What the whole file holds, macros included, comments and literals not: its synchronising calls (each
// must be one of the kernel's own barrier statements) and whether threadIdx is read outside the body.
struct FileUses {
    int synchronisingCalls = 0;
    bool threadIdxOutside = false;
};

// Synchronising calls (and reads of threadIdx) that could run in this kernel: those in its body and those
// outside every kernel's body (a helper it may call). Another kernel's own barriers are not this one's:
// device code cannot call a __global__ function, so a program whose other kernels synchronise still
// splits this one.
// `inlined`: definitions (offsets) whose calls were all inlined, whose warp operations are not counted.
FileUses usesIn(std::string_view source, std::size_t bodyBegin, std::size_t bodyEnd,
                const std::vector<std::pair<std::size_t, std::size_t>>& inlined, bool groupsRead) {
    FileUses uses;
    source::Lexer lexer(source);
    std::vector<Token> tokens;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        if (token.kind != TokenKind::Directive) tokens.push_back(token); // a macro's calls count too
    const auto text = [&](std::size_t i) {
        return i < tokens.size() ? lexer.text(tokens[i]) : std::string_view();
    };
    // The bodies of the other kernels, as token ranges [open, close].
    std::vector<std::pair<std::size_t, std::size_t>> otherKernels;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (text(i) != "__global__") continue;
        std::size_t j = i + 1;
        while (j < tokens.size() && text(j) != "(" && text(j) != ";" && text(j) != "{")
            ++j;
        if (text(j) != "(") continue; // __launch_bounds__(...) comes first: its list is skipped below
        // Past parenthesised lists (launch bounds, the parameters) up to the body's brace or a ';'.
        while (j < tokens.size() && text(j) != "{" && text(j) != ";") {
            if (text(j) == "(") {
                for (int depth = 0; j < tokens.size(); ++j) {
                    if (text(j) == "(") ++depth;
                    if (text(j) == ")" && --depth == 0) break;
                }
            }
            ++j;
        }
        if (text(j) != "{") continue;
        std::size_t close = j;
        for (int depth = 0; close < tokens.size(); ++close) {
            if (text(close) == "{") ++depth;
            if (text(close) == "}" && --depth == 0) break;
        }
        if (tokens[j].offset != bodyBegin) otherKernels.emplace_back(j, close);
        i = j;
    }
    for (std::size_t i = 0, other = 0; i < tokens.size(); ++i) {
        while (other < otherKernels.size() && otherKernels[other].second < i)
            ++other;
        const bool inOtherKernel =
            other < otherKernels.size() && otherKernels[other].first <= i && i <= otherKernels[other].second;
        if (tokens[i].kind != TokenKind::Identifier) continue;
        if (std::any_of(inlined.begin(), inlined.end(), [&](const auto& range) {
                return range.first <= tokens[i].offset && tokens[i].offset < range.second;
            }))
            continue;
        const std::string_view name = text(i);
        // The kernel's cooperative groups, read (findGroups), count by their calls instead.
        if (source::isSynchronisingCall(name) && !inOtherKernel &&
            !(groupsRead && name == "cooperative_groups"))
            ++uses.synchronisingCalls;
        // Nor is another kernel's threadIdx: bitonic_sort's merge_global made the thread loops of its two
        // other kernels store each thread's index for helpers that never read it.
        if (name == "threadIdx" && !inOtherKernel &&
            (tokens[i].offset < bodyBegin || tokens[i].offset >= bodyEnd))
            uses.threadIdxOutside = true;
    }
    return uses;
}

// A deferred sum (`atomicAdd(total, v)` rewritten, DeferredAtomics.cpp): _kp_dfAdd, _kp_dfSub, and
// _kp_dwAdd and _kp_p<N>Add, which fall back to it.
bool deferredSum(std::string_view name) {
    return name == "_kp_dfAdd" || name == "_kp_dfSub" || name == "_kp_dwAdd" ||
           (name.starts_with("_kp_p") && name.ends_with("Add"));
}

// The header's operation (kernelpad::DeferredAdd...) of a deferred atomic's call name; empty for others.
std::string_view deferredOperation(std::string_view name) {
    if (deferredSum(name)) return name == "_kp_dfSub" ? "DeferredSub" : "DeferredAdd";
    static const std::map<std::string_view, std::string_view> others = {{"_kp_dfMin", "DeferredMin"},
                                                                        {"_kp_dfMax", "DeferredMax"},
                                                                        {"_kp_dfAnd", "DeferredAnd"},
                                                                        {"_kp_dfOr", "DeferredOr"},
                                                                        {"_kp_dfXor", "DeferredXor"}};
    const auto found = others.find(name);
    return found == others.end() ? std::string_view() : found->second;
}

// The block's deferred sums. One into a pointer parameter itself (`atomicAdd(total, v * v)` renamed
// _kp_p1Add(total, ...)) is kept in the block function, in a local that the header's kernelpad::BlockSum
// adds the block's threads into; so too a deferred atomicMin, atomicMax, atomicAnd, atomicOr or atomicXor
// (`atomicMax(hi, v)`), folded. The local is declared under the call's name, so that the calls in the body
// are its own, with a sum for each parameter that a call of that name names alone (`atomicMax(hi, v)` and
// `atomicMax(floor, v)` share _kp_dfMax); another address goes to the call. It hands each sum to the call
// when the block ends. Only where `declare`: not in bounds mode, where the parameters are checked
// pointers, nor with a lambda in the body, which could copy the local. A private add that never names its
// parameter alone (`atomicAdd(&bins[v], 1u)` renamed _kp_p1Add) is declared too, as the header's
// kernelpad::PrivateAdds, which reads once for the block whether the launch gave the worker a copy of
// the buffer. The other sums fold into lanes picked by the thread (the header's kernelpad::deferred).
struct BlockSums {
    std::string declarations;
    bool lanes = false; // some deferred sum in the body is not a block sum: the thread loops store its lane
    std::vector<std::string> lanedCalls; // the calls of those sums, `_kp_dfAdd(`
};

// The generated body with the lane stores of only the thread loops that call a sum that folds into lanes:
// in a loop without one, the store (to the thread's state) kept the loop from vectorising
// (cooperative_groups_reduction's strided loop took 5.6 ms where it had taken 0.74). Thread loops follow
// one another, so a loop's text runs from its store to the next one's; the text between them that is not
// in the loop is the block's own statements, which call no sum.
std::string keepLaneStores(const std::string& body, const std::vector<std::string>& lanedCalls) {
    std::vector<std::size_t> stores;
    for (std::size_t at = body.find(kLaneStore); at != std::string::npos; at = body.find(kLaneStore, at + 1))
        stores.push_back(at);
    std::string out;
    std::size_t from = 0;
    for (std::size_t i = 0; i < stores.size(); ++i) {
        const std::size_t end = i + 1 < stores.size() ? stores[i + 1] : body.size();
        const std::string_view loop = std::string_view(body).substr(stores[i], end - stores[i]);
        const bool adds = std::any_of(lanedCalls.begin(), lanedCalls.end(),
                                      [&](const std::string& call) { return loop.find(call) != loop.npos; });
        if (adds) continue;
        out.append(body, from, stores[i] - from);
        from = stores[i] + kLaneStore.size();
    }
    out.append(body, from, std::string::npos);
    return out;
}
BlockSums blockSums(const Kernel& k, std::size_t first, std::size_t last,
                    const std::set<std::string>& pointers, bool declare) {
    struct Calls {
        std::vector<std::string> bases; // the parameters its calls name alone, in order
        bool other = false;             // a call at another address
    };
    std::map<std::string, Calls> calls;
    std::vector<std::string> names; // in the order of their first call
    for (std::size_t t = first; t + 1 < last; ++t) {
        const std::string_view name = k.text(t);
        if (deferredOperation(name).empty() || !k.identifier(t) || !k.is(t + 1, "(")) continue;
        const bool bare = declare && t + 3 < last && k.identifier(t + 2) && k.is(t + 3, ",") &&
                          pointers.count(std::string(k.text(t + 2))) &&
                          !(t > first && (k.is(t - 1, "::") || k.is(t - 1, ".") || k.is(t - 1, "->")));
        const auto [at, fresh] = calls.try_emplace(std::string(name));
        if (fresh) names.emplace_back(name);
        const std::string parameter(k.text(t + 2));
        if (!bare)
            at->second.other = true;
        else if (std::find(at->second.bases.begin(), at->second.bases.end(), parameter) ==
                 at->second.bases.end())
            at->second.bases.push_back(parameter);
    }
    BlockSums out;
    for (const std::string& name : names) {
        const Calls& c = calls.at(name);
        if (c.other && deferredSum(name)) { // the sum's call, without a copy, folds into lanes
            out.lanes = true;
            out.lanedCalls.push_back(name + "(");
        }
        if (!declare) continue;
        const std::string call = "[](auto __kp_a, auto __kp_v) { ::" + name + "(__kp_a, __kp_v); }";
        if (!c.bases.empty()) {
            std::string bases;
            for (const std::string& b : c.bases)
                bases += ", " + b;
            out.declarations += "auto " + name + " = ::kernelpad::blockSum<::kernelpad::" +
                                std::string(deferredOperation(name)) + ">(" + call + bases + ");\n";
        } else if (name.starts_with("_kp_p")) { // a private add at addresses of its own
            out.declarations += "const auto " + name + " = ::kernelpad::privateAdds<" +
                                name.substr(5, name.size() - 8) + ">(" + call + ");\n";
        }
    }
    return out;
}

} // namespace

std::size_t offsetOf(const std::string& text, int line, int column) {
    std::size_t at = 0;
    for (int l = 1; l < line; ++l) {
        at = text.find('\n', at);
        if (at == std::string::npos) return at;
        ++at;
    }
    return column < 1 ? std::string::npos : at + static_cast<std::size_t>(column - 1);
}

namespace {

// The kernel whose name is at (line, column) of `source`, read as statements.
struct Parsed {
    Kernel k;
    std::size_t open = 0;     // the parameter list's '('
    std::size_t bodyOpen = 0; // the body's '{'
    Stmt root;
};

// The kernel's cooperative groups, when it uses them in the ways the split takes: variables declared as
// `thread_block b = this_thread_block();` and `thread_block_tile<N> t = tiled_partition<N>(b);` (or auto,
// qualified or not), then used only through their methods and cooperative groups' reduce and sync. A
// barrier of the block is then a __syncthreads(), and a tile's shuffle, vote, sync or reduce a warp
// operation. Anything else (a group passed to a helper, coalesced or grid groups, scans) leaves the
// kernel to fibers, with the reason.
void findGroups(Kernel& k, std::size_t bodyOpen, std::size_t bodyClose) {
    Kernel::Groups g;
    std::set<std::size_t> made; // this_thread_block / tiled_partition tokens of the declarations
    const auto line = [&](std::size_t i) { return std::to_string(k.token(i).line); };
    // Declarations first: `NAME = [ns ::] this_thread_block ( ) ;`, `NAME = [ns ::] tiled_partition < N > ( G
    // ) ;`.
    for (std::size_t i = bodyOpen + 1; i < bodyClose; ++i) {
        const bool block =
            k.is(i, "this_thread_block") && k.is(i + 1, "(") && k.is(i + 2, ")") && k.is(i + 3, ";");
        const bool tile = k.is(i, "tiled_partition") && k.is(i + 1, "<") &&
                          k.token(i + 2).kind == TokenKind::Number && k.is(i + 3, ">") && k.is(i + 4, "(") &&
                          k.is(i + 6, ")") && k.is(i + 7, ";");
        if (!block && !tile) continue;
        const std::size_t start = k.is(i - 1, "::") ? i - 2 : i;
        if (!k.is(start - 1, "=") || !k.identifier(start - 2))
            throw NotSplit{"cooperative groups made other than into a variable at line " + line(i)};
        const std::string name(k.text(start - 2));
        made.insert(i);
        if (block) {
            g.blocks.insert(name);
            continue;
        }
        const std::string parent(k.text(i + 5));
        const std::string size(k.text(i + 2));
        const unsigned n = size.find_first_not_of("0123456789") == std::string::npos && size.size() <= 2
                               ? static_cast<unsigned>(std::stoul(size))
                               : 0;
        if (n == 0 || n > 32 || (n & (n - 1)) != 0 || (!g.blocks.count(parent) && !g.tiles.count(parent)))
            throw NotSplit{"a tile it cannot read at line " + line(i)};
        g.tiles[name] = n;
    }
    if (!g.any()) return;
    k.setGroups(g);
    for (std::size_t i = bodyOpen + 1; i < bodyClose; ++i) {
        const std::string_view t = k.text(i);
        if (isOneOf(t, {"coalesced_threads", "this_grid", "grid_group", "thread_group", "coalesced_group",
                        "labeled_partition", "binary_partition", "inclusive_scan", "exclusive_scan",
                        "memcpy_async", "wait", "wait_prior", "invoke_one"}))
            throw NotSplit{"cooperative groups' " + std::string(t) + " at line " + line(i)};
        // A group made where it is used (cg::sync(cg::this_thread_block());) synchronises through no
        // variable, so nothing here would count it.
        if (isOneOf(t, {"this_thread_block", "tiled_partition"}) && !made.count(i))
            throw NotSplit{"a cooperative group used without a variable of its own at line " + line(i)};
        if (k.groupCall(i, false) || k.groupCall(i, true) ||
            k.groupFunction(i, "reduce") != std::string::npos ||
            k.groupFunction(i, "sync") != std::string::npos)
            ++g.calls;
        const std::string name(t);
        if (!k.identifier(i) || (!g.blocks.count(name) && !g.tiles.count(name)) || k.is(i - 1, ".") ||
            k.is(i - 1, "->") || k.is(i - 1, "::"))
            continue;
        const bool declared = k.is(i + 1, "=");
        const bool method =
            k.is(i + 1, ".") && k.is(i + 3, "(") &&
            isOneOf(k.text(i + 2),
                    {"sync", "thread_rank", "meta_group_rank", "meta_group_size", "size", "num_threads",
                     "group_index", "thread_index", "group_dim", "dim_threads", "shfl", "shfl_down",
                     "shfl_up", "shfl_xor", "any", "all", "ballot", "match_any", "match_all"});
        const bool argument = k.is(i - 1, "(") && (isOneOf(k.text(i - 2), {"reduce", "sync"}) ||
                                                   (k.is(i - 2, ">") && k.is(i - 5, "tiled_partition")));
        if (!declared && !method && !argument)
            throw NotSplit{"the cooperative group " + name +
                           " used other than through its methods, reduce and sync at line " + line(i)};
    }
    k.setGroups(g);
}

// Cooperative groups outside the kernel's body only as `namespace cg = cooperative_groups;` or `using
// namespace cooperative_groups;`, with no group named outside it: no helper synchronises through one.
bool groupsOnlyInKernel(std::string_view source, std::size_t bodyBegin, std::size_t bodyEnd) {
    source::Lexer lexer(source);
    std::vector<Token> tokens;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        if (token.kind != TokenKind::Directive && !token.inDirective) tokens.push_back(token);
    const auto text = [&](std::size_t i) {
        return i < tokens.size() ? lexer.text(tokens[i]) : std::string_view();
    };
    const auto outside = [&](std::size_t i) {
        return tokens[i].offset < bodyBegin || tokens[i].offset >= bodyEnd;
    };
    std::set<std::string_view> aliases;
    std::set<std::size_t> namespaceLines; // tokens of the namespace declarations themselves
    bool usingNamespace = false;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (text(i) != "cooperative_groups" || !outside(i)) continue;
        if (i >= 3 && text(i - 1) == "=" && text(i - 3) == "namespace" && text(i + 1) == ";") {
            aliases.insert(text(i - 2));
            namespaceLines.insert(i - 2);
        } else if (i >= 2 && text(i - 1) == "namespace" && text(i - 2) == "using" && text(i + 1) == ";") {
            usingNamespace = true;
        } else {
            return false;
        }
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (!outside(i) || tokens[i].kind != TokenKind::Identifier || namespaceLines.count(i)) continue;
        if (aliases.count(text(i))) return false;
        if (usingNamespace && isOneOf(text(i), {"thread_block", "thread_block_tile", "this_thread_block",
                                                "tiled_partition", "coalesced_threads", "this_grid",
                                                "thread_group", "coalesced_group", "grid_group"}))
            return false;
    }
    return true;
}

Parsed parse(const std::string& source, int line, int column) {
    const std::size_t name = offsetOf(source, line, column);
    if (name == std::string::npos || name >= source.size())
        throw NotSplit{"the kernel is not where its signature says"};
    Parsed p{Kernel(source, tokenizeKernel(source, name, line, column)), 0, 0, {}};
    const Kernel& k = p.k;
    while (p.open < k.size() && !k.is(p.open, "("))
        ++p.open;
    if (p.open >= k.size()) throw NotSplit{"no parameter list"};
    p.bodyOpen = k.closing(p.open) + 1;
    if (!k.is(p.bodyOpen, "{")) throw NotSplit{"no body after the parameter list"};
    findGroups(p.k, p.bodyOpen, k.closing(p.bodyOpen));
    std::size_t i = p.bodyOpen;
    p.root = p.k.statement(i, k.size());
    return p;
}

// A parameter the kernel writes (`n -= 1;`, `data += offset;`, `&n`) is each thread's own copy in CUDA,
// but the split kernel runs a block's threads in one call of its function, where they would share it: the
// parameter is renamed and each thread's copy declared first thing in the body, on the `{`'s line so
// that every line keeps its number. Returns the source so changed, or nothing when no parameter is written.
std::string localParameters(const std::string& source, const Parsed& parsed,
                            const std::set<std::string>& byReference) {
    const Kernel& k = parsed.k;
    const std::size_t close = k.closing(parsed.open);
    const auto written = [&](std::string_view name) {
        for (std::size_t i = parsed.bodyOpen + 1; i < parsed.root.last; ++i) {
            if (!k.identifier(i) || k.text(i) != name || k.is(i - 1, ".") || k.is(i - 1, "->") ||
                k.is(i - 1, "::"))
                continue;
            if (isAssignment(k.text(i + 1)) || isOneOf(k.text(i + 1), {"++", "--"}) ||
                isOneOf(k.text(i - 1), {"++", "--"}))
                return true;
            // Its address taken (`&n`, `&origin.x`, `(unsigned*)&n`), which could write it. Not `&bins[v]`
            // or `&p->x`, the address of what a pointer points to (every histogram's atomicAdd), nor a
            // binary `mask & n`, `a[k] & n` or `(first + i) & k` (a bitonic sort's direction).
            if (k.is(i - 1, "&") && !k.is(i + 1, "[") && !k.is(i + 1, "->") &&
                !bitwiseAnd(k, i - 1, parsed.bodyOpen))
                return true;
            // A reference bound to it (`int& r = n;`, `auto&& r = n;`), through which it may be written.
            if (k.is(i - 1, "=") && k.identifier(i - 2) && (k.is(i - 3, "&") || k.is(i - 3, "&&")))
                return true;
            // A member written (`origin.x += dx;`).
            if (k.is(i + 1, ".") && (isAssignment(k.text(i + 3)) || isOneOf(k.text(i + 3), {"++", "--"})))
                return true;
            // Passed whole to a function that takes a reference.
            if (k.passedWholeTo(i, parsed.bodyOpen, byReference)) return true;
        }
        return false;
    };
    std::vector<std::size_t> names; // tokens of written parameters' names
    for (std::size_t p = parsed.open + 1, segment = p; p <= close; ++p) {
        if (p < close && !k.is(p, ",")) {
            if (k.is(p, "(") || k.is(p, "[")) p = k.closing(p);
            continue;
        }
        std::size_t nameAt = close;
        for (std::size_t q = segment; q < p && !k.is(q, "=") && !k.is(q, "["); ++q)
            if (k.identifier(q)) nameAt = q;
        if (nameAt < close && nameAt > segment && written(k.text(nameAt))) names.push_back(nameAt);
        segment = p + 1;
    }
    if (names.empty()) return {};
    std::string out = source;
    std::string copies;
    for (const std::size_t n : names) {
        const std::string name(k.text(n));
        copies += " std::decay_t<decltype(__kp_param_" + name + ")> " + name + " = __kp_param_" + name + ";";
    }
    out.insert(k.token(parsed.bodyOpen).end(), copies);
    for (auto n = names.rbegin(); n != names.rend(); ++n)
        out.replace(k.token(*n).offset, k.token(*n).length, "__kp_param_" + std::string(k.text(*n)));
    return out;
}

} // namespace

SplitKernel splitAtBarriers(const std::string& original, int line, int column, const SplitOptions& options) {
    SplitKernel result;
    try {
        // Warp helpers called as statements are inlined first; the kernel is then read again.
        std::vector<std::pair<std::size_t, std::size_t>> inlined;
        Parsed first = parse(original, line, column);
        // Functions taking a reference: the same in every version of the source below (none is added).
        const std::set<std::string> byReference = referenceTakers(original);
        const std::string ownParameters = localParameters(original, first, byReference);
        const std::string& start = ownParameters.empty() ? original : ownParameters;
        if (!ownParameters.empty()) first = parse(start, line, column);
        const std::string withHelpers = inlineWarpHelpers(start, first.k, first.root, inlined);
        const std::string& source = withHelpers.empty() ? start : withHelpers;
        Parsed parsed = withHelpers.empty() ? std::move(first) : parse(source, line, column);
        const Kernel& k = parsed.k;
        const std::size_t open = parsed.open, bodyOpen = parsed.bodyOpen;
        const Stmt& root = parsed.root;
        const std::size_t bodyBegin = k.token(bodyOpen).offset, bodyEnd = k.token(root.last - 1).end();

        const auto& groups = k.groups();
        if (groups.any() && !groupsOnlyInKernel(source, bodyBegin, bodyEnd))
            throw NotSplit{"cooperative groups outside the kernel (a helper that takes a group)"};
        FileUses uses = usesIn(source, bodyBegin, bodyEnd, inlined, groups.any());
        uses.synchronisingCalls += groups.calls;
        enum class Cut { Barrier, Warp, Atomic };
        std::function<int(const Stmt&, Cut)> count = [&](const Stmt& s, Cut what) {
            int n = (what == Cut::Barrier ? s.kind == Stmt::Kind::Barrier
                     : what == Cut::Warp  ? s.warp && !s.atomic
                                          : s.atomic)
                        ? 1
                        : 0;
            for (const Stmt& c : s.children)
                n += count(c, what);
            return n;
        };
        result.barriers = count(root, Cut::Barrier);
        result.warpOperations = count(root, Cut::Warp);
        result.gatheredAtomics = count(root, Cut::Atomic);
        if (uses.synchronisingCalls != result.barriers + result.warpOperations)
            throw NotSplit{
                "synchronisation other than __syncthreads(); and warp operations in the kernel's statements "
                "(in helpers, conditions or expressions, or cooperative groups)"};
        const int meetings = result.barriers + result.warpOperations + result.gatheredAtomics;
        bool anyReturn = false, lambda = false, jump = false;
        for (std::size_t t = bodyOpen; t < root.last; ++t) {
            anyReturn = anyReturn || k.is(t, "return");
            lambda = lambda || (k.is(t, "]") && (k.is(t + 1, "(") || k.is(t + 1, "{")));
            jump = jump || k.is(t, "goto");
        }
        if (anyReturn && lambda) throw NotSplit{"a lambda with a return in the kernel"};
        if (jump && meetings > 0) throw NotSplit{"goto in a kernel with barriers"};

        SplitOptions effective = options;
        // threadIdx read outside the body (helper functions) needs the built-in kept up to date. Warp
        // operations do not: they read the thread loop's linear index (kernelpad_block_state.warpThread).
        // So does a group's thread_rank() and the like (the kernel header reads threadIdx).
        effective.threadIndexInTls = options.threadIndexInTls || uses.threadIdxOutside || groups.any();
        effective.threadIdxOutside = uses.threadIdxOutside;

        // Parameters passed by value: the uniform ones a loop may count with. And the others (pointers).
        std::set<std::string> scalars, pointers;
        for (std::size_t p = open + 1, segment = p, close = k.closing(open); p <= close; ++p) {
            if (p < close && !k.is(p, ",")) {
                if (k.is(p, "(") || k.is(p, "[") || k.is(p, "<")) p = k.is(p, "<") ? p : k.closing(p);
                continue;
            }
            bool byValue = true;
            std::size_t nameAt = close;
            for (std::size_t q = segment; q < p; ++q) {
                // `::kernelpad::Checked<T> p` (a pointer in bounds mode) and any template: not a scalar.
                byValue = byValue && !isOneOf(k.text(q), {"*", "&", "&&", "[", "(", "<"});
                if (k.is(q, "=")) break;
                if (k.identifier(q)) nameAt = q;
            }
            if (byValue && nameAt < close) scalars.insert(std::string(k.text(nameAt)));
            if (!byValue && nameAt < close) pointers.insert(std::string(k.text(nameAt)));
            segment = p + 1;
        }
        const BlockSums sums = blockSums(k, bodyOpen, root.last, pointers, !options.boundsChecked && !lambda);
        effective.deferredSums = sums.lanes;
        // A kernel without barriers split at its grid-stride loop (findStrideBody) that the split cannot
        // take (an auto variable the loop carries) runs as one loop, as before.
        std::string body;
        for (const bool strideBody : {true, false}) {
            Generator generator(k, source, effective, anyReturn && meetings > 0, bodyOpen, root.last, scalars,
                                result.warpOperations + result.gatheredAtomics > 0, byReference);
            generator.declareBlockSums(sums.declarations);
            generator.findUniformVariables(root);
            if (strideBody) generator.findStrideBody(root);
            try {
                generator.collect(root);
                body = keepLaneStores(generator.body(root), sums.lanedCalls);
            } catch (const NotSplit&) {
                if (!generator.stridedBody()) throw;
                continue;
            }
            result.computedActiveMasks = generator.computedActiveMasks();
            result.gridStrideLoops = generator.gridStrideLoops();
            result.insideOut = generator.insideOut();
            break;
        }
        // Lines after the body keep their numbers.
        const auto endLine =
            std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(bodyEnd), '\n') + 1;
        const std::size_t endLineStart = source.rfind('\n', bodyEnd - 1);
        const std::size_t endColumn =
            endLineStart == std::string::npos ? bodyEnd : bodyEnd - endLineStart - 1;
        result.source = source.substr(0, bodyBegin) + body + "\n#line " + std::to_string(endLine) + " \"" +
                        options.fileName + "\"\n" + std::string(endColumn, ' ') + source.substr(bodyEnd);
    } catch (const NotSplit& why) {
        result.source.clear();
        result.reason = why.reason;
    }
    return result;
}

} // namespace kp::cpu
