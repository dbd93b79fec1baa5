#include "HostCompiler.h"

#include "core/CacheFolder.h"
#include "core/Error.h"
#include "core/Stopwatch.h"
#include "core/io/IncludedHeaders.h"
#include "core/sandbox/Contained.h"
#include "core/sandbox/Subprocess.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <string_view>
#include <unistd.h>
#include <xxhash.h>

namespace kp::cpu {

namespace fs = std::filesystem;

namespace {

std::string findCompiler(const std::string& requested, std::string& tried) {
    std::vector<std::string> names;
    if (!requested.empty()) {
        names.push_back(requested);
    } else {
        if (const char* cxx = std::getenv("CXX"); cxx && *cxx) names.emplace_back(cxx);
        names.insert(names.end(), {"c++", "g++", "clang++"});
    }
    for (const auto& name : names) {
        tried += (tried.empty() ? "" : ", ") + name;
        if (auto path = sandbox::findProgram(name); !path.empty()) return path;
    }
    return {};
}

std::string hex(XXH128_hash_t h) {
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return text;
}

std::string hexKey(const std::string& canonical) {
    return hex(XXH3_128bits(canonical.data(), canonical.size()));
}

// The checksum of a file's bytes, or empty when it cannot be read.
std::string fileChecksum(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return {};
    XXH3_state_t* state = XXH3_createState();
    XXH3_128bits_reset(state);
    char buffer[65536];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
        XXH3_128bits_update(state, buffer, static_cast<std::size_t>(n));
    ::close(fd);
    std::string sum = n < 0 ? std::string() : hex(XXH3_128bits_digest(state));
    XXH3_freeState(state);
    return sum;
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw SystemError("write", errno, path.string());
}

std::string readSmallFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text;
    std::getline(in, text);
    return text;
}

// A check's answer kept in the cache: "kernelpad-check 1", whether it passed ("0" or "1"), then the
// compiler's output. Anything else in the file is no answer (compiled again).
constexpr std::string_view kCheckHeader = "kernelpad-check 1\n";

std::optional<std::pair<bool, std::string>> readCheck(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!text.starts_with(kCheckHeader) || text.size() < kCheckHeader.size() + 2) return std::nullopt;
    const char passed = text[kCheckHeader.size()];
    if ((passed != '0' && passed != '1') || text[kCheckHeader.size() + 1] != '\n') return std::nullopt;
    return std::make_pair(passed == '1', text.substr(kCheckHeader.size() + 2));
}

// Each source is written with a #line directive so that diagnostics name the user's file, not ours.
std::string withLineDirective(const HostSource& source) {
    std::string escaped;
    for (char c : source.fileName) {
        if (c == '"' || c == '\\') escaped += '\\';
        escaped += c;
    }
    return "#line 1 \"" + escaped + "\"\n" + source.text;
}

int toInt(const std::string& digits) {
    int value = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return value;
}

// Where the compiler may read: the toolchain (and the CUDA toolkit's headers below /usr or /opt).
std::vector<fs::path> toolchainFolders() {
    return {"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt"};
}

// A playground's folder is readable for its headers, but not when it is the home folder itself or the
// root: that would open every file of the user.
bool narrowEnough(const fs::path& folder) {
    const fs::path normal = folder.lexically_normal();
    if (normal.empty() || normal == "/" || normal.parent_path() == normal) return false;
    if (const char* home = std::getenv("HOME"); home && *home && fs::path(home).lexically_normal() == normal)
        return false;
    return true;
}

// What the limits did, said on the first source's first line: the editor shows it with the others.
void explainLimits(HostCompileResult& result, const sandbox::SubprocessResult& run,
                   const HostCompileLimits& limits, const std::string& fileName) {
    std::string message;
    if (run.timedOut) {
        message = "the host compiler did not finish within its time limit of " +
                  std::to_string(static_cast<int>(limits.wallSeconds)) +
                  " s and was stopped (an endless template recursion or a huge include does this)";
    } else if (run.signal == SIGXCPU) {
        message = "the host compiler used up its CPU time limit of " +
                  std::to_string(limits.process.cpuSeconds) + " s and was stopped";
    } else if (run.signal == SIGXFSZ) {
        message = "the host compiler wrote a file larger than its limit of " +
                  std::to_string(limits.process.fileBytes >> 20) + " MiB and was stopped";
    } else if (run.exitCode != 0 && (run.output.find("memory exhausted") != std::string::npos ||
                                     run.output.find("out of memory") != std::string::npos ||
                                     run.output.find("Cannot allocate memory") != std::string::npos)) {
        message = "the host compiler ran out of its memory limit of " +
                  std::to_string(limits.process.memoryBytes >> 20) + " MiB";
    } else if (run.signal != 0) {
        message = "the host compiler was ended by signal " + std::to_string(run.signal);
    }
    if (message.empty()) return;
    result.diagnostics.push_back({fileName, 1, 1, model::Diagnostic::Severity::Error, message});
}

} // namespace

HostCompiler::HostCompiler(const std::string& compiler, fs::path cacheDirectory)
    : cacheDirectory_(cacheDirectory.empty() ? userCacheFolder() / "host" : std::move(cacheDirectory)) {
    // Absolute: the compiler runs in a work folder below it, with TMPDIR there (a relative one, read from
    // that folder, named nothing, and GCC fell back to a /tmp the sandbox does not let it write).
    std::error_code ec;
    if (const auto absolute = fs::absolute(cacheDirectory_, ec); !ec) cacheDirectory_ = absolute;
    std::string tried;
    compiler_ = findCompiler(compiler, tried);
    if (compiler_.empty()) {
        compilerVersion_ =
            "no C++ compiler found (tried " + tried + "): install g++ (Debian package g++) or set CXX";
        return;
    }
    // The version names the compiler in the cache key; asked once per compiler and process.
    static std::mutex mutex;
    static std::map<std::string, std::string> versions;
    const std::lock_guard lock(mutex);
    auto& version = versions[compiler_];
    if (version.empty()) version = sandbox::runProcess({compiler_, "--version"}).output;
    compilerVersion_ = version;
}

const std::string& HostCompiler::compilerPath() const {
    if (compiler_.empty()) throw Error(compilerVersion_);
    return compiler_;
}

bool HostCompiler::isGcc() const {
    return !compiler_.empty() && compilerVersion_.find("clang") == std::string::npos &&
           compilerVersion_.find("Free Software Foundation") != std::string::npos;
}

sandbox::ProcessOptions HostCompiler::compilerRun(const fs::path& work, const HostCompileOptions& options,
                                                  std::optional<sandbox::Confinement>& confinement) const {
    sandbox::ProcessOptions run;
    run.workingDirectory = work.string();
    run.timeLimitSeconds = limits_.wallSeconds;
    run.limits = limits_.process;
    run.environment = {"TMPDIR=" + work.string()};
    if (sandbox::support().available) {
        sandbox::Policy policy;
        policy.readable = toolchainFolders();
        for (const auto& dir : options.includeDirs)
            if (narrowEnough(dir)) policy.readable.emplace_back(dir);
        for (const auto& dir : options.readable)
            if (narrowEnough(dir)) policy.readable.push_back(dir);
        policy.writable = {work};
        policy.startsPrograms = true;
        confinement.emplace(policy);
        run.confinement = &*confinement;
    }
    return run;
}

std::optional<fs::path> HostCompiler::precompiledPrelude(const std::vector<std::string>& args,
                                                         const std::string& prelude, std::string* why,
                                                         bool prepared) const {
    const auto failed = [why](const std::string& what) -> std::optional<fs::path> {
        if (why) *why = what;
        return std::nullopt;
    };
    if (!isGcc()) return failed("the compiler is not GCC");
    // The flags a precompiled header must share with its users: all of them but the link's and the
    // include folders' (GCC refuses a .gch built with other -f, -m or -O flags, and falls back to the
    // header's text, which is still right).
    std::vector<std::string> pchArgs;
    for (const auto& a : args)
        if (a != "-shared" && !a.starts_with("-I")) pchArgs.push_back(a);
    std::string canonical = compilerVersion_;
    for (const auto& a : pchArgs)
        canonical += '\0' + a;
    canonical += '\0' + prelude;
    const std::string key = hexKey(canonical);
    const fs::path folder = cacheDirectory_ / "prelude" / key;
    const fs::path header = folder / "kernelpad_prelude.h";
    const fs::path gch = folder / "kernelpad_prelude.h.gch";
    const fs::path checksum = folder / "kernelpad_prelude.h.gch.xxh128";
    // A .gch whose bytes are not the ones stored is built again: GCC trusts what it maps. Checked once per
    // process (47 MB hash in ~10 ms), then by its time.
    static std::mutex mutex;
    static std::map<fs::path, fs::file_time_type> checked;
    const std::lock_guard lock(mutex);
    std::error_code ec;
    const auto intact = [&](const fs::path& in) {
        const fs::path file = in / "kernelpad_prelude.h.gch";
        const auto stamp = fs::last_write_time(file, ec);
        if (ec || !fs::exists(in / "kernelpad_prelude.h", ec)) return false;
        if (const auto known = checked.find(file); known != checked.end() && known->second == stamp)
            return true;
        const std::string stored = readSmallFile(in / "kernelpad_prelude.h.gch.xxh128");
        if (stored.empty() || stored != fileChecksum(file)) return false;
        checked[file] = stamp;
        return true;
    };
    if (prepared)
        for (const auto& shipped : preparedPreludeFolders())
            if (intact(shipped / key)) return shipped / key / "kernelpad_prelude.h";
    if (intact(folder)) return header;
    fs::create_directories(folder, ec);
    if (ec) return failed("cannot create " + folder.string() + ": " + ec.message());
    const sandbox::ScratchFolder work(cacheDirectory_, "prelude");
    writeFile(work.path() / "kernelpad_prelude.h", prelude);
    pchArgs.insert(pchArgs.end(), {"-x", "c++-header", (work.path() / "kernelpad_prelude.h").string(), "-o",
                                   (work.path() / "out.gch").string()});
    std::optional<sandbox::Confinement> confinement;
    const auto built = sandbox::runProcess(pchArgs, compilerRun(work.path(), {}, confinement));
    if (built.exitCode != 0 || built.timedOut)
        return failed(built.timedOut ? "the compiler ran out of time"
                      : built.signal != 0
                          ? "the compiler was ended by signal " + std::to_string(built.signal) + ": " +
                                built.output.substr(0, 2000)
                          : "the compiler failed (exit status " + std::to_string(built.exitCode) +
                                "): " + built.output.substr(0, 2000));
    writeFile(work.path() / "out.gch.xxh128", fileChecksum(work.path() / "out.gch") + "\n");
    // The header first, then the checksum, then the .gch: a reader that finds the .gch finds the rest.
    fs::rename(work.path() / "kernelpad_prelude.h", header, ec);
    if (!ec) fs::rename(work.path() / "out.gch.xxh128", checksum, ec);
    if (!ec) fs::rename(work.path() / "out.gch", gch, ec);
    if (ec) return failed("cannot store it in " + folder.string() + ": " + ec.message());
    checked[gch] = fs::last_write_time(gch, ec);
    return header;
}

std::vector<std::string> HostCompiler::commandFor(const HostCompileOptions& options) const {
    // -fstack-clash-protection: a large local array or alloca touches each page of the stack it takes,
    // so running off the stack's end faults on its guard page (a reported stack overflow) instead of
    // writing into whatever lies beyond.
    std::vector<std::string> args = {compilerPath(),
                                     "-std=c++17",
                                     "-shared",
                                     "-fPIC",
                                     "-fdiagnostics-color=never",
                                     "-fstack-clash-protection"};
    for (const auto& dir : options.includeDirs)
        args.push_back("-I" + dir);
    args.insert(args.end(), options.flags.begin(), options.flags.end());
    return args;
}

std::optional<fs::path> HostCompiler::precompilePrelude(const HostCompileOptions& options,
                                                        std::string* why) const {
    if (options.prelude.empty()) {
        if (why) *why = "there is no prelude to precompile";
        return std::nullopt;
    }
    const auto header = precompiledPrelude(commandFor(options), options.prelude, why, false);
    return header ? std::optional(header->parent_path()) : std::nullopt;
}

std::vector<fs::path> preparedPreludeFolders() {
    std::vector<fs::path> folders;
    if (const char* chosen = std::getenv("KERNELPAD_PRELUDE_DIR"); chosen && *chosen)
        folders.emplace_back(chosen);
#ifdef KP_BUILD_PRELUDE_DIR
    folders.emplace_back(KP_BUILD_PRELUDE_DIR);
#endif
    return folders;
}

HostCompileResult HostCompiler::compile(const std::vector<HostSource>& sources,
                                        const HostCompileOptions& options) const {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::string> args = commandFor(options);

    // The sources are compiled from a scratch folder: their "headers" are found on the include path.
    io::IncludedHeaders headers({options.includeDirs.begin(), options.includeDirs.end()});
    for (const auto& s : sources)
        headers.add(s.text, {}, s.fileName);
    if (!headers.problems().empty()) {
        HostCompileResult refused;
        refused.diagnostics = headers.problems();
        refused.milliseconds = millisecondsSince(start);
        return refused;
    }
    HostCompileResult result;
    auto finish = [&] {
        result.milliseconds = millisecondsSince(start);
        return result;
    };
    std::string canonical = compilerVersion_;
    for (const auto& a : args)
        canonical += '\0' + a;
    canonical += '\0' + options.prelude;
    for (const auto& s : sources)
        canonical += '\0' + s.fileName + '\0' + std::to_string(s.text.size()) + s.text;
    canonical += '\0' + headers.fingerprint();
    const std::string key = hexKey(canonical);
    const fs::path libraryPath = cacheDirectory_ / (key + ".so");
    const fs::path checksumPath = cacheDirectory_ / (key + ".so.xxh128");
    // A check's answer is kept too (its output: a few hundred bytes): text that comes back to what was
    // checked before, an undo or a typo taken back, gets its diagnostics without running the compiler.
    const fs::path checkPath = cacheDirectory_ / (key + ".check");
    if (options.syntaxOnly) {
        if (auto kept = readCheck(checkPath)) {
            result.ok = kept->first;
            result.log = std::move(kept->second);
            result.diagnostics = parseDiagnostics(result.log);
            result.fromCache = true;
            return finish();
        }
    }

    // A cached library is used only when its bytes are the ones stored: a damaged or swapped file is
    // built again, never loaded.
    std::error_code ec;
    if (!options.syntaxOnly && fs::exists(libraryPath, ec)) {
        const std::string stored = readSmallFile(checksumPath);
        if (!stored.empty() && stored == fileChecksum(libraryPath)) {
            result.ok = true;
            result.fromCache = true;
            result.library = libraryPath;
            return finish();
        }
        fs::remove(libraryPath, ec);
        fs::remove(checksumPath, ec);
    }

    fs::create_directories(cacheDirectory_, ec);
    if (ec) throw SystemError("create_directories", ec.value(), cacheDirectory_.string());
    HostCompileOptions compileOptions = options;
    const std::optional<fs::path> prelude =
        options.prelude.empty() ? std::nullopt : precompiledPrelude(args, options.prelude);
    if (prelude) {
        args.insert(args.end(), {"-include", prelude->string()});
        compileOptions.readable.push_back(prelude->parent_path());
        result.preludePrecompiled = true;
    }
    const sandbox::ScratchFolder work(cacheDirectory_, "build"); // removed however the compile ends
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const fs::path file = work.path() / ("source" + std::to_string(i) + ".cpp");
        const std::string inlined = prelude || i > 0 ? std::string() : options.prelude;
        writeFile(file, inlined + withLineDirective(sources[i]));
        args.push_back(file.string());
    }
    const fs::path temporary = work.path() / "out.so";
    if (options.syntaxOnly)
        args.emplace_back("-fsyntax-only");
    else
        args.insert(args.end(), {"-o", temporary.string()});

    std::optional<sandbox::Confinement> confinement;
    const sandbox::SubprocessResult compiled =
        sandbox::runProcess(args, compilerRun(work.path(), compileOptions, confinement));
    result.log = compiled.output;
    result.diagnostics = parseDiagnostics(compiled.output);
    explainLimits(result, compiled, limits_, sources.empty() ? std::string() : sources.front().fileName);
    result.ok = compiled.exitCode == 0 && !compiled.timedOut;
    // Kept only as the compiler answered it: not a compile stopped by a limit, a signal or a cut output.
    if (options.syntaxOnly && !compiled.timedOut && !compiled.cancelled &&
        (compiled.exitCode == 0 || compiled.exitCode == 1) && result.log.size() < (std::size_t{1} << 20)) {
        try { // a check that cannot be kept (a full disk) is only not kept
            const fs::path checkTemporary = work.path() / "check";
            writeFile(checkTemporary,
                      std::string(kCheckHeader) + (result.ok ? "1" : "0") + "\n" + result.log);
            fs::rename(checkTemporary, checkPath, ec); // atomic: a reader sees the whole answer or none
        } catch (const std::exception&) {
        }
    }
    if (!result.ok || options.syntaxOnly) return finish();
    // The checksum first: a library without one is never used, so a crash between the two renames
    // costs a compile, not a wrong answer.
    const fs::path checksumTemporary = work.path() / "out.so.xxh128";
    writeFile(checksumTemporary, fileChecksum(temporary) + "\n");
    fs::rename(checksumTemporary, checksumPath, ec);
    if (!ec) fs::rename(temporary, libraryPath, ec); // atomic: a reader sees the whole library or none
    if (ec) throw SystemError("rename", ec.value(), "the compiled library into " + cacheDirectory_.string());
    result.library = libraryPath;
    return finish();
}

std::shared_ptr<SharedLibrary> loadCompiled(const fs::path& library) {
    auto loaded = std::make_shared<SharedLibrary>(SharedLibrary::openFirst({library.string()}));
    if (!loaded->isOpen())
        throw Error("cannot load the compiled code " + library.string() + ": " + loaded->error());
    return loaded;
}

std::vector<model::Diagnostic> HostCompiler::parseDiagnostics(const std::string& log) {
    static const std::regex line(R"(^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note): (.*)$)");
    std::vector<model::Diagnostic> diagnostics;
    std::istringstream in(log);
    std::string text;
    while (std::getline(in, text)) {
        std::smatch m;
        if (!std::regex_match(text, m, line)) continue;
        model::Diagnostic d;
        d.file = m[1];
        d.line = toInt(m[2].str());
        d.column = m[3].matched ? toInt(m[3].str()) : 0;
        const std::string severity = m[4];
        d.severity = severity == "warning" ? model::Diagnostic::Severity::Warning
                     : severity == "note"  ? model::Diagnostic::Severity::Note
                                           : model::Diagnostic::Severity::Error;
        d.message = m[5];
        diagnostics.push_back(std::move(d));
    }
    return diagnostics;
}

std::vector<std::string> processorFlags() {
    std::vector<std::string> flags;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // F16C and LZCNT from CPUID itself: not every compiler's __builtin_cpu_supports knows their names.
    unsigned a = 0, b = 0, c = 0, d = 0;
    const bool f16c = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
    const bool lzcnt = __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & bit_LZCNT) != 0;
    __builtin_cpu_init();
    // Without AVX2 the others are left out too: one list per processor generation (every processor with
    // AVX2 so far has the rest) keeps the prepared prelude's variants few.
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
        __builtin_cpu_supports("popcnt") && f16c && lzcnt)
        flags = {"-mavx2", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt", "-mf16c"};
#endif
    return flags;
}

} // namespace kp::cpu
