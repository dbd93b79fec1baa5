#include "CompileError.h"

namespace kp::launch {

namespace {
std::string describe(const std::vector<model::Diagnostic>& diagnostics, const std::string& log) {
    std::string text;
    for (const auto& d : diagnostics)
        text += (text.empty() ? "" : "\n") + model::toString(d);
    return text.empty() ? (log.empty() ? std::string("the compile failed without a message") : log) : text;
}
} // namespace

CompileError::CompileError(std::vector<model::Diagnostic> diagnostics, const std::string& log)
    : InputError(describe(diagnostics, log)), diagnostics_(std::move(diagnostics)) {}

} // namespace kp::launch
