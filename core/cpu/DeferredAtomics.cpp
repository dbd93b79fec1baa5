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
    std::size_t open = at, commas = 0;
    int depth = 0;
    while (open > bodyOpen) {
        --open;
        const std::string_view t = k.text(open);
        if (t == ")" || t == "]") ++depth;
        if ((t == "(" || t == "[") && depth-- == 0) return std::pair{open, commas};
        if (depth == 0 && t == ",") ++commas;
        if (depth == 0 && (t == ";" || t == "{" || t == "}")) return std::nullopt;
    }
    return std::nullopt;
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

} // namespace

int rewriteSharedAtomics(std::string& source, int line, int column) {
    const auto body = kernelBody(source, line, column);
    if (!body) return 0;
    const Body& k = body->tokens;
    // The names the body declares __shared__ (static or extern), not pointers: `__shared__ unsigned
    // bins[256];`, `extern __shared__ float s[];`. A __shared__ pointer may point anywhere.
    std::vector<std::string_view> shared;
    for (std::size_t i = body->open + 1; i < k.size(); ++i) {
        if (k.text(i) != "__shared__") continue;
        std::size_t end = i;
        while (end < k.size() && k.text(end) != ";")
            ++end;
        std::size_t first = i;
        while (first > body->open + 1 && k.text(first - 1) != ";" && k.text(first - 1) != "{" &&
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

} // namespace kp::cpu
