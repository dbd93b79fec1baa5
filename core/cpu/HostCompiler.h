// Compiles C++ on the host into a shared library and loads it: CPU references of playgrounds now, the
// CPU backend's kernels later. The compiler is found at run time (CXX, else c++, g++, clang++), its
// diagnostics are parsed like NVRTC's and point at the user's own files, and results are cached.
#pragma once

#include "core/SharedLibrary.h"
#include "core/model/Diagnostic.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kp::cpu {

struct HostSource {
    std::string fileName; // what diagnostics call it (the user's file, relative to the playground)
    std::string text;
};

struct HostCompileOptions {
    std::vector<std::string> includeDirs;
    std::vector<std::string> flags = {"-O2"}; // added after ours (-std=c++17 -shared -fPIC)
    bool operator==(const HostCompileOptions&) const = default;
};

struct HostCompileResult {
    bool ok = false;
    std::vector<model::Diagnostic> diagnostics;
    std::string log;
    std::shared_ptr<SharedLibrary> library; // loaded when ok
    bool fromCache = false;
    double milliseconds = 0;
};

class HostCompiler {
public:
    // `compiler` empty: the first of $CXX, c++, g++, clang++ that exists. `cacheDirectory` empty:
    // $KERNELPAD_CACHE_DIR, else $XDG_CACHE_HOME/kernelpad, else ~/.cache/kernelpad; then /host.
    explicit HostCompiler(std::string compiler = {}, std::filesystem::path cacheDirectory = {});

    // Throws Error when no host compiler can be found (saying which names were tried).
    const std::string& compilerPath() const;
    HostCompileResult compile(const std::vector<HostSource>& sources, const HostCompileOptions& options = {}) const;

    // GCC's and Clang's "file:line:column: error: message" lines.
    static std::vector<model::Diagnostic> parseDiagnostics(const std::string& log);

private:
    std::string compiler_;
    std::string compilerVersion_;
    std::filesystem::path cacheDirectory_;
};

} // namespace kp::cpu
