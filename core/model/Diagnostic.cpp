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
    return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + toString(d.severity) +
           ": " + d.message;
}

std::ostream& operator<<(std::ostream& out, const Diagnostic& diagnostic) { return out << toString(diagnostic); }

} // namespace kp::model
