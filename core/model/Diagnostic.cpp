#include "Diagnostic.h"

namespace kp::model {

const char* toString(Diagnostic::Severity severity) {
    switch (severity) {
    case Diagnostic::Severity::Error:
        return "error";
    case Diagnostic::Severity::Warning:
        return "warning";
    case Diagnostic::Severity::Note:
        return "note";
    }
    return "error";
}

std::string toString(const Diagnostic& d) {
    return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
           toString(d.severity) + ": " + d.message;
}

std::ostream& operator<<(std::ostream& out, const Diagnostic& diagnostic) {
    return out << toString(diagnostic);
}

nlohmann::json toJson(const Diagnostic& d) {
    return {{"file", d.file},
            {"line", d.line},
            {"column", d.column},
            {"severity", toString(d.severity)},
            {"message", d.message}};
}

Diagnostic diagnosticFromJson(const nlohmann::json& j) {
    const auto severity = j.at("severity").get<std::string>();
    return {j.at("file").get<std::string>(), j.at("line").get<int>(), j.at("column").get<int>(),
            severity == "warning" ? Diagnostic::Severity::Warning
            : severity == "note"  ? Diagnostic::Severity::Note
                                  : Diagnostic::Severity::Error,
            j.at("message").get<std::string>()};
}

} // namespace kp::model
