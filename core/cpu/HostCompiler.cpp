#include "HostCompiler.h"

#include "core/Stopwatch.h"

#include "Subprocess.h"
#include "core/Error.h"

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>
#include <xxhash.h>

namespace kp::cpu {

namespace fs = std::filesystem;

namespace {

std::string findInPath(const std::string& name) {
    if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return {};
}

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
        if (auto path = findInPath(name); !path.empty()) return path;
    }
    return {};
}

fs::path defaultCacheDirectory() {
    if (const char* dir = std::getenv("KERNELPAD_CACHE_DIR"); dir && *dir) return fs::path(dir) / "host";
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "kernelpad" / "host";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "kernelpad" / "host";
    return fs::temp_directory_path() / "kernelpad-cache" / "host";
}

std::string hexKey(const std::string& canonical) {
    const XXH128_hash_t h = XXH3_128bits(canonical.data(), canonical.size());
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return text;
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw SystemError("write", errno, path.string());
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

std::shared_ptr<SharedLibrary> load(const fs::path& path) {
    auto library = std::make_shared<SharedLibrary>(SharedLibrary::openFirst({path.string()}));
    if (!library->isOpen()) throw Error("cannot load the compiled code " + path.string() + ": " + library->error());
    return library;
}

} // namespace

HostCompiler::HostCompiler(std::string compiler, fs::path cacheDirectory)
    : cacheDirectory_(cacheDirectory.empty() ? defaultCacheDirectory() : std::move(cacheDirectory)) {
    std::string tried;
    compiler_ = findCompiler(compiler, tried);
    if (compiler_.empty()) {
        compilerVersion_ = "no C++ compiler found (tried " + tried + "): install g++ (Debian package g++) or set CXX";
        return;
    }
    compilerVersion_ = runProcess({compiler_, "--version"}).output;
}

const std::string& HostCompiler::compilerPath() const {
    if (compiler_.empty()) throw Error(compilerVersion_);
    return compiler_;
}

HostCompileResult HostCompiler::compile(const std::vector<HostSource>& sources, const HostCompileOptions& options) const {
    const auto start = std::chrono::steady_clock::now();
    const std::string& cxx = compilerPath();
    std::vector<std::string> args = {cxx, "-std=c++17", "-shared", "-fPIC", "-fdiagnostics-color=never"};
    for (const auto& dir : options.includeDirs) args.push_back("-I" + dir);
    args.insert(args.end(), options.flags.begin(), options.flags.end());

    std::string canonical = compilerVersion_;
    for (const auto& a : args) canonical += '\0' + a;
    for (const auto& s : sources) canonical += '\0' + s.fileName + '\0' + std::to_string(s.text.size()) + s.text;
    const std::string key = hexKey(canonical);
    const fs::path libraryPath = cacheDirectory_ / (key + ".so");

    HostCompileResult result;
    auto finish = [&] {
        result.milliseconds =
            millisecondsSince(start);
        return result;
    };
    std::error_code ec;
    if (fs::exists(libraryPath, ec)) {
        auto cached = std::make_shared<SharedLibrary>(SharedLibrary::openFirst({libraryPath.string()}));
        if (cached->isOpen()) {
            result.ok = true;
            result.fromCache = true;
            result.library = std::move(cached);
            return finish();
        }
        fs::remove(libraryPath, ec); // damaged (a truncated write, a full disk): build it again
    }

    fs::create_directories(cacheDirectory_, ec);
    if (ec) throw SystemError("create_directories", ec.value(), cacheDirectory_.string());
    const fs::path work = cacheDirectory_ / ("build-" + key + "-" + std::to_string(getpid()));
    fs::create_directories(work);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const fs::path file = work / ("source" + std::to_string(i) + ".cpp");
        writeFile(file, withLineDirective(sources[i]));
        args.push_back(file.string());
    }
    const fs::path temporary = work / "out.so";
    args.insert(args.end(), {"-o", temporary.string()});
    const SubprocessResult run = runProcess(args, work.string());
    result.log = run.output;
    result.diagnostics = parseDiagnostics(run.output);
    result.ok = run.exitCode == 0;
    if (result.ok) {
        fs::rename(temporary, libraryPath, ec); // atomic: a reader sees the whole library or none
        result.library = load(ec ? temporary : libraryPath);
    }
    fs::remove_all(work, ec);
    return finish();
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

} // namespace kp::cpu
