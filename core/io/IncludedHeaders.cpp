#include "IncludedHeaders.h"

#include "FileBytes.h"
#include "core/source/Lexer.h"

#include <optional>

namespace kp::io {
namespace fs = std::filesystem;

namespace {

void appendField(std::string& out, std::string_view field) {
    out += std::to_string(field.size());
    out += ':';
    out += field;
}

} // namespace

IncludedHeaders::IncludedHeaders(std::vector<fs::path> searchPath) : searchPath_(std::move(searchPath)) {}

void IncludedHeaders::add(std::string_view text, const fs::path& folder, const std::string& file) {
    add(text, folder, file, 0);
}

void IncludedHeaders::add(std::string_view text, const fs::path& folder, const std::string& file, int depth) {
    constexpr int kMaxDepth = 64;
    if (depth > kMaxDepth) return;
    source::Lexer lexer(text);
    for (source::Token token = lexer.next(); token.kind != source::TokenKind::End;) {
        if (token.kind != source::TokenKind::Directive) {
            token = lexer.next();
            continue;
        }
        const int line = token.line;
        std::vector<source::Token> words;
        for (token = lexer.next(); token.inDirective; token = lexer.next())
            if (words.size() < 2) words.push_back(token);
        // `#include "name"` or `#include <name>`, from the directive's first two tokens.
        if (words.size() < 2 || lexer.text(words[0]) != "include" || words[1].unterminated) continue;
        const bool quoted =
            words[1].kind == source::TokenKind::String && lexer.text(words[1]).starts_with('"');
        if (!quoted && words[1].kind != source::TokenKind::HeaderName) continue;
        const std::string_view spelled = lexer.text(words[1]);
        if (spelled.size() <= 2) continue;
        addHeader({std::string(spelled.substr(1, spelled.size() - 2)), quoted}, folder, file, line, depth);
    }
}

void IncludedHeaders::addHeader(const Include& include, const fs::path& folder, const std::string& file,
                                int line, int depth) {
    const auto path = resolve(include, folder);
    if (path.empty()) return;
    std::error_code error;
    if (!fs::is_regular_file(path, error)) {
        problems_.push_back({file, line, 1, model::Diagnostic::Severity::Error,
                             "#include of " + path.string() +
                                 ", which is not a regular file (a device, a FIFO or a folder): Kernelpad "
                                 "includes only regular files, as reading such a thing may never end"});
        return;
    }
    if (!seen_.insert(path.string()).second) return;
    const auto content = readFileIfPresent(path);
    if (!content) return;
    headers_.push_back(path);
    appendField(fingerprint_, path.string());
    appendField(fingerprint_, *content);
    add(*content, path.parent_path(), path.string(), depth + 1);
}

// The first place the header exists, as a compiler would look (an absolute name is itself), or empty.
fs::path IncludedHeaders::resolve(const Include& include, const fs::path& folder) const {
    std::error_code error;
    const fs::path name(include.name);
    if (name.is_absolute()) return fs::exists(name, error) ? name.lexically_normal() : fs::path();
    if (include.quoted && !folder.empty()) {
        auto candidate = folder / include.name;
        if (fs::exists(candidate, error)) return candidate.lexically_normal();
    }
    for (const auto& searchDir : searchPath_) {
        auto candidate = searchDir / include.name;
        if (fs::exists(candidate, error)) return candidate.lexically_normal();
    }
    return {};
}

} // namespace kp::io
