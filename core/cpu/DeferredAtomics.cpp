#include "DeferredAtomics.h"

#include "BarrierSplit.h"
#include "TokenList.h"
#include "core/source/Lexer.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace kp::cpu {

namespace {

using source::Token;
using source::TokenKind;

// The operation of a CUDA atomic's name ("Add" for atomicAdd, atomicAdd_block, atomicAdd_system); empty
// for any other name.
std::string_view atomicOperation(std::string_view name) {
    if (!name.starts_with("atomic")) return {};
    name.remove_prefix(6);
    for (const std::string_view suffix : {"_block", "_system"})
        if (name.ends_with(suffix)) name.remove_suffix(suffix.size());
    return name;
}

// The atomics whose old value a statement may discard and whose effects fold: the deferred form is
// "_kp_df" + what follows "atomic" (or "_kp_pN", an add that may go to a private copy, or "_kp_dw", a
// windowed add), as long as the original.
bool isDeferrable(std::string_view name) {
    static constexpr std::array<std::string_view, 7> kOperations{"Add", "Sub", "Min", "Max",
                                                                 "And", "Or",  "Xor"};
    return std::find(kOperations.begin(), kOperations.end(), atomicOperation(name)) != kOperations.end();
}

// Any atomic operation CUDA has, which a block's own shared memory may take without a lock.
bool isAtomic(std::string_view name) {
    static constexpr std::array<std::string_view, 11> kOperations{"Add", "Sub",  "Min", "Max", "And", "Or",
                                                                  "Xor", "Exch", "CAS", "Inc", "Dec"};
    return std::find(kOperations.begin(), kOperations.end(), atomicOperation(name)) != kOperations.end();
}

// The identifiers the source's #defines mention: a parameter among them may be read through a macro.
std::vector<std::string> namesInMacros(const std::string& source) {
    std::vector<std::string> names;
    source::Lexer lexer(source);
    bool inDefine = false;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next()) {
        if (token.kind == TokenKind::Directive) {
            const Token word = lexer.next();
            inDefine = word.inDirective && lexer.text(word) == "define";
            continue;
        }
        if (!token.inDirective) inDefine = false;
        if (inDefine && token.kind == TokenKind::Identifier) names.emplace_back(lexer.text(token));
    }
    return names;
}

using Body = TokenList;

// The kernel's tokens from its name to the brace that closes its body; empty where it has a directive
// inside or does not end.
std::vector<Token> kernelTokens(std::string_view source, std::size_t name, int line, int column) {
    source::Lexer lexer(source, {.offset = name, .line = line, .column = column});
    std::vector<Token> tokens;
    int braces = 0;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next()) {
        if (token.kind == TokenKind::Directive) return {};
        tokens.push_back(token);
        const std::string_view text = lexer.text(token);
        if (text == "{") ++braces;
        if (text == "}" && --braces == 0) return tokens;
    }
    return {};
}

// The '(' or '[' that opens the bracket around the token at `at` (after `bodyOpen`), and how many commas
// stand between them outside any inner bracket; none where a statement's ';' or a brace comes first.
std::optional<std::pair<std::size_t, std::size_t>> enclosingBracket(const Body& k, std::size_t at,
                                                                    std::size_t bodyOpen) {
    const std::size_t open = k.enclosing(at, bodyOpen);
    if (open >= k.size() || k.text(open) == "{") return std::nullopt;
    std::size_t commas = 0;
    int depth = 0; // of parentheses and brackets: a brace between (a lambda's body) ends the search too
    for (std::size_t i = open + 1; i < at; ++i) {
        const std::string_view t = k.text(i);
        if (t == "(" || t == "[") ++depth;
        if (t == ")" || t == "]") --depth;
        if (depth == 0 && t == ",") ++commas;
        if (depth == 0 && (t == ";" || t == "{" || t == "}")) return std::nullopt;
    }
    return std::pair{open, commas};
}

// Whether the identifier at `at` is the base of the address of a deferrable atomic call that is a whole
// statement (`atomicAdd(name, v);`, `atomicAdd(&name[i], v);`, `atomicOr(name + i, v);`), and the only
// use of `name` in that address; if so, `call` is where the call's name stands. An index that reads
// `name`, or `name` inside brackets (`&bins[name[i]]`, `*name`), is a read: not deferrable.
bool inDiscardedAtomic(const Body& k, std::size_t at, std::size_t bodyOpen, std::string_view name,
                       std::size_t& call) {
    const std::string_view previous = k.text(at - 1);
    // A C-style cast to a pointer type, `(unsigned long long*)total`, comes before the name too.
    const bool cast = previous == ")" && at >= 2 && k.text(at - 2) == "*";
    if (previous != "(" && previous != "&" && previous != "+" && !cast) return false;
    // Back to the '(' that opens the call, at depth 0 from here.
    const auto enclosing = enclosingBracket(k, at, bodyOpen);
    if (!enclosing || enclosing->second != 0) return false; // not the first argument
    std::size_t open = enclosing->first;
    int depth = 0;
    // The address cast as a whole, `reinterpret_cast<unsigned long long*>(&total[0])` (how CUDA code adds
    // a long long): the call's '(' stands before the cast.
    if (open > bodyOpen + 4 && k.text(open) == "(" && k.text(open - 1) == ">") {
        std::size_t less = open - 1;
        int angles = 0;
        while (less > bodyOpen) {
            const std::string_view t = k.text(less);
            if (t == ">") ++angles;
            if (t == "<" && --angles == 0) break;
            if (t == ";" || t == "{" || t == "}" || t == "(" || t == ")") return false;
            --less;
        }
        const std::string_view kind = k.text(less - 1);
        if (angles != 0 || (kind != "reinterpret_cast" && kind != "static_cast") || k.text(less - 2) != "(" ||
            k.text(k.closing(open) + 1) != ",")
            return false;
        open = less - 2;
    }
    if (open <= bodyOpen + 1 || k.text(open) != "(" || !isDeferrable(k.text(open - 1))) return false;
    call = open - 1;
    const std::string_view before = k.text(call - 1);
    if (before != ";" && before != "{" && before != "}" && before != ")" && before != "else" &&
        before != "do")
        return false;
    const std::size_t close = k.closing(open);
    if (close >= k.size() || k.text(close + 1) != ";") return false;
    // The address is the tokens up to the first comma at depth 0: `name` once in it.
    int uses = 0;
    depth = 0;
    for (std::size_t i = open + 1; i < close; ++i) {
        const std::string_view t = k.text(i);
        if (t == "(" || t == "[" || t == "{") ++depth;
        if (t == ")" || t == "]" || t == "}") --depth;
        if (depth == 0 && t == ",") break;
        if (t == name) ++uses;
    }
    return uses == 1;
}

// The kernel's body as tokens, and where its braces are; empty where the kernel cannot be read.
struct KernelBody {
    Body tokens;
    std::size_t open = 0; // the body's '{'
};
std::optional<KernelBody> kernelBody(const std::string& source, int line, int column) {
    const std::size_t name = offsetOf(source, line, column);
    if (name == std::string::npos || name >= source.size()) return std::nullopt;
    Body k(source, kernelTokens(source, name, line, column));
    std::size_t open = 0;
    while (open < k.size() && k.text(open) != "(")
        ++open;
    if (open >= k.size()) return std::nullopt;
    const std::size_t bodyOpen = k.closing(open) + 1;
    if (bodyOpen >= k.size() || k.text(bodyOpen) != "{") return std::nullopt;
    return KernelBody{std::move(k), bodyOpen};
}

// A __device__ helper that takes a kernel's parameter (`bump(counts, v[i] & 7)`, with
// `__device__ void bump(unsigned* counts, int b) { atomicAdd(&counts[b], 1u); }`): where the helper's
// parameter is touched only by discarded atomics, its atomics are the kernel's own on that buffer.
struct HelperUse {
    std::vector<std::size_t> calls; // the atomic calls on the parameter in the helper's body (in `all`)
    std::string parameter;          // its name in the helper
};

// The source's tokens, all of them; empty where a directive stands inside a definition we need (the
// helper's then is not read).
std::vector<Token> allTokens(std::string_view source) {
    source::Lexer lexer(source);
    std::vector<Token> tokens;
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next())
        tokens.push_back(token);
    return tokens;
}

// If the parameter `at` (in the kernel's tokens `k`) is a whole argument of a call of a helper that is
// defined once in the source as a __device__ function, not a template, called only from this kernel's
// body, and whose parameter in that place the helper touches only through discarded deferrable atomics:
// that use. The helper's atomic calls are then positions in `all`.
std::optional<HelperUse> helperUse(const Body& k, std::size_t at, std::size_t bodyOpen, const Body& all,
                                   std::size_t kernelFirst, std::size_t kernelLast) {
    const std::string_view kernelParameter = k.text(at);
    const std::string_view previous = k.text(at - 1), next = k.text(at + 1);
    if ((previous != "(" && previous != ",") || (next != "," && next != ")")) return std::nullopt;
    const auto enclosing = enclosingBracket(k, at, bodyOpen);
    if (!enclosing) return std::nullopt;
    const auto [open, commas] = *enclosing;
    int depth = 0;
    if (k.text(open) != "(" || k.token(open - 1).kind != TokenKind::Identifier) return std::nullopt;
    const std::string_view before = k.text(open - 2);
    if (before == "." || before == "->" || before == "::") return std::nullopt;
    const std::string_view helper = k.text(open - 1);
    if (helper.starts_with("atomic") || helper.starts_with("__")) return std::nullopt;
    // Every mention of the helper: one definition, the rest calls in this kernel.
    std::optional<std::size_t> definition;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all.text(i) != helper || all.token(i).kind != TokenKind::Identifier) continue;
        const std::size_t offset = all.token(i).offset;
        if (offset >= kernelFirst && offset < kernelLast && all.text(i + 1) == "(") {
            // A call here, with the same parameter in the same place: another one would share the helper's
            // atomics between two buffers, which may then be read, or take other operations.
            std::size_t place = 0, first = i + 2;
            int level = 0;
            for (std::size_t a = i + 2; a < all.size(); ++a) {
                const std::string_view t = all.text(a);
                const bool end = level == 0 && (t == "," || t == ")");
                if (end && place == commas) {
                    if (a != first + 1 || all.text(first) != kernelParameter) return std::nullopt;
                    break;
                }
                if (end && t == ")") return std::nullopt; // fewer arguments
                if (end) {
                    ++place;
                    first = a + 1;
                }
                if (t == "(" || t == "[" || t == "{") ++level;
                if (t == ")" || t == "]" || t == "}") --level;
            }
            continue;
        }
        if (definition || all.text(i + 1) != "(") return std::nullopt;
        const std::size_t close = all.closing(i + 1);
        if (all.text(close + 1) != "{") return std::nullopt; // a declaration, a call elsewhere
        // `__device__` in the declaration before the name, and no template.
        bool device = false;
        for (std::size_t d = i; d > 0; --d) {
            const std::string_view t = all.text(d - 1);
            if (t == ";" || t == "}" || t == "{" || all.token(d - 1).kind == TokenKind::Directive ||
                all.token(d - 1).inDirective)
                break;
            if (t == "template" || t == ">") return std::nullopt;
            device = device || t == "__device__";
        }
        if (!device) return std::nullopt;
        definition = i;
    }
    if (!definition) return std::nullopt;
    // The helper's parameter in the argument's place: `type name` up to its comma.
    const std::size_t hOpen = *definition + 1, hClose = all.closing(hOpen), hBody = hClose + 1;
    std::size_t place = 0;
    std::string parameter;
    depth = 0;
    for (std::size_t i = hOpen + 1; i <= hClose; ++i) {
        const std::string_view t = all.text(i);
        if (t == "(" || t == "[" || t == "<") ++depth;
        if (t == ")" || t == "]" || t == ">") --depth;
        if (i == hClose || (depth == 0 && t == ",")) {
            if (place == commas) {
                if (all.token(i - 1).kind != TokenKind::Identifier || all.text(i - 2) != "*")
                    return std::nullopt;
                parameter = std::string(all.text(i - 1));
                break;
            }
            ++place;
        }
        if (t == "=") return std::nullopt; // a default argument
    }
    if (parameter.empty()) return std::nullopt;
    HelperUse use{{}, parameter};
    const std::size_t hEnd = all.closing(hBody);
    if (hEnd >= all.size()) return std::nullopt;
    for (std::size_t i = hBody + 1; i < hEnd; ++i) {
        if (all.token(i).kind != TokenKind::Identifier || all.text(i) != parameter) continue;
        const std::string_view b = all.text(i - 1);
        if (b == "." || b == "->" || b == "::") continue;
        std::size_t call = 0;
        if (all.token(i).inDirective || !inDiscardedAtomic(all, i, hBody, parameter, call))
            return std::nullopt;
        use.calls.push_back(call);
    }
    if (use.calls.empty()) return std::nullopt;
    return use;
}

// The names the body (from its '{' at `open`) declares __shared__ (static or extern), not pointers:
// `__shared__ unsigned bins[256];`, `extern __shared__ float s[];`. A __shared__ pointer may point anywhere.
std::vector<std::string_view> sharedNames(const Body& k, std::size_t open) {
    std::vector<std::string_view> shared;
    for (std::size_t i = open + 1; i < k.size(); ++i) {
        if (k.text(i) != "__shared__") continue;
        std::size_t end = i;
        while (end < k.size() && k.text(end) != ";")
            ++end;
        std::size_t first = i;
        while (first > open + 1 && k.text(first - 1) != ";" && k.text(first - 1) != "{" &&
               k.text(first - 1) != "}")
            --first;
        bool pointer = false;
        std::vector<std::string_view> names;
        int depth = 0;
        for (std::size_t t = first; t < end; ++t) {
            const std::string_view text = k.text(t);
            if (text == "(" || text == "[" || text == "<") ++depth;
            if (text == ")" || text == "]" || text == ">") --depth;
            if (depth == 0 && (text == "*" || text == "&")) pointer = true;
            if (depth == 0 && k.token(t).kind == TokenKind::Identifier &&
                (t + 1 == end || k.text(t + 1) == "[" || k.text(t + 1) == "," || k.text(t + 1) == "="))
                names.push_back(text);
        }
        if (!pointer) shared.insert(shared.end(), names.begin(), names.end());
        i = end;
    }
    return shared;
}

} // namespace

int rewriteSharedAtomics(std::string& source, int line, int column) {
    const auto body = kernelBody(source, line, column);
    if (!body) return 0;
    const Body& k = body->tokens;
    const std::vector<std::string_view> shared = sharedNames(k, body->open);
    if (shared.empty()) return 0;
    std::vector<std::size_t> calls;
    for (std::size_t i = body->open + 1; i + 2 < k.size(); ++i) {
        if (!isAtomic(k.text(i)) || k.text(i + 1) != "(") continue;
        const std::string_view before = k.text(i - 1);
        if (before == "." || before == "->" || before == "::") continue;
        // The address: `name`, `&name[...]` or `name + ...`, its first tokens.
        std::size_t at = i + 2;
        if (k.text(at) == "&") ++at;
        if (std::find(shared.begin(), shared.end(), k.text(at)) == shared.end()) continue;
        const std::string_view next = k.text(at + 1);
        if (next != "[" && next != "," && next != "+") continue;
        calls.push_back(i);
    }
    for (const std::size_t call : calls)
        source.replace(k.token(call).offset, 6, "_kp_sh"); // "atomic" -> "_kp_sh"
    return static_cast<int>(calls.size());
}

std::vector<DeferredParameter>
rewriteDeferredAtomics(std::string& source, int line, int column,
                       const std::vector<std::pair<std::string, bool>>& parameters) {
    const auto body = kernelBody(source, line, column);
    if (!body) return {};
    const Body& k = body->tokens;
    const std::size_t bodyOpen = body->open;

    std::vector<DeferredParameter> deferred;
    std::vector<std::pair<std::size_t, const char*>> renames, helperRenames; // helpers': tokens of `all`
    std::optional<std::vector<std::string>> macroNames;
    std::optional<Body> all; // the whole source, read once where the kernel passes a parameter to a helper
    const std::size_t kernelFirst = k.token(bodyOpen).offset, kernelLast = k.token(k.size() - 1).end();
    for (std::size_t p = 0; p < parameters.size(); ++p) {
        const auto& [parameter, pointer] = parameters[p];
        if (!pointer || parameter.empty()) continue;
        std::vector<std::size_t> calls;
        std::vector<HelperUse> helpers;
        bool onlyAtomics = true;
        for (std::size_t i = bodyOpen + 1; i + 1 < k.size() && onlyAtomics; ++i) {
            if (k.token(i).kind != TokenKind::Identifier || k.text(i) != parameter) continue;
            const std::string_view before = k.text(i - 1);
            if (before == "." || before == "->" || before == "::") continue; // a member of that name
            std::size_t call = 0;
            onlyAtomics = inDiscardedAtomic(k, i, bodyOpen, parameter, call);
            if (onlyAtomics) {
                calls.push_back(call);
                continue;
            }
            // Passed whole to a helper whose only uses of it are discarded atomics: those are its atomics.
            if (!all) all.emplace(source, allTokens(source));
            auto use = helperUse(k, i, bodyOpen, *all, kernelFirst, kernelLast);
            onlyAtomics = use.has_value();
            if (use) helpers.push_back(std::move(*use));
        }
        if (!onlyAtomics || (calls.empty() && helpers.empty())) continue;
        if (!macroNames) macroNames = namesInMacros(source); // once, for the first candidate
        const auto inMacro = [&](const std::string& name) {
            return std::find(macroNames->begin(), macroNames->end(), name) != macroNames->end();
        };
        if (inMacro(parameter) || std::any_of(helpers.begin(), helpers.end(),
                                              [&](const HelperUse& h) { return inMacro(h.parameter); }))
            continue;
        std::size_t helperCalls = 0;
        for (const HelperUse& h : helpers)
            helperCalls += h.calls.size();
        deferred.push_back({parameter, p, static_cast<int>(calls.size() + helperCalls)});
        // Adds only, each on the parameter as declared (`atomicAdd(&bins[v], 1)`, `atomicAdd(total, v)`; not
        // through a cast, `atomicAdd((float*)&bins[0], ..)`): integer ones go into the worker's window
        // (kernelpad_cuda_host.h), which keeps no order with the table's operations on the same address and
        // needs none, its adds all of one type. So too in the helpers, under the helper's name for it.
        const std::string& name = parameters[p].first; // (clang 14 captures no structured binding)
        const auto addOn = [](const Body& b, std::size_t call, const std::string& on) {
            const std::size_t address = call + 2; // after the call's '('
            return atomicOperation(b.text(call)) == "Add" &&
                   (b.text(address) == on || (b.text(address) == "&" && b.text(address + 1) == on));
        };
        const bool addsOnly =
            std::all_of(calls.begin(), calls.end(), [&](std::size_t call) { return addOn(k, call, name); }) &&
            std::all_of(helpers.begin(), helpers.end(), [&](const HelperUse& h) {
                return std::all_of(h.calls.begin(), h.calls.end(),
                                   [&](std::size_t call) { return addOn(*all, call, h.parameter); });
            });
        // Adds on one of the first ten parameters name it, _kp_p0 to _kp_p9: the launch may give each worker
        // a private copy of its buffer, which the header's privateAdd<N> then adds into without a test.
        static constexpr std::array<const char*, 10> kPrivate{"_kp_p0", "_kp_p1", "_kp_p2", "_kp_p3",
                                                              "_kp_p4", "_kp_p5", "_kp_p6", "_kp_p7",
                                                              "_kp_p8", "_kp_p9"};
        // A helper's adds too: it gets the kernel's argument, so a private copy where the launch gives one.
        deferred.back().privateCopy = addsOnly && p < kPrivate.size();
        const char* const renamed = !addsOnly ? "_kp_df" : p < kPrivate.size() ? kPrivate[p] : "_kp_dw";
        for (const std::size_t call : calls)
            renames.emplace_back(call, renamed);
        for (const HelperUse& h : helpers) // each helper call site passes this parameter (helperUse)
            for (const std::size_t call : h.calls)
                if (std::none_of(helperRenames.begin(), helperRenames.end(),
                                 [&](const auto& r) { return r.first == call; }))
                    helperRenames.emplace_back(call, renamed);
    }
    for (const auto& [call, name] : renames)
        source.replace(k.token(call).offset, 6, name); // "atomic" -> "_kp_df", "_kp_pN" or "_kp_dw"
    for (const auto& [call, name] : helperRenames)
        source.replace(all->token(call).offset, 6, name);
    return deferred;
}

namespace {

// A word of a plain declaration's type: `const unsigned int peers = ...`.
bool declarationWord(std::string_view t) {
    return isOneOf(t, {"const", "unsigned", "signed", "int", "long", "auto", "uint32_t", "int32_t"});
}

// Where the statement declaring the name at `name` begins (`const int lane = ...`: at `const`); none where
// a word before the name is not a type's or nothing declares it there (an assignment).
std::optional<std::size_t> declarationAt(const Body& k, std::size_t name, std::size_t open) {
    std::size_t first = name;
    while (first > open + 1 && !isOneOf(k.text(first - 1), {";", "{", "}"})) {
        --first;
        if (!declarationWord(k.text(first))) return std::nullopt;
    }
    if (first == name || k.text(name + 1) != "=") return std::nullopt;
    return first;
}

// Whether tokens [from, to) are `threadIdx.x % 32`, `% warpSize` or `& 31`: the lane, where a block's rows
// are whole warps or the block has one row.
bool laneExpression(const Body& k, std::size_t from, std::size_t to) {
    return to == from + 5 && k.text(from) == "threadIdx" && k.text(from + 1) == "." &&
           k.text(from + 2) == "x" &&
           ((k.text(from + 3) == "%" && (k.text(from + 4) == "32" || k.text(from + 4) == "warpSize")) ||
            (k.text(from + 3) == "&" && k.text(from + 4) == "31"));
}

// An assignment, increment or address taken at the use of a name at `at` (not an element's address,
// `&bins[v]`).
bool changedAt(const Body& k, std::size_t at) {
    const std::string_view next = k.text(at + 1);
    return isOneOf(next, {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"}) ||
           isOneOf(k.text(at - 1), {"++", "--"}) ||
           (k.text(at - 1) == "&" && !isOneOf(next, {"[", ".", "->"}));
}

} // namespace

int undoWarpAggregation(std::string& source, int line, int column,
                        const std::vector<std::pair<std::string, bool>>& parameters) {
    const auto body = kernelBody(source, line, column);
    if (!body) return 0;
    const Body& k = body->tokens;
    const std::size_t open = body->open;
    // The name's uses in the body, members of that name apart.
    const auto usesOf = [&](std::string_view name) {
        std::vector<std::size_t> at;
        for (std::size_t i = open + 1; i < k.size(); ++i)
            if (k.identifier(i) && k.text(i) == name && !isOneOf(k.text(i - 1), {".", "->", "::"}))
                at.push_back(i);
        return at;
    };
    // Assigned, incremented or its address taken anywhere in [from, to), its declaration apart.
    const auto changed = [&](std::string_view name, std::size_t from, std::size_t to) {
        for (const std::size_t u : usesOf(name))
            if (u >= from && u < to && !declarationAt(k, u, open) && changedAt(k, u)) return true;
        return false;
    };
    // Whether tokens [from, to) stand in one block: every brace opened between them closes there too.
    const auto sameBlock = [&](std::size_t from, std::size_t to) {
        int depth = 0;
        for (std::size_t t = from; t < to && depth >= 0; ++t)
            depth += k.text(t) == "{" ? 1 : k.text(t) == "}" ? -1 : 0;
        return depth == 0;
    };
    // Whether a statement among tokens [from, to) may leave them (a return, a loop's break, ...).
    const auto jumpBetween = [&](std::size_t from, std::size_t to) {
        for (std::size_t t = from; t < to; ++t)
            if (isOneOf(k.text(t), {"return", "continue", "break", "goto", "throw", "asm"})) return true;
        return false;
    };
    std::optional<std::vector<std::string_view>> shared;
    std::vector<std::pair<std::size_t, std::size_t>> blanks; // token ranges [first, last] to blank
    std::vector<std::pair<std::size_t, std::string>> writes; // text written over a blanked token's start
    int undone = 0;
    for (std::size_t i = open + 3; i + 1 < k.size(); ++i) {
        // `[const] unsigned peers = __match_any_sync(mask, value);`
        if (k.text(i) != "__match_any_sync" || k.text(i + 1) != "(" || k.text(i - 1) != "=" ||
            !k.identifier(i - 2))
            continue;
        const std::size_t close = k.closing(i + 1);
        const auto peersDeclaration = declarationAt(k, i - 2, open);
        if (close + 1 >= k.size() || k.text(close + 1) != ";" || !peersDeclaration) continue;
        const std::string_view peers = k.text(i - 2);
        std::size_t comma = i + 2;
        for (int depth = 0; comma < close && !(depth == 0 && k.text(comma) == ","); ++comma) {
            if (isOneOf(k.text(comma), {"(", "["})) ++depth;
            if (isOneOf(k.text(comma), {")", "]"})) --depth;
        }
        // The value, a name; the mask, __activemask() (the lanes running: what a full mask naming lanes gone
        // gives is the warp model's to decide, which the undone form would skip), or a name set to it alone
        // in the same block with no jump between (a lane gone after it would be named and gone too).
        if (comma + 2 != close || !k.identifier(comma + 1)) continue;
        const std::string_view value = k.text(comma + 1);
        std::optional<std::pair<std::size_t, std::size_t>> maskDeclaration;
        if (comma == i + 3 && k.identifier(i + 2)) {
            const auto maskUses = usesOf(k.text(i + 2));
            if (maskUses.size() != 2 || maskUses[1] != i + 2) continue;
            const std::size_t d = maskUses[0];
            const auto first = declarationAt(k, d, open);
            if (!first || k.text(d + 2) != "__activemask" || k.text(d + 3) != "(" || k.text(d + 4) != ")" ||
                k.text(d + 5) != ";")
                continue;
            if (!sameBlock(d, *peersDeclaration) || jumpBetween(d, *peersDeclaration)) continue;
            maskDeclaration = std::pair{*first, d + 5};
        } else if (!(comma == i + 5 && k.text(i + 2) == "__activemask" && k.text(i + 3) == "(" &&
                     k.text(i + 4) == ")")) {
            continue;
        }
        // The peers' other uses: `__ffs(peers) - 1` once (the leader), `__popc(peers)` once (its count).
        std::optional<std::size_t> ffs, popc;
        bool others = false;
        for (const std::size_t u : usesOf(peers)) {
            if (u == i - 2) continue;
            if (k.text(u - 2) == "__ffs" && k.text(u - 1) == "(" && k.text(u + 1) == ")" &&
                k.text(u + 2) == "-" && k.text(u + 3) == "1" && !ffs)
                ffs = u - 2;
            else if (k.text(u - 2) == "__popc" && k.text(u - 1) == "(" && k.text(u + 1) == ")" && !popc)
                popc = u - 2;
            else
                others = true;
        }
        if (others || !ffs || !popc) continue;
        // The count is the second argument of a discarded atomicAdd: `atomicAdd(address, __popc(peers));`.
        const std::size_t callClose = *popc + 4;
        const auto call = enclosingBracket(k, *popc, open);
        if (!call || call->second != 1 || k.text(callClose) != ")" || k.text(callClose + 1) != ";" ||
            k.text(call->first - 1) != "atomicAdd" || k.closing(call->first) != callClose)
            continue;
        const std::size_t atomic = call->first - 1;
        // ... the whole body of an `if (lane == leader)` with no else, in the block of the peers'
        // declaration.
        const bool braced = k.text(atomic - 1) == "{";
        const std::size_t conditionClose = braced ? atomic - 2 : atomic - 1;
        const std::size_t statementEnd = braced ? callClose + 2 : callClose + 1;
        if ((braced && k.text(statementEnd) != "}") || k.text(conditionClose) != ")" ||
            k.text(statementEnd + 1) == "else")
            continue;
        const std::size_t conditionOpen = k.enclosing(conditionClose, open);
        const std::size_t ifAt = conditionOpen - 1;
        if (conditionOpen >= k.size() || k.text(ifAt) != "if" ||
            !isOneOf(k.text(ifAt - 1), {";", "{", "}"}) || ifAt < close)
            continue;
        // ... every lane of the match reaching it: no jump between (a lane that left would take its count
        // with it where it led, and leave it where it did not).
        if (!sameBlock(close, ifAt) || jumpBetween(close, ifAt)) continue;
        // The leader: `__ffs(peers) - 1` in the condition, or a name declared to it and used there alone.
        std::optional<std::pair<std::size_t, std::size_t>> leaderDeclaration;
        std::string_view leader;
        if (*ffs < conditionOpen) {
            const std::size_t name = *ffs - 2;
            const auto first = declarationAt(k, name, open);
            if (!first || *ffs < close || k.text(*ffs + 6) != ";" || usesOf(k.text(name)).size() != 2)
                continue;
            leader = k.text(name);
            leaderDeclaration = std::pair{*first, *ffs + 6};
        }
        // The condition: the lane == the leader, either way round.
        std::size_t equals = 0;
        int equalsSeen = 0;
        for (std::size_t t = conditionOpen + 1; t < conditionClose; ++t)
            if (k.text(t) == "==") {
                equals = t;
                ++equalsSeen;
            }
        if (equalsSeen != 1) continue;
        const auto isLeader = [&](std::size_t from, std::size_t to) {
            return leader.empty() ? (from == *ffs && to == *ffs + 6)
                                  : (to == from + 1 && k.text(from) == leader);
        };
        // The lane: `threadIdx.x % 32` (or a name declared to it before the peers, never changed after).
        std::string_view laneName;
        const auto isLane = [&](std::size_t from, std::size_t to) {
            if (laneExpression(k, from, to)) return true;
            if (to != from + 1 || !k.identifier(from)) return false;
            const auto uses = usesOf(k.text(from));
            if (uses.empty() || uses[0] >= *peersDeclaration) return false;
            const auto first = declarationAt(k, uses[0], open);
            const std::size_t declarationEnd = uses[0] + 7;
            if (!first || !laneExpression(k, uses[0] + 2, declarationEnd) || k.text(declarationEnd) != ";" ||
                changed(k.text(from), declarationEnd, k.size()))
                return false;
            laneName = k.text(from);
            return true;
        };
        const std::size_t left = conditionOpen + 1, right = equals + 1;
        if (!((isLane(left, equals) && isLeader(right, conditionClose)) ||
              (isLeader(left, equals) && isLane(right, conditionClose))))
            continue;
        // Every lane of a group of peers adds to one address: it is the value's, the block's or the
        // launch's (parameters never changed, the block's shared arrays, blockIdx, blockDim, gridDim).
        const std::size_t addressEnd = call->first + 1 + [&] {
            std::size_t n = 0;
            for (int level = 0; !(level == 0 && k.text(call->first + 1 + n) == ","); ++n) {
                if (isOneOf(k.text(call->first + 1 + n), {"(", "["})) ++level;
                if (isOneOf(k.text(call->first + 1 + n), {")", "]"})) --level;
            }
            return n;
        }();
        bool sameAddress = true, valueInAddress = false;
        for (std::size_t t = call->first + 1; t < addressEnd && sameAddress; ++t) {
            const std::string_view text = k.text(t);
            if (k.token(t).kind == TokenKind::Number) continue;
            if (!k.identifier(t)) {
                sameAddress =
                    isOneOf(text, {"&", "[", "]", "+", "-", "*", "(", ")", ".", "%", "/", "<<", ">>"});
                continue;
            }
            if (k.text(t - 1) == ".") {
                sameAddress = isOneOf(text, {"x", "y", "z"});
                continue;
            }
            if (text == value) {
                sameAddress = !changed(value, i, callClose);
                valueInAddress = true;
                continue;
            }
            if (isOneOf(text, {"blockIdx", "blockDim", "gridDim"})) continue;
            if (!shared) shared = sharedNames(k, open);
            const bool parameter = std::any_of(parameters.begin(), parameters.end(),
                                               [&](const auto& p) { return p.first == text; });
            const bool sharedArray = std::find(shared->begin(), shared->end(), text) != shared->end();
            sameAddress = (parameter || sharedArray) && !changed(text, open + 1, k.size());
        }
        if (!sameAddress || !valueInAddress) continue;
        // `(void)lane;` where the peers were declared: the lane's name, now unused, draws no warning.
        const std::string keep = laneName.empty() ? std::string() : "(void)" + std::string(laneName) + ";";
        const std::size_t from = k.token(*peersDeclaration).offset;
        if (source.find('\n', from) < from + keep.size() || k.token(close + 1).end() < from + keep.size())
            continue;
        blanks.emplace_back(*peersDeclaration, close + 1);
        if (!keep.empty()) writes.emplace_back(from, keep);
        if (maskDeclaration) blanks.push_back(*maskDeclaration);
        if (leaderDeclaration) blanks.push_back(*leaderDeclaration);
        blanks.emplace_back(ifAt, conditionClose);
        blanks.emplace_back(*popc, *popc + 3);
        writes.emplace_back(k.token(*popc).offset, "1");
        ++undone;
    }
    for (const auto& [first, last] : blanks)
        for (std::size_t c = k.token(first).offset; c < k.token(last).end(); ++c)
            if (source[c] != '\n') source[c] = ' ';
    for (const auto& [at, text] : writes)
        source.replace(at, text.size(), text);
    return undone;
}

} // namespace kp::cpu
