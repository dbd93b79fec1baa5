// A kernel or reference that did not compile: its diagnostics, for the CLI (exit code 3), the editor's
// inline markers and the problems list. Thrown by the runners.
#pragma once

#include "core/Error.h"
#include "core/model/Diagnostic.h"

#include <vector>

namespace kp::launch {

class CompileError : public InputError {
public:
    // what() is the diagnostics, one "FILE:LINE:COLUMN: error: MESSAGE" a line (the log when none parsed).
    CompileError(std::vector<model::Diagnostic> diagnostics, const std::string& log);
    const std::vector<model::Diagnostic>& diagnostics() const noexcept { return diagnostics_; }

private:
    std::vector<model::Diagnostic> diagnostics_;
};

} // namespace kp::launch
