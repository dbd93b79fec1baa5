#include "NvrtcLog.h"

#include "core/Lines.h"

#include <climits>
#include <optional>
#include <string>

namespace kp::cuda {

namespace {

using model::Diagnostic;
using Severity = Diagnostic::Severity;

// NVRTC echoes the offending source line indented by two spaces, and the caret line below it with the
// same indent (tabs are copied as they are, so byte offsets line up). Measured with NVRTC 12 and 13.
constexpr std::size_t kEchoIndent = 2;

bool isBlank(std::string_view line) {
    return trim(line).empty();
}

int clampToInt(std::size_t value) {
    return value > INT_MAX ? INT_MAX : static_cast<int>(value);
}

// A 1-based line number; nothing for an empty, non-numeric or absurdly long field.
std::optional<int> parseLineNumber(std::string_view digits) {
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    int value = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

// "error", "catastrophic error", "warning #177-D", "note #3326-D", "remark #550-D".
std::optional<Severity> parseSeverity(std::string_view text) {
    text = text.substr(0, text.find(" #"));
    if (text == "error" || text == "catastrophic error" || text == "fatal error" || text == "internal error")
        return Severity::Error;
    if (text == "warning") return Severity::Warning;
    if (text == "note" || text == "remark") return Severity::Note;
    return std::nullopt;
}

// `FILE(LINE): SEVERITY: MESSAGE`. The file name may itself hold parentheses, so every "): " is tried.
std::optional<Diagnostic> parseHeader(std::string_view line) {
    for (auto close = line.find("): "); close != std::string_view::npos;
         close = line.find("): ", close + 1)) {
        const auto open = line.rfind('(', close);
        if (open == std::string_view::npos || open == 0) continue;
        const auto number = parseLineNumber(line.substr(open + 1, close - open - 1));
        if (!number) continue;
        const auto rest = line.substr(close + 3);
        const auto colon = rest.find(": ");
        if (colon == std::string_view::npos) continue;
        const auto severity = parseSeverity(rest.substr(0, colon));
        if (!severity) continue;
        return Diagnostic{std::string(line.substr(0, open)), *number, 0, *severity,
                          std::string(rest.substr(colon + 2))};
    }
    return std::nullopt;
}

// `nvrtc: error: unrecognized option --foo found`: about the invocation, not a place in the source.
std::optional<Diagnostic> parseToolMessage(std::string_view line, std::string_view programName) {
    constexpr std::string_view prefix = "nvrtc: ";
    if (!line.starts_with(prefix)) return std::nullopt;
    const auto rest = line.substr(prefix.size());
    const auto colon = rest.find(": ");
    if (colon == std::string_view::npos) return std::nullopt;
    const auto severity = parseSeverity(rest.substr(0, colon));
    if (!severity) return std::nullopt;
    return Diagnostic{std::string(programName), 0, 0, *severity, std::string(rest.substr(colon + 2))};
}

// Lines that only count or frame the diagnostics around them.
bool isSummary(std::string_view line) {
    return line.find(" detected in the compilation of \"") != std::string_view::npos ||
           line == "Compilation terminated." || line.starts_with("Remark: The warnings can be suppressed");
}

bool isCaretLine(std::string_view line) {
    return trim(line) == "^";
}

// `instantiation of "T twice(T) [with T=float]" at line 3 of "k.cu"` (the file part is optional): where a
// template that failed was used from, as a note at that place.
Diagnostic parseContext(std::string_view text, const std::string& file) {
    Diagnostic note{file, 0, 0, Severity::Note, "detected during " + std::string(text)};
    const auto at = text.rfind(" at line ");
    if (at == std::string_view::npos) return note;
    auto place = text.substr(at + 9);
    const auto space = place.find(' ');
    const auto number = parseLineNumber(place.substr(0, space));
    if (!number) return note;
    note.line = *number;
    note.message = "detected during " + std::string(text.substr(0, at));
    if (space != std::string_view::npos) {
        auto of = place.substr(space);
        if (of.starts_with(" of \"") && of.ends_with('"') && of.size() > 6)
            note.file = of.substr(5, of.size() - 6);
    }
    return note;
}

class Parser {
public:
    Parser(std::string_view programName, std::string_view programSource)
        : programName_(programName), sourceLines_(splitLines(programSource)) {}

    std::vector<Diagnostic> parse(std::string_view log) {
        const auto lines = splitLines(log);
        std::size_t i = 0;
        while (i < lines.size()) {
            if (auto header = parseHeader(lines[i])) {
                std::vector<std::string_view> block;
                for (++i; i < lines.size() && !startsNewDiagnostic(lines[i]); ++i)
                    block.push_back(lines[i]);
                addWithBlock(std::move(*header), block);
                continue;
            }
            if (auto message = parseToolMessage(lines[i], programName_)) out_.push_back(std::move(*message));
            ++i;
        }
        return std::move(out_);
    }

private:
    static bool startsNewDiagnostic(std::string_view line) {
        return isBlank(line) || isSummary(line) || parseHeader(line).has_value();
    }

    // The lines under a header: continuation lines of the message, the echoed source line with its
    // caret, and "detected during" context, in that order; any part may be missing.
    void addWithBlock(Diagnostic diagnostic, const std::vector<std::string_view>& block) {
        std::size_t caret = block.size();
        for (std::size_t k = 1; k < block.size(); ++k)
            if (isCaretLine(block[k])) {
                caret = k;
                break;
            }
        if (caret < block.size()) diagnostic.column = column(diagnostic, block[caret - 1], block[caret]);

        std::vector<Diagnostic> context;
        bool inContext = false;
        for (std::size_t k = 0; k < block.size(); ++k) {
            if (caret < block.size() && (k == caret || k + 1 == caret)) continue;
            const auto text = trim(block[k]);
            if (text.starts_with("detected during")) {
                inContext = true;
                auto rest = trimLeft(text.substr(15));
                if (rest.starts_with(':')) continue; // a list of instantiations follows, one a line
                context.push_back(parseContext(rest, diagnostic.file));
            } else if (inContext) {
                context.push_back(parseContext(text, diagnostic.file));
            } else if (!text.empty()) {
                diagnostic.message += "; ";
                diagnostic.message += text;
            }
        }
        out_.push_back(std::move(diagnostic));
        for (auto& note : context)
            out_.push_back(std::move(note));
    }

    // 1-based byte column of the caret in the user's line; 0 when the caret sits in NVRTC's indent.
    int column(const Diagnostic& diagnostic, std::string_view echoed, std::string_view caretLine) const {
        const auto caret = caretLine.find('^');
        const auto indent = echoIndent(diagnostic, echoed);
        if (caret < indent) return 0;
        return clampToInt(caret - indent + 1);
    }

    // When the echoed line is the program's own, the indent is what precedes the real line in it;
    // otherwise NVRTC's usual two spaces, if they are there.
    std::size_t echoIndent(const Diagnostic& diagnostic, std::string_view echoed) const {
        echoed = trimRight(echoed);
        const auto index = static_cast<std::size_t>(diagnostic.line) - 1;
        if (diagnostic.line > 0 && diagnostic.file == programName_ && index < sourceLines_.size()) {
            const auto original = trimRight(sourceLines_[index]);
            if (!original.empty() && echoed.ends_with(original)) return echoed.size() - original.size();
        }
        return echoed.starts_with("  ") ? kEchoIndent : 0;
    }

    std::string_view programName_;
    std::vector<std::string_view> sourceLines_;
    std::vector<Diagnostic> out_;
};

} // namespace

std::vector<model::Diagnostic> NvrtcLog::parse(std::string_view log, std::string_view programName,
                                               std::string_view programSource) {
    return Parser(programName, programSource).parse(log);
}

} // namespace kp::cuda
