#include "DeferredAtomics.h"

#include "BarrierSplit.h"
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

class Body {
public:
    Body(std::string_view source, std::vector<Token> tokens) : source_(source), tokens_(std::move(tokens)) {}
    std::string_view text(std::size_t i) const {
        return i < tokens_.size() ? source_.substr(tokens_[i].offset, tokens_[i].length) : std::string_view();
    }
    const Token& token(std::size_t i) const { return tokens_[i]; }
    std::size_t size() const { return tokens_.size(); }
    // The token that closes the bracket at `open`; size() where none does.
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

private:
    std::string_view source_;
    std::vector<Token> tokens_;
};

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
    std::size_t open = at;
    int depth = 0;
    while (open > bodyOpen) {
        --open;
        const std::string_view t = k.text(open);
        if (t == ")" || t == "]") ++depth;
        if ((t == "(" || t == "[") && depth-- == 0) break;
        if (depth == 0 && (t == "," || t == ";" || t == "{" || t == "}"))
            return false; // not the first argument
    }
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
    std::vector<std::pair<std::size_t, const char*>> renames;
    std::optional<std::vector<std::string>> macroNames;
    for (std::size_t p = 0; p < parameters.size(); ++p) {
        const auto& [parameter, pointer] = parameters[p];
        if (!pointer || parameter.empty()) continue;
        std::vector<std::size_t> calls;
        bool onlyAtomics = true;
        for (std::size_t i = bodyOpen + 1; i + 1 < k.size() && onlyAtomics; ++i) {
            if (k.token(i).kind != TokenKind::Identifier || k.text(i) != parameter) continue;
            const std::string_view before = k.text(i - 1);
            if (before == "." || before == "->" || before == "::") continue; // a member of that name
            std::size_t call = 0;
            onlyAtomics = inDiscardedAtomic(k, i, bodyOpen, parameter, call);
            calls.push_back(call);
        }
        if (!onlyAtomics || calls.empty()) continue;
        if (!macroNames) macroNames = namesInMacros(source); // once, for the first candidate
        if (std::find(macroNames->begin(), macroNames->end(), parameter) != macroNames->end()) continue;
        deferred.push_back({parameter, p, static_cast<int>(calls.size())});
        // Adds only, each on the parameter as declared (`atomicAdd(&bins[v], 1)`, `atomicAdd(total, v)`; not
        // through a cast, `atomicAdd((float*)&bins[0], ..)`): integer ones go into the worker's window
        // (kernelpad_cuda_host.h), which keeps no order with the table's operations on the same address and
        // needs none, its adds all of one type.
        const std::string& name = parameters[p].first; // (clang 14 captures no structured binding)
        const bool addsOnly = std::all_of(calls.begin(), calls.end(), [&](std::size_t call) {
            const std::size_t address = call + 2; // after the call's '('
            return atomicOperation(k.text(call)) == "Add" &&
                   (k.text(address) == name || (k.text(address) == "&" && k.text(address + 1) == name));
        });
        // Adds on one of the first ten parameters name it, _kp_p0 to _kp_p9: the launch may give each worker
        // a private copy of its buffer, which the header's privateAdd<N> then adds into without a test.
        static constexpr std::array<const char*, 10> kPrivate{"_kp_p0", "_kp_p1", "_kp_p2", "_kp_p3",
                                                              "_kp_p4", "_kp_p5", "_kp_p6", "_kp_p7",
                                                              "_kp_p8", "_kp_p9"};
        deferred.back().privateCopy = addsOnly && p < kPrivate.size();
        for (const std::size_t call : calls)
            renames.emplace_back(call, !addsOnly ? "_kp_df" : p < kPrivate.size() ? kPrivate[p] : "_kp_dw");
    }
    for (const auto& [call, name] : renames)
        source.replace(k.token(call).offset, 6, name); // "atomic" -> "_kp_df", "_kp_pN" or "_kp_dw"
    return deferred;
}

} // namespace kp::cpu
