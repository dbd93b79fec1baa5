#include "DeviceVariables.h"

#include "Lexer.h"

#include <algorithm>
#include <array>

namespace kp::source {

namespace {

// Words of a declaration that are not its type.
bool isQualifier(std::string_view word) {
    static constexpr std::array<std::string_view, 9> kQualifiers{
        "__constant__", "__device__", "__managed__", "static",      "extern",
        "const",        "volatile",   "inline",      "__restrict__"};
    return std::find(kQualifiers.begin(), kQualifiers.end(), word) != kQualifiers.end();
}

} // namespace

std::vector<DeviceVariable> deviceVariables(std::string_view source) {
    Lexer lexer(source);
    const auto tokens = lexer.rest();
    const auto word = [&](std::size_t i) { return lexer.text(tokens[i]); };
    std::vector<DeviceVariable> found;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].inDirective || tokens[i].kind != TokenKind::Identifier) continue;
        const std::string_view space = word(i);
        if (space != "__constant__" && space != "__device__") continue;
        // The declaration's start: back to the statement's beginning, for qualifiers written before it.
        std::size_t start = i;
        while (start > 0 && !tokens[start - 1].inDirective && tokens[start - 1].kind == TokenKind::Identifier)
            --start;
        // Its end: the first '(' (a function), '[', '=', ';', ',' or '{'.
        std::size_t end = i + 1;
        int angle = 0;
        for (; end < tokens.size() && !tokens[end].inDirective; ++end) {
            const std::string_view w = word(end);
            if (w == "<") ++angle;
            if (w == ">" && angle > 0) --angle;
            if (angle > 0) continue;
            if (w == "(" && end > 0 && (word(end - 1) == "__align__" || word(end - 1) == "alignas")) {
                while (end < tokens.size() && word(end) != ")")
                    ++end;
                continue;
            }
            if (w == "(" || w == "[" || w == "=" || w == ";" || w == "," || w == "{") break;
        }
        if (end >= tokens.size() || word(end) == "(" || word(end) == "{" ||
            tokens[end - 1].kind != TokenKind::Identifier || end - 1 == i)
            continue;
        DeviceVariable variable;
        variable.name = std::string(word(end - 1));
        variable.constant = space == "__constant__";
        variable.array = word(end) == "[";
        variable.line = tokens[end - 1].line;
        for (std::size_t j = start; j + 1 < end; ++j) {
            const std::string_view w = word(j);
            if (isQualifier(w)) continue;
            if (w == "__align__" || w == "alignas") { // skips its (n)
                while (j + 1 < end && word(j) != ")")
                    ++j;
                continue;
            }
            variable.type +=
                (variable.type.empty() || w == "*" || w == "::" || variable.type.ends_with("::") ? "" : " ") +
                std::string(w);
        }
        if (variable.type.empty()) continue;
        found.push_back(std::move(variable));
        i = end;
    }
    return found;
}

} // namespace kp::source
