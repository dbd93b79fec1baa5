// `kernelpad-cli compile FILE.cu [--arch sm_XY] [-- NVRTC OPTIONS]`: compiles one CUDA source with NVRTC and
// prints its diagnostics as FILE:LINE:COLUMN: severity: message, the way editors and CI logs read them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace kp::cli {

struct CompileCommandOptions {
    std::string file;
    std::string arch;                      // empty: the device's, or PTX for any GPU without one
    std::vector<std::string> nvrtcOptions; // everything after "--"
    std::vector<std::string> names;        // --name: C++ names whose mangled names --verbose prints
    std::string ptxOut;                    // --ptx FILE
    std::string cubinOut;                  // --cubin FILE
    bool noCache = false;
    bool verbose = false;
};

CLI::App* addCompileCommand(CLI::App& root, CompileCommandOptions& options);
// Exit codes: 0 compiled (warnings allowed), 2 unreadable file, bad options or unwritable output,
// 3 compile error, 5 NVRTC unavailable.
int runCompileCommand(const CompileCommandOptions& options);

} // namespace kp::cli
