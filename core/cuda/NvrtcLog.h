// Reads NVRTC's log into Diagnostics for the editor and `kernelpad-cli compile`. The log is text meant
// for people, so the parser is lenient: lines it does not understand are skipped, never fatal.
#pragma once

#include "core/model/Diagnostic.h"

#include <string_view>
#include <vector>

namespace kp::cuda {

class NvrtcLog {
public:
    // `programName` is the name the program was compiled under: messages that name no file (bad options)
    // are attributed to it. `programSource` is its text, when known: it lets the column be measured
    // against the real source line instead of assuming NVRTC's two-space indent of the echoed line.
    static std::vector<model::Diagnostic> parse(std::string_view log, std::string_view programName = {},
                                                std::string_view programSource = {});
};

} // namespace kp::cuda
