// Compiles C++ on the host into a shared library: the CPU backend's kernels and the CPU references of
// playgrounds. The compiler is found at run time (CXX, else c++, g++, clang++), runs in the sandbox
// (sandbox/Confinement) with time, memory and file-size limits in a process group that dies with ours,
// its diagnostics are parsed like NVRTC's and point at the user's own files, and results are cached
// with a checksum. Compiling never loads the library: loading runs its static constructors, which is
// running the playground's code, and happens only where a run is contained (loadCompiled).
#pragma once

#include "core/SharedLibrary.h"
#include "core/model/Diagnostic.h"
#include "core/sandbox/Confinement.h"
#include "core/sandbox/Subprocess.h"

#include <filesystem>
#include <memory>
#include <optional>
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
    // Folders the compiler may read besides the toolchain's (the playground's, for its headers).
    std::vector<std::filesystem::path> readable;
    // Text compiled in front of every source (the CUDA built-ins). With GCC it is precompiled once per
    // compiler, flags and text into the cache (a .gch beside it, included with -include), which takes
    // parsing the standard headers it includes off every compile: ~1.0 s -> ~0.2 s for a small kernel.
    std::string prelude;
    // Checks the sources (-fsyntax-only) without building a library: diagnostics as you type.
    bool syntaxOnly = false;
    bool operator==(const HostCompileOptions&) const = default;
};

struct HostCompileResult {
    bool ok = false;
    std::vector<model::Diagnostic> diagnostics;
    std::string log;
    std::filesystem::path library; // the compiled library in the cache, when ok; not loaded
    bool fromCache = false;
    bool preludePrecompiled = false; // the prelude came from its precompiled header
    double milliseconds = 0;
};

// The compiler's limits: what a compile-time bomb (#include </dev/zero>, endless template recursion)
// runs into.
struct HostCompileLimits {
    double wallSeconds = 120;
    sandbox::Limits process{std::uint64_t{4} << 30, 120, std::uint64_t{512} << 20};
};

class HostCompiler {
public:
    // `compiler` empty: the first of $CXX, c++, g++, clang++ that exists. `cacheDirectory` empty:
    // userCacheFolder() (core/CacheFolder.h) + /host.
    explicit HostCompiler(const std::string& compiler = {}, std::filesystem::path cacheDirectory = {});

    // Throws Error when no host compiler can be found (saying which names were tried).
    const std::string& compilerPath() const;
    // Whether the compiler is GCC (its --version names the Free Software Foundation, and not clang).
    bool isGcc() const;
    const std::filesystem::path& cacheDirectory() const noexcept { return cacheDirectory_; }
    // Throws SystemError when the cache or a build folder cannot be written, sandbox::Unavailable never:
    // without a sandbox the compiler runs unconfined, under its limits all the same.
    HostCompileResult compile(const std::vector<HostSource>& sources,
                              const HostCompileOptions& options = {}) const;

    // Precompiles `options.prelude` for `options` now (a build step: the build ships them, see
    // preparedPreludeFolders), returning its header's folder; none when the compiler is not GCC or the
    // prelude does not precompile, and then, in `why` when given, what went wrong (the compiler's words).
    std::optional<std::filesystem::path> precompilePrelude(const HostCompileOptions& options,
                                                           std::string* why = nullptr) const;

    void setLimits(const HostCompileLimits& limits) { limits_ = limits; }
    const HostCompileLimits& limits() const noexcept { return limits_; }

    // GCC's and Clang's "file:line:column: error: message" lines.
    static std::vector<model::Diagnostic> parseDiagnostics(const std::string& log);

private:
    std::vector<std::string> commandFor(const HostCompileOptions& options) const;
    // The prelude's header in the cache, with its .gch beside it (built now when missing); none when the
    // compiler is not GCC or the header does not precompile, and the prelude is then compiled inline.
    // `prepared`: one the build prepared (preparedPreludeFolders) will do; the build step itself wants its
    // own.
    std::optional<std::filesystem::path> precompiledPrelude(const std::vector<std::string>& args,
                                                            const std::string& prelude,
                                                            std::string* why = nullptr,
                                                            bool prepared = true) const;
    sandbox::ProcessOptions compilerRun(const std::filesystem::path& work, const HostCompileOptions& options,
                                        std::optional<sandbox::Confinement>& confinement) const;

    std::string compiler_;
    std::string compilerVersion_;
    std::filesystem::path cacheDirectory_;
    HostCompileLimits limits_;
};

// Where precompiled preludes are looked for before the cache (read only): $KERNELPAD_PRELUDE_DIR, and the
// build's (prepared by kernelpad-worker --precompile-built-ins at build time), so that a new user's first
// compile does not pay for precompiling.
std::vector<std::filesystem::path> preparedPreludeFolders();

// The instruction sets beyond x86-64's baseline that this processor has and that code compiled here for
// this processor may use (AVX2, BMI1/2, POPCNT, LZCNT, F16C), as the compiler's -m flags: kernels and their
// references alike run on the machine that compiled them. Named one by one, not -march=native, so that a
// compile cache keyed by the command never hands a library built for one processor to another. FMA is not
// among them: it changes how a*b+c rounds, and is the NVRTC options' to decide (CpuRunner).
std::vector<std::string> processorFlags();

// Loads a compiled library into this process, which runs its static constructors: only in a contained
// child (sandbox/Contained) or for code Kernelpad wrote itself. Throws Error when it cannot be loaded.
std::shared_ptr<SharedLibrary> loadCompiled(const std::filesystem::path& library);

} // namespace kp::cpu
