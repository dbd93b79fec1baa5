#include "SignatureParser.h"

#include "core/source/Lexer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

namespace kp::model {

namespace {

using Severity = Diagnostic::Severity;

// Bounds that keep memory and time linear on hostile input; real sources stay far below them.
constexpr std::size_t kMaxProblems = 100;
constexpr std::size_t kMaxStatementTokens = 4096;    // of the specifiers before a __global__
constexpr std::size_t kMaxDeclarationTokens = 65536; // of one kernel's declaration
constexpr std::size_t kMaxNesting = 256;             // of brackets in a parameter list
constexpr std::size_t kMaxMacroTokens = 64;          // of a macro body we expand

using source::Token;
using source::TokenKind;

class Problems {
public:
    explicit Problems(const std::string& fileName) : fileName_(fileName) {}

    void add(Severity severity, int line, int column, std::string message) {
        if (list_.size() >= kMaxProblems) {
            ++dropped_;
            return;
        }
        list_.push_back(Diagnostic{fileName_, line, column, severity, std::move(message)});
    }

    std::vector<Diagnostic> take() {
        if (dropped_ > 0)
            list_.push_back(Diagnostic{fileName_, 0, 0, Severity::Note,
                                       std::to_string(dropped_) + " more problems not shown"});
        return std::move(list_);
    }

private:
    const std::string& fileName_;
    std::vector<Diagnostic> list_;
    std::size_t dropped_ = 0;
};

// The part of a punctuator the parser takes as one token: it matches brackets one character at a time
// (`>>` closes two templates), so only ..., :: and -> stay whole.
std::size_t pieceLength(std::string_view rest) {
    for (const std::string_view whole : {"...", "::", "->"})
        if (rest.starts_with(whole)) return whole.size();
    return 1;
}

// The lexer's tokens as the parser reads them: directives and comments taken out, `#if 0` groups and the
// `#else` side of `#if 1` skipped, object-like macros whose body holds __global__ expanded, punctuators
// cut into the parser's pieces, and unterminated comments and literals reported.
class TokenStream {
public:
    TokenStream(std::string_view source, Problems& problems)
        : lexer_(source, {.comments = true}), problems_(problems) {}

    std::string_view text(const Token& token) const { return lexer_.text(token); }
    const char* data() const { return lexer_.source().data(); }

    Token next() {
        for (;;) {
            if (expansionAt_ < expansion_.size()) return expansion_[expansionAt_++];
            if (punctuator_.offset + punctuator_.length > pieceAt_) return piece();
            const Token token = lexerNext();
            if (token.kind == TokenKind::End) return token;
            if (token.kind == TokenKind::Directive) {
                directive();
                continue;
            }
            if (token.kind == TokenKind::Comment) {
                comment(token);
                continue;
            }
            if (skipDepth_ > 0) continue;
            if (token.unterminated) literal(token);
            if (token.kind == TokenKind::Identifier && expand(token)) continue;
            if (token.kind == TokenKind::Punct && token.length > pieceLength(text(token))) {
                punctuator_ = token;
                pieceAt_ = token.offset;
                continue;
            }
            return token;
        }
    }

private:
    Token lexerNext() { return pending_ ? *std::exchange(pending_, std::nullopt) : lexer_.next(); }

    Token piece() {
        Token piece = punctuator_;
        piece.offset = pieceAt_;
        piece.length = pieceLength(text(punctuator_).substr(pieceAt_ - punctuator_.offset));
        piece.column = punctuator_.column + static_cast<int>(pieceAt_ - punctuator_.offset);
        piece.spaceBefore = pieceAt_ == punctuator_.offset && punctuator_.spaceBefore;
        pieceAt_ += piece.length;
        return piece;
    }

    void comment(const Token& token) {
        if (token.unterminated)
            problems_.add(Severity::Error, token.line, token.column,
                          "unterminated /* comment: everything after it is ignored; close it with */");
    }

    void literal(const Token& token) {
        if (token.raw) {
            const std::string_view head = text(token);
            const std::size_t quote = head.find('"');
            const std::size_t open = head.find('(', quote);
            problems_.add(Severity::Error, token.line, token.column,
                          "unterminated raw string literal: add )" +
                              std::string(head.substr(quote + 1, open - quote - 1)) + "\"");
        } else if (!token.inDirective) {
            problems_.add(Severity::Warning, token.line, token.column,
                          std::string("missing closing ") + (token.kind == TokenKind::Char ? '\'' : '"') +
                              " before the end of the line");
        }
    }

    // The tokens of the directive whose Directive token was just read. Records macros we expand and
    // tracks the #if groups we skip.
    void directive() {
        std::vector<Token> tokens;
        bool truncated = false;
        Token token = lexerNext();
        for (; token.inDirective; token = lexerNext()) {
            if (token.kind == TokenKind::Comment) {
                comment(token);
                continue;
            }
            if (token.unterminated && skipDepth_ == 0) literal(token);
            for (std::size_t at = 0; at < token.length;) {
                Token piece = token;
                piece.offset += at;
                piece.length =
                    token.kind == TokenKind::Punct ? pieceLength(text(token).substr(at)) : token.length;
                piece.column += static_cast<int>(at);
                piece.spaceBefore = at == 0 && token.spaceBefore;
                at += piece.length;
                if (tokens.size() < kMaxMacroTokens + 3)
                    tokens.push_back(piece);
                else
                    truncated = true;
            }
        }
        pending_ = token;
        if (tokens.empty()) return;
        const std::string_view name = text(tokens[0]);
        if (skipDepth_ > 0)
            conditionWhileSkipping(name, tokens);
        else if (name == "if" || name == "ifdef" || name == "ifndef" || name == "else" || name == "elif" ||
                 name == "elifdef" || name == "elifndef" || name == "endif")
            condition(name, tokens);
        else if (name == "define" && !truncated)
            define(tokens);
        else if (name == "undef" && tokens.size() > 1) {
            macros_.erase(text(tokens[1]));
            typeMacros_.erase(text(tokens[1]));
        }
    }

    // 0 or 1 for `#if 0` / `#if 1` (and #elif), nothing for conditions we do not evaluate.
    std::optional<bool> constantCondition(const std::vector<Token>& tokens) const {
        if (tokens.size() != 2) return std::nullopt;
        const std::string_view value = text(tokens[1]);
        if (value == "0") return false;
        if (value == "1") return true;
        return std::nullopt;
    }

    void condition(std::string_view name, const std::vector<Token>& tokens) {
        if (name == "if" || name == "ifdef" || name == "ifndef") {
            const std::optional<bool> constant = name == "if" ? constantCondition(tokens) : std::nullopt;
            if (constant == false) {
                startSkipping(false);
                return;
            }
            openGroups_.push_back(constant == true);
        } else if (name == "endif") {
            if (!openGroups_.empty()) openGroups_.pop_back();
        } else if (!openGroups_.empty() && openGroups_.back()) {
            // An #else or #elif of `#if 1`: nothing up to the #endif is compiled.
            openGroups_.pop_back();
            startSkipping(true);
        }
    }

    void conditionWhileSkipping(std::string_view name, const std::vector<Token>& tokens) {
        if (name == "if" || name == "ifdef" || name == "ifndef") {
            ++skipDepth_;
        } else if (name == "endif") {
            --skipDepth_;
        } else if (skipDepth_ == 1 && !skipToEndif_ &&
                   (name == "else" || name == "elif" || name == "elifdef" || name == "elifndef")) {
            const std::optional<bool> constant = name == "elif" ? constantCondition(tokens) : std::nullopt;
            if (name == "else" || constant != false) {
                skipDepth_ = 0;
                openGroups_.push_back(constant == true);
            }
        }
    }

    void startSkipping(bool toEndif) {
        skipDepth_ = 1;
        skipToEndif_ = toEndif;
    }

    void define(const std::vector<Token>& tokens) {
        if (tokens.size() < 2 || tokens[1].kind != TokenKind::Identifier) return;
        const std::string_view name = text(tokens[1]);
        macros_.erase(name);
        const bool functionLike = tokens.size() > 2 && text(tokens[2]) == "(" && !tokens[2].spaceBefore;
        if (functionLike) return;
        std::vector<Token> body;
        bool hasGlobal = false;
        for (std::size_t i = 2; i < tokens.size(); ++i) {
            const auto macro = macros_.find(text(tokens[i]));
            if (tokens[i].kind == TokenKind::Identifier && macro != macros_.end()) {
                body.insert(body.end(), macro->second.begin(), macro->second.end());
                hasGlobal = true;
            } else {
                body.push_back(tokens[i]);
                hasGlobal = hasGlobal || text(tokens[i]) == "__global__";
            }
        }
        if (hasGlobal && body.size() <= kMaxMacroTokens) {
            macros_.emplace(name, std::move(body));
            return;
        }
        // `#define real float`: a type a parameter may be declared with.
        typeMacros_.erase(name);
        if (body.empty() || body.size() > 4) return;
        for (const Token& token : body)
            if (token.kind != TokenKind::Identifier && text(token) != "::") return;
        typeMacros_.emplace(name, std::move(body));
    }

public:
    // What an object-like macro of type words (`#define real float`) defined so far stands for.
    const std::vector<Token>* typeMacro(std::string_view name) const {
        const auto macro = typeMacros_.find(name);
        return macro == typeMacros_.end() ? nullptr : &macro->second;
    }

private:
    bool expand(const Token& use) {
        if (macros_.empty()) return false;
        const auto macro = macros_.find(text(use));
        if (macro == macros_.end()) return false;
        expansion_ = macro->second;
        expansionAt_ = 0;
        for (Token& token : expansion_) {
            token.line = use.line;
            token.column = use.column;
        }
        if (!expansion_.empty()) expansion_.front().spaceBefore = use.spaceBefore;
        return true;
    }

    source::Lexer lexer_;
    Problems& problems_;
    std::optional<Token> pending_; // read past a directive's end
    Token punctuator_;             // being cut into pieces, from pieceAt_
    std::size_t pieceAt_ = 0;
    int skipDepth_ = 0;            // nesting of #if groups inside the one being skipped
    bool skipToEndif_ = false;     // an #else cannot end this skip (the #else side of `#if 1`)
    std::vector<bool> openGroups_; // per open #if we read: whether it was `#if 1`
    std::unordered_map<std::string_view, std::vector<Token>> macros_;
    std::unordered_map<std::string_view, std::vector<Token>> typeMacros_;
    std::vector<Token> expansion_;
    std::size_t expansionAt_ = 0;
};

bool isOneOf(std::string_view word, std::initializer_list<std::string_view> words) {
    return std::find(words.begin(), words.end(), word) != words.end();
}

// Followed by a parenthesised argument that is not part of the declarator.
bool isAttributeKeyword(std::string_view word) {
    return isOneOf(word, {"__launch_bounds__", "__attribute__", "__declspec", "alignas", "__align__",
                          "__maxnreg__", "__cluster_dims__", "__noinline__", "noexcept", "throw"});
}

bool isFunctionSpecifier(std::string_view word) {
    return isOneOf(word, {"static", "inline", "__inline__", "__forceinline__", "__noinline__", "extern",
                          "constexpr", "__global__", "__host__", "__device__", "template", "typename"});
}

// Words in a parameter's type that neither name it nor say its element type.
bool isTypeQualifier(std::string_view word) {
    return isOneOf(word, {"const", "volatile", "__restrict__", "__restrict", "restrict", "__grid_constant__",
                          "register", "struct", "class", "union", "enum", "typename"});
}

bool isBuiltinTypeWord(std::string_view word) {
    return isOneOf(word, {"void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float",
                          "double", "wchar_t", "char8_t", "char16_t", "char32_t", "__int128", "auto"});
}

std::optional<DType> namedType(std::string_view word) {
    static constexpr std::array<std::pair<std::string_view, DType>, 21> kNames{{
        {"float", DType::Float32},   {"double", DType::Float64},  {"char", DType::Int8},
        {"short", DType::Int16},     {"int", DType::Int32},       {"signed", DType::Int32},
        {"unsigned", DType::UInt32}, {"long", DType::Int64},      {"__half", DType::Float16},
        {"half", DType::Float16},    {"float2", DType::Float2},   {"float4", DType::Float4},
        {"int2", DType::Int2},       {"int4", DType::Int4},       {"int8_t", DType::Int8},
        {"uint8_t", DType::UInt8},   {"int16_t", DType::Int16},   {"uint16_t", DType::UInt16},
        {"int32_t", DType::Int32},   {"uint32_t", DType::UInt32}, {"int64_t", DType::Int64},
    }};
    for (const auto& [name, type] : kNames)
        if (name == word) return type;
    if (word == "uint64_t" || word == "size_t") return DType::UInt64;
    if (word == "ptrdiff_t" || word == "clock_t") return DType::Int64; // clock_t is long on LP64 hosts
    if (word == "bool") return DType::Bool;
    if (word == "__nv_bfloat16" || word == "nv_bfloat16") return DType::BFloat16;
    if (const auto vector = dtypeFromName(word); vector && isVector(*vector)) return vector; // uchar4, ...
    return std::nullopt;
}

// CUDA's and C++'s own types that no DType stands for (yet): a parameter of one is not matched, but it is
// no unknown name either.
bool knownWithoutDType(std::string_view word) {
    static const std::set<std::string_view> kKnown = {"void",
                                                      "half2",
                                                      "__half2",
                                                      "__nv_bfloat162",
                                                      "nv_bfloat162",
                                                      "dim3",
                                                      "wchar_t",
                                                      "char16_t",
                                                      "char32_t",
                                                      "char8_t",
                                                      "auto",
                                                      "uintptr_t",
                                                      "intptr_t",
                                                      "cudaTextureObject_t",
                                                      "cudaSurfaceObject_t"};
    return kKnown.contains(word);
}

// Combinations of the builtin integer words; `long` is 64 bits, as on the LP64 hosts CUDA runs on.
std::optional<DType> builtinIntegerType(const std::vector<std::string_view>& words) {
    int isSignedCount = 0, isUnsigned = 0, chars = 0, shorts = 0, ints = 0, longs = 0;
    for (const auto word : words) {
        if (word == "signed")
            ++isSignedCount;
        else if (word == "unsigned")
            ++isUnsigned;
        else if (word == "char")
            ++chars;
        else if (word == "short")
            ++shorts;
        else if (word == "int")
            ++ints;
        else if (word == "long")
            ++longs;
        else
            return std::nullopt;
    }
    if ((isSignedCount > 0 && isUnsigned > 0) || isSignedCount > 1 || isUnsigned > 1 || chars > 1 ||
        shorts > 1 || ints > 1 || longs > 2)
        return std::nullopt;
    const bool u = isUnsigned > 0;
    if (chars > 0)
        return shorts + ints + longs > 0 ? std::nullopt : std::optional(u ? DType::UInt8 : DType::Int8);
    if (shorts > 0) return longs > 0 ? std::nullopt : std::optional(u ? DType::UInt16 : DType::Int16);
    if (longs > 0) return u ? DType::UInt64 : DType::Int64;
    return u ? DType::UInt32 : DType::Int32;
}

std::optional<DType> elementType(std::vector<std::string_view> words) {
    if (words.size() >= 2 && words[0] == "std" && words[1] == "::")
        words.erase(words.begin(), words.begin() + 2);
    if (!words.empty() && words[0] == "::") words.erase(words.begin());
    if (words.empty()) return std::nullopt;
    if (words.size() == 1) return namedType(words[0]);
    return builtinIntegerType(words);
}

struct Found {
    KernelSignature kernel;
    std::string key; // name and parameter types: what tells a prototype's definition apart from overloads
    bool hasBody = false;
};

// What stands before the kernel's name: linkage, template header and return type.
struct Specifiers {
    bool externC = false;
    bool isTemplate = false;
    std::vector<std::string> templateParameters;
    std::vector<Token> returnType;
};

class Parser {
public:
    Parser(std::string_view source, const std::string& fileName)
        : problems_(fileName), tokens_(source, problems_) {}

    ParseResult run() {
        for (Token token = take(); token.kind != TokenKind::End; token = take()) {
            if (is(token, "__global__")) {
                declaration(token);
                statement_.clear();
            } else if (is(token, ";")) {
                noteAlias();
                statement_.clear();
            } else if (is(token, "{")) {
                openBlock();
            } else if (is(token, "}")) {
                closeBlock();
            } else {
                remember(token);
            }
        }
        ParseResult result;
        for (auto& found : found_)
            result.kernels.push_back(std::move(found.kernel));
        result.problems = problems_.take();
        return result;
    }

private:
    std::string_view text(const Token& token) const { return tokens_.text(token); }
    // The hot path of the whole parser: called several times per token, so it avoids substr and memcmp.
    bool is(const Token& token, std::string_view word) const {
        if (token.length != word.size() || token.kind == TokenKind::String || token.kind == TokenKind::Char)
            return false;
        const char* at = tokens_.data() + token.offset;
        for (std::size_t i = 0; i < word.size(); ++i)
            if (at[i] != word[i]) return false;
        return true;
    }
    bool isIdentifier(const Token& token) const { return token.kind == TokenKind::Identifier; }

    Token take() {
        if (pushedBack_) return *std::exchange(pushedBack_, std::nullopt);
        return tokens_.next();
    }
    void putBack(const Token& token) { pushedBack_ = token; }

    void remember(const Token& token) {
        statement_.push_back(token);
        if (statement_.size() > kMaxStatementTokens)
            statement_.erase(statement_.begin(), statement_.begin() + kMaxStatementTokens / 2);
    }

    // `typedef float real;` and `using real = float;`: a name a parameter's type may be declared with.
    // Only aliases of plain type words are kept (not of pointers, arrays or function types).
    void noteAlias() {
        const std::size_t n = statement_.size();
        const auto plain = [&](std::size_t begin, std::size_t end) {
            if (begin >= end || end - begin > 4) return false;
            for (std::size_t i = begin; i < end; ++i)
                if (!isIdentifier(statement_[i]) && !is(statement_[i], "::")) return false;
            return true;
        };
        if (n >= 3 && is(statement_[0], "typedef") && isIdentifier(statement_[n - 1]) && plain(1, n - 1))
            aliases_[text(statement_[n - 1])] = {statement_.begin() + 1, statement_.end() - 1};
        else if (n >= 4 && is(statement_[0], "using") && isIdentifier(statement_[1]) &&
                 is(statement_[2], "=") && plain(3, n))
            aliases_[text(statement_[1])] = {statement_.begin() + 3, statement_.end()};
    }

    // A parameter's type tokens with the aliases and type macros in it replaced by what they name.
    std::vector<Token> withoutAliases(const std::vector<Token>& type, int depth = 0) const {
        constexpr int kMaxDepth = 8;
        std::vector<Token> out;
        for (const Token& token : type) {
            const std::vector<Token>* named = nullptr;
            if (isIdentifier(token) && depth < kMaxDepth) {
                const auto alias = aliases_.find(text(token));
                named = alias != aliases_.end() ? &alias->second : tokens_.typeMacro(text(token));
            }
            if (!named) {
                out.push_back(token);
                continue;
            }
            for (Token word : withoutAliases(*named, depth + 1)) {
                word.line = token.line;
                word.column = token.column;
                out.push_back(word);
            }
        }
        return out;
    }

    void openBlock() {
        const std::size_t n = statement_.size();
        const bool externC = n >= 2 && is(statement_[n - 2], "extern") && text(statement_[n - 1]) == "\"C\"";
        blocks_.push_back(externC);
        externCBlocks_ += externC ? 1 : 0;
        statement_.clear();
    }

    void closeBlock() {
        if (!blocks_.empty()) {
            externCBlocks_ -= blocks_.back() ? 1 : 0;
            blocks_.pop_back();
        }
        statement_.clear();
    }

    std::string join(const std::vector<Token>& tokens, std::size_t begin, std::size_t end) const {
        std::string joined;
        for (std::size_t i = begin; i < end; ++i) {
            if (i > begin && tokens[i].spaceBefore) joined += ' ';
            joined += text(tokens[i]);
        }
        return joined;
    }

    // Index of the bracket that opens the group closed at `close`, scanning back no further than `floor`.
    std::optional<std::size_t> openerBefore(const std::vector<Token>& tokens, std::size_t floor,
                                            std::size_t close, std::string_view open) const {
        const std::string_view closer = text(tokens[close]);
        int depth = 0;
        for (std::size_t i = close + 1; i-- > floor;) {
            if (is(tokens[i], closer))
                ++depth;
            else if (is(tokens[i], open) && --depth == 0)
                return i;
        }
        return std::nullopt;
    }

    // Where the specifiers right before __global__ begin: earlier tokens (a macro call without a
    // semicolon, say) are not part of the declaration.
    std::size_t specifiersStart() const {
        std::size_t i = statement_.size();
        while (i > 0) {
            const Token& token = statement_[i - 1];
            if (isIdentifier(token) || token.kind == TokenKind::String || is(token, "::")) {
                --i;
                continue;
            }
            std::optional<std::size_t> open;
            if (is(token, ")")) {
                open = openerBefore(statement_, 0, i - 1, "(");
                if (open && (*open == 0 || !isAttributeKeyword(text(statement_[*open - 1])))) open.reset();
            } else if (is(token, "]")) {
                open = openerBefore(statement_, 0, i - 1, "[");
            } else if (is(token, ">")) {
                open = openerBefore(statement_, 0, i - 1, "<");
                if (open && (*open == 0 || !is(statement_[*open - 1], "template"))) open.reset();
            }
            if (!open) break;
            i = *open;
        }
        return i;
    }

    std::vector<std::string> templateParameters(const std::vector<Token>& tokens, std::size_t open,
                                                std::size_t close) const {
        std::vector<std::string> parameters;
        int depth = 0;
        std::size_t begin = open + 1;
        for (std::size_t i = open + 1; i <= close; ++i) {
            const Token& token = tokens[i];
            if (is(token, "(") || is(token, "[") || is(token, "{") || is(token, "<"))
                ++depth;
            else if (i < close && (is(token, ")") || is(token, "]") || is(token, "}") || is(token, ">")))
                --depth;
            if ((depth == 0 && is(token, ",")) || i == close) {
                if (i > begin) parameters.push_back(join(tokens, begin, i));
                begin = i + 1;
            }
        }
        return parameters;
    }

    Specifiers specifiersBefore() const {
        Specifiers specifiers;
        specifiers.externC = externCBlocks_ > 0;
        const std::size_t end = statement_.size();
        for (std::size_t i = specifiersStart(); i < end; ++i) {
            const Token& token = statement_[i];
            if (is(token, "extern") && i + 1 < end && statement_[i + 1].kind == TokenKind::String) {
                specifiers.externC = specifiers.externC || text(statement_[i + 1]) == "\"C\"";
                ++i;
            } else if (is(token, "template")) {
                specifiers.isTemplate = true;
                if (i + 1 < end && is(statement_[i + 1], "<")) {
                    const std::size_t close = closerAfter(statement_, i + 1, "<", ">");
                    specifiers.templateParameters = templateParameters(statement_, i + 1, close);
                    i = close;
                }
            } else if (isAttributeKeyword(text(token)) && i + 1 < end && is(statement_[i + 1], "(")) {
                i = closerAfter(statement_, i + 1, "(", ")");
            } else if (is(token, "[")) {
                i = closerAfter(statement_, i, "[", "]");
            } else if (!isFunctionSpecifier(text(token)) && token.kind != TokenKind::String) {
                specifiers.returnType.push_back(token);
            }
        }
        return specifiers;
    }

    // The bracket closing the one at `open`; the last index when it stays open (never, for groups
    // specifiersStart matched).
    std::size_t closerAfter(const std::vector<Token>& tokens, std::size_t open, std::string_view opener,
                            std::string_view closer) const {
        int depth = 0;
        for (std::size_t i = open; i < tokens.size(); ++i) {
            if (is(tokens[i], opener))
                ++depth;
            else if (is(tokens[i], closer) && --depth == 0)
                return i;
        }
        return tokens.size() - 1;
    }

    void error(const Token& at, std::string message) {
        problems_.add(Severity::Error, at.line, at.column, std::move(message));
    }

    std::string describe(const Token& token) const {
        if (token.kind == TokenKind::End) return "the end of the file";
        return "'" + std::string(text(token).substr(0, 40)) + "' at line " + std::to_string(token.line) +
               ", column " + std::to_string(token.column);
    }

    // Skips a parenthesised group whose '(' was just taken. False (with the stray token put back)
    // when the group does not close before a ';', a brace or the end.
    bool skipGroup(const Token& open, std::string_view what) {
        int depth = 1;
        for (std::size_t count = 0; count < kMaxDeclarationTokens; ++count) {
            const Token token = take();
            if (token.kind == TokenKind::End || is(token, ";") || is(token, "{") || is(token, "}") ||
                is(token, "__global__")) {
                error(open, "unbalanced parentheses: the '(' of " + std::string(what) +
                                " is not closed before " + describe(token) + "; add the missing ')'");
                putBack(token);
                return false;
            }
            if (is(token, "("))
                ++depth;
            else if (is(token, ")") && --depth == 0)
                return true;
        }
        error(open, "the '(' of " + std::string(what) + " is not closed within " +
                        std::to_string(kMaxDeclarationTokens) + " tokens; add the missing ')'");
        return false;
    }

    struct Head {
        Token name;
        Token open; // the '(' of the parameter list
        std::vector<Token> returnType;
    };

    // From after __global__ to the parameter list's '('.
    std::optional<Head> head(const Token& global) {
        Head head;
        std::vector<Token> tokens;
        for (;;) {
            const Token token = take();
            if (token.kind == TokenKind::End || is(token, ";") || is(token, "{") || is(token, "}") ||
                is(token, "=") || tokens.size() >= kMaxDeclarationTokens) {
                error(global, "__global__ is not followed by a function declaration (found " +
                                  describe(token) + " before any parameter list)");
                putBack(token);
                return std::nullopt;
            }
            if (isAttributeKeyword(text(token))) {
                const Token next = take();
                if (!is(next, "("))
                    putBack(next);
                else if (!skipGroup(next, std::string(text(token))))
                    return std::nullopt;
                continue;
            }
            if (is(token, "(")) {
                const std::optional<std::size_t> name = nameBeforeParameters(tokens);
                if (!name) {
                    error(token, "no function name before the parameter list of this __global__ declaration");
                    putBack(token);
                    return std::nullopt;
                }
                head.name = tokens[*name];
                head.open = token;
                for (std::size_t i = 0; i < *name; ++i)
                    if (!isFunctionSpecifier(text(tokens[i])) && !is(tokens[i], "[") && !is(tokens[i], "]"))
                        head.returnType.push_back(tokens[i]);
                return head;
            }
            tokens.push_back(token);
        }
    }

    // `name(` or, for an explicit specialisation, `name<float>(`.
    std::optional<std::size_t> nameBeforeParameters(const std::vector<Token>& tokens) const {
        if (tokens.empty()) return std::nullopt;
        std::size_t last = tokens.size() - 1;
        if (is(tokens[last], ">")) {
            const std::optional<std::size_t> open = openerBefore(tokens, 0, last, "<");
            if (!open || *open == 0) return std::nullopt;
            last = *open - 1;
        }
        if (!isIdentifier(tokens[last]) || isBuiltinTypeWord(text(tokens[last])) ||
            isFunctionSpecifier(text(tokens[last])))
            return std::nullopt;
        return last;
    }

    // The tokens between the parameter list's parentheses, or nothing when they do not balance.
    std::optional<std::vector<Token>> parameterTokens(const Head& head) {
        std::vector<Token> tokens;
        std::string open;
        for (;;) {
            const Token token = take();
            const std::string_view word = token.kind == TokenKind::Punct ? text(token) : std::string_view{};
            const bool closes = word == ")" || word == "]" || word == "}";
            if (open.empty() && word == ")") return tokens;
            const char expected = open.empty() ? ')'
                                               : (open.back() == '('   ? ')'
                                                  : open.back() == '[' ? ']'
                                                                       : '}');
            // No recursion reads the brackets, but 50,000 of them are no parameter list: say so where
            // they get too deep, rather than call them unbalanced.
            if (open.size() == kMaxNesting && (word == "(" || word == "[" || word == "{")) {
                error(token, "nesting deeper than " + std::to_string(kMaxNesting) + " levels at line " +
                                 std::to_string(token.line) +
                                 " in the parameter list of __global__ function '" +
                                 std::string(text(head.name)) + "'");
                return std::nullopt;
            }
            if (tokens.size() >= kMaxDeclarationTokens) {
                error(head.open, "the parameter list of __global__ function '" +
                                     std::string(text(head.name)) + "' is longer than " +
                                     std::to_string(kMaxDeclarationTokens) + " tokens");
                return std::nullopt;
            }
            if (token.kind == TokenKind::End || word == ";" || is(token, "__global__") ||
                (closes && word[0] != expected)) {
                error(head.open, "unbalanced parentheses in the parameter list of __global__ function '" +
                                     std::string(text(head.name)) + "': its '(' is not closed before " +
                                     describe(token) + "; add the missing ')'");
                putBack(token);
                return std::nullopt;
            }
            if (word == "(" || word == "[" || word == "{")
                open += word[0];
            else if (closes)
                open.pop_back();
            tokens.push_back(token);
        }
    }

    // After the ')': a body, a ';', or a trailing return type first. True when a body follows.
    bool bodyFollows(std::vector<Token>& trailingReturn) {
        bool afterArrow = false;
        for (std::size_t count = 0;; ++count) {
            const Token token = take();
            if (token.kind == TokenKind::End || is(token, ";") || is(token, "{") || is(token, "}") ||
                is(token, "__global__") || count >= kMaxDeclarationTokens) {
                putBack(token);
                return is(token, "{");
            }
            if (afterArrow && trailingReturn.size() < 16) trailingReturn.push_back(token);
            afterArrow = afterArrow || is(token, "->");
        }
    }

    void checkReturnType(const Token& name, std::vector<Token> returnType,
                         const std::vector<Token>& trailing) {
        const auto isAuto = [&](const Token& token) { return is(token, "auto"); };
        if (!trailing.empty() && std::any_of(returnType.begin(), returnType.end(), isAuto))
            returnType = trailing;
        const bool hasVoid = std::any_of(returnType.begin(), returnType.end(),
                                         [&](const Token& token) { return is(token, "void"); });
        const bool indirect = std::any_of(returnType.begin(), returnType.end(), [&](const Token& token) {
            return is(token, "*") || is(token, "&") || is(token, "&&");
        });
        if (hasVoid && !indirect) return;
        const std::string kernel = "__global__ function '" + std::string(text(name)) + "'";
        if (returnType.empty())
            error(name, kernel + " declares no return type; write 'void' before its name");
        else
            error(returnType.front(), kernel + " must return void, not '" +
                                          join(returnType, 0, returnType.size()) +
                                          "'; return results through pointer parameters");
    }

    void declaration(const Token& global) {
        Specifiers specifiers = specifiersBefore();
        const std::optional<Head> found = head(global);
        if (!found) return;
        const std::optional<std::vector<Token>> tokens = parameterTokens(*found);
        if (!tokens) return;
        std::vector<Token> trailingReturn;
        const bool hasBody = bodyFollows(trailingReturn);
        std::vector<Token> returnType = std::move(specifiers.returnType);
        returnType.insert(returnType.end(), found->returnType.begin(), found->returnType.end());
        checkReturnType(found->name, std::move(returnType), trailingReturn);

        Found kernel;
        kernel.kernel.name = std::string(text(found->name));
        kernel.kernel.externC = specifiers.externC;
        kernel.kernel.isTemplate = specifiers.isTemplate;
        kernel.kernel.templateParameters = std::move(specifiers.templateParameters);
        kernel.kernel.line = found->name.line;
        kernel.kernel.column = found->name.column;
        kernel.key = kernel.kernel.name + "(";
        for (const auto& parameter : splitParameters(*tokens)) {
            kernel.kernel.parameters.push_back(makeParameter(parameter, kernel.kernel.parameters.size()));
            for (const Token& token : parameter.declarator)
                if (!parameter.name || &token != &parameter.declarator[*parameter.name])
                    kernel.key.append(text(token)).push_back(' ');
            kernel.key += ",";
        }
        kernel.hasBody = hasBody;
        add(std::move(kernel));
    }

    struct ParameterTokens {
        std::vector<Token> declarator;   // type and name
        std::vector<Token> defaultValue; // after '='
        std::optional<std::size_t> name; // index into declarator
    };

    std::vector<ParameterTokens> splitParameters(const std::vector<Token>& tokens) const {
        std::vector<ParameterTokens> parameters(1);
        int depth = 0;
        int angles = 0;
        bool inDefault = false;
        for (const Token& token : tokens) {
            if (is(token, "(") || is(token, "[") || is(token, "{"))
                ++depth;
            else if (is(token, ")") || is(token, "]") || is(token, "}"))
                --depth;
            else if (!inDefault && is(token, "<"))
                ++angles;
            else if (!inDefault && is(token, ">") && angles > 0)
                --angles;
            if (depth == 0 && angles == 0 && is(token, ",")) {
                parameters.emplace_back();
                inDefault = false;
            } else if (depth == 0 && angles == 0 && !inDefault && is(token, "=")) {
                inDefault = true;
            } else {
                (inDefault ? parameters.back().defaultValue : parameters.back().declarator).push_back(token);
            }
        }
        const bool none = parameters.size() == 1 && parameters[0].defaultValue.empty() &&
                          (parameters[0].declarator.empty() ||
                           (parameters[0].declarator.size() == 1 && is(parameters[0].declarator[0], "void")));
        if (none) return {};
        for (auto& parameter : parameters)
            parameter.name = nameIndex(parameter.declarator);
        return parameters;
    }

    // Which token names the parameter, if any: the last word of the declarator unless it is part of the
    // type (`int`, `T` alone), or the word inside `(*name)` for function pointers and array references.
    std::optional<std::size_t> nameIndex(const std::vector<Token>& tokens) const {
        const auto paren =
            std::find_if(tokens.begin(), tokens.end(), [&](const Token& t) { return is(t, "("); });
        if (paren != tokens.end()) {
            for (auto i = paren; i != tokens.end() && !is(*i, ")"); ++i)
                if (isIdentifier(*i) && !isTypeQualifier(text(*i)))
                    return static_cast<std::size_t>(i - tokens.begin());
            return std::nullopt;
        }
        const auto bracket =
            std::find_if(tokens.begin(), tokens.end(), [&](const Token& t) { return is(t, "["); });
        if (bracket == tokens.begin()) return std::nullopt;
        const auto candidate = static_cast<std::size_t>(bracket - tokens.begin()) - 1;
        const std::string_view word = text(tokens[candidate]);
        if (!isIdentifier(tokens[candidate]) || isTypeQualifier(word) || isBuiltinTypeWord(word))
            return std::nullopt;
        for (std::size_t i = 0; i < candidate; ++i)
            if ((isIdentifier(tokens[i]) && !isTypeQualifier(text(tokens[i]))) || is(tokens[i], ">"))
                return candidate;
        return std::nullopt;
    }

    Parameter makeParameter(const ParameterTokens& tokens, std::size_t index) const {
        const std::vector<Token>& declarator = tokens.declarator;
        Parameter parameter;
        std::vector<Token> type;
        for (std::size_t i = 0; i < declarator.size(); ++i)
            if (i != tokens.name) type.push_back(declarator[i]);
        parameter.typeText = join(type, 0, type.size());
        parameter.defaultValue = join(tokens.defaultValue, 0, tokens.defaultValue.size());
        parameter.name =
            tokens.name ? std::string(text(declarator[*tokens.name])) : "arg" + std::to_string(index);
        const Token* at = tokens.name                    ? &declarator[*tokens.name]
                          : !declarator.empty()          ? &declarator.front()
                          : !tokens.defaultValue.empty() ? &tokens.defaultValue.front()
                                                         : nullptr;
        if (at) {
            parameter.line = at->line;
            parameter.column = at->column;
        }
        describeType(withoutAliases(type), parameter);
        return parameter;
    }

    // Pointer depth, pointee constness and element type from the declarator without its name.
    void describeType(const std::vector<Token>& type, Parameter& parameter) const {
        int indirections = 0;
        bool reference = false;
        bool complex = false;
        bool baseConst = false;
        bool anyConst = false;
        int brackets = 0; // inside an array bound, where any expression may stand
        std::vector<std::string_view> base;
        for (const Token& token : type) {
            const std::string_view word = text(token);
            // A literal, or a word or symbol after the '*' that is no qualifier (`float* extern "C"`), is not
            // a declarator we understand: better no dtype than a wrong one.
            const bool literal = token.kind == TokenKind::String || token.kind == TokenKind::Char;
            const bool strayAfterStar = indirections > 0 && brackets == 0 && word != "*" && word != "[" &&
                                        word != "]" && word != "&" && word != "&&" && !isTypeQualifier(word);
            if (literal || strayAfterStar) complex = true;
            if (word == "[")
                ++brackets;
            else if (word == "]" && brackets > 0)
                --brackets;
            if (brackets > 1 || (brackets == 1 && word != "[")) continue; // a bound's `N * 2` is no pointer
            if (word == "*" || word == "[")
                ++indirections;
            else if (word == "&" || word == "&&")
                reference = true;
            else if (word == "const") {
                anyConst = true;
                baseConst = baseConst || indirections == 0;
            } else if (indirections == 0 && !isTypeQualifier(word) && (isIdentifier(token) || word == "::"))
                base.push_back(word);
            else if (word == "(" || word == "..." || word == "<" ||
                     (indirections == 0 && !isTypeQualifier(word)))
                complex = true;
            if (word == "struct" || word == "class" || word == "union" || word == "enum") complex = true;
        }
        parameter.pointer = indirections > 0;
        parameter.isConst = parameter.pointer ? baseConst : anyConst;
        if (complex || reference || indirections > 1) return;
        if (base.size() == 1 && !knownWithoutDType(base.front()) && !namedType(base.front()))
            parameter.unresolvedType = std::string(base.front());
        parameter.dtype = elementType(std::move(base));
    }

    void add(Found kernel) {
        const auto [at, inserted] = byKey_.emplace(kernel.key, found_.size());
        if (inserted) {
            found_.push_back(std::move(kernel));
            return;
        }
        Found& earlier = found_[at->second];
        // A definition replaces its prototype; defaults and extern "C" may come from either.
        const bool replace = kernel.hasBody && !earlier.hasBody;
        Found& kept = replace ? kernel : earlier;
        const Found& other = replace ? earlier : kernel;
        kept.kernel.externC = kept.kernel.externC || other.kernel.externC;
        for (std::size_t i = 0; i < kept.kernel.parameters.size() && i < other.kernel.parameters.size(); ++i)
            if (kept.kernel.parameters[i].defaultValue.empty())
                kept.kernel.parameters[i].defaultValue = other.kernel.parameters[i].defaultValue;
        if (replace) earlier = std::move(kernel);
    }

    Problems problems_;
    TokenStream tokens_;
    std::optional<Token> pushedBack_;
    std::vector<Token> statement_; // tokens since the last ';', '{' or '}': what may precede __global__
    std::vector<bool> blocks_;     // per open brace: whether it opens an extern "C" block
    std::unordered_map<std::string_view, std::vector<Token>> aliases_; // typedef and using, of type words
    int externCBlocks_ = 0;
    std::vector<Found> found_;
    std::unordered_map<std::string, std::size_t> byKey_;
};

} // namespace

ParseResult parseKernels(std::string_view source, const std::string& fileName) {
    return Parser(source, fileName).run();
}

std::optional<DType> dtypeOfType(std::string_view type) {
    source::Lexer lexer(type);
    std::vector<std::string_view> words;
    for (const auto& token : lexer.rest()) {
        const std::string_view word = lexer.text(token);
        if (token.kind != TokenKind::Identifier && word != "::") return std::nullopt;
        if (!isTypeQualifier(word)) words.push_back(word);
    }
    return elementType(std::move(words));
}

const KernelSignature* findKernel(const ParseResult& result, std::string_view name) {
    const auto found = std::find_if(result.kernels.begin(), result.kernels.end(),
                                    [&](const KernelSignature& kernel) { return kernel.name == name; });
    return found == result.kernels.end() ? nullptr : &*found;
}

} // namespace kp::model
