// One compiler message (NVRTC's or the host compiler's), tied to a place in the user's source. The
// editor draws them inline, the CLI prints them as FILE:LINE:COLUMN: severity: message.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace kp::model {

struct Diagnostic {
    enum class Severity { Error, Warning, Note };

    std::string file;
    int line = 0;   // 1-based; 0 when the message names no line
    int column = 0; // 1-based; 0 when unknown
    Severity severity = Severity::Error;
    std::string message;

    bool operator==(const Diagnostic&) const = default;
};

const char* toString(Diagnostic::Severity severity);
// "FILE:LINE:COLUMN: error: MESSAGE", the format of `kernelpad-cli compile` (project-format.md).
std::string toString(const Diagnostic& diagnostic);
std::ostream& operator<<(std::ostream& out, const Diagnostic& diagnostic);

// {"file", "line", "column", "severity": "error"|"warning"|"note", "message"}: how the worker sends them.
nlohmann::json toJson(const Diagnostic& diagnostic);
// Throws nlohmann::json::exception for a missing or mistyped member.
Diagnostic diagnosticFromJson(const nlohmann::json& json);

} // namespace kp::model
