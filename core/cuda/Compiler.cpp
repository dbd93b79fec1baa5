#include "Compiler.h"

#include "Driver.h"
#include "Nvrtc.h"
#include "NvrtcLog.h"
#include "Toolkit.h"
#include "core/Stopwatch.h"
#include "core/io/IncludedHeaders.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <utility>

namespace kp::cuda {

namespace {

namespace fs = std::filesystem;

// NVRTC has no host headers, so what pasted CUDA includes as nvcc allows it (<stdio.h> for printf,
// <math.h>, <cstdint>, <cassert> for assert(), <climits>, <cfloat>) would not compile. These stand in:
// printf and the math functions are NVRTC's own built-ins, assert goes to CUDA's device-side
// __assertfail, and the fixed-width types are those of the LP64 host nvcc pairs with (int64_t is long).
const std::vector<std::pair<const char*, const char*>>& hostHeaderShims() {
    static constexpr const char* kAssert =
        "#pragma once\n#undef assert\n#ifdef NDEBUG\n#define assert(e) ((void)0)\n#else\n"
        "#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))\n#endif\n";
    static constexpr const char* kBuiltIn = "#pragma once\n";
    static constexpr const char* kStdint =
        "#pragma once\n"
        "typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t;\n"
        "typedef unsigned short uint16_t; typedef int int32_t; typedef unsigned int uint32_t;\n"
        "typedef long int64_t; typedef unsigned long uint64_t; typedef long intptr_t;\n"
        "typedef unsigned long uintptr_t; typedef long intmax_t; typedef unsigned long uintmax_t;\n"
        "#define INT8_MIN (-128)\n#define INT8_MAX 127\n#define UINT8_MAX 255\n"
        "#define INT16_MIN (-32767-1)\n#define INT16_MAX 32767\n#define UINT16_MAX 65535\n"
        "#define INT32_MIN (-2147483647-1)\n#define INT32_MAX 2147483647\n#define UINT32_MAX 4294967295U\n"
        "#define INT64_MIN (-9223372036854775807L-1)\n#define INT64_MAX 9223372036854775807L\n"
        "#define UINT64_MAX 18446744073709551615UL\n"
        "#ifdef __cplusplus\nnamespace std { using ::int8_t; using ::uint8_t; using ::int16_t; using "
        "::uint16_t;\n"
        "using ::int32_t; using ::uint32_t; using ::int64_t; using ::uint64_t; using ::intptr_t; using "
        "::uintptr_t; }\n"
        "#endif\n";
    static constexpr const char* kLimits =
        "#pragma once\n#define CHAR_BIT 8\n#define SCHAR_MIN (-128)\n#define SCHAR_MAX 127\n#define "
        "UCHAR_MAX 255\n"
        "#define CHAR_MIN SCHAR_MIN\n#define CHAR_MAX SCHAR_MAX\n#define SHRT_MIN (-32767-1)\n#define "
        "SHRT_MAX 32767\n"
        "#define USHRT_MAX 65535\n#define INT_MIN (-2147483647-1)\n#define INT_MAX 2147483647\n"
        "#define UINT_MAX 4294967295U\n#define LONG_MIN (-9223372036854775807L-1)\n"
        "#define LONG_MAX 9223372036854775807L\n#define ULONG_MAX 18446744073709551615UL\n"
        "#define LLONG_MIN (-9223372036854775807LL-1)\n#define LLONG_MAX 9223372036854775807LL\n"
        "#define ULLONG_MAX 18446744073709551615ULL\n";
    static constexpr const char* kFloat =
        "#pragma once\n#define FLT_MAX 3.40282347e+38F\n#define FLT_MIN 1.17549435e-38F\n"
        "#define FLT_EPSILON 1.19209290e-7F\n#define DBL_MAX 1.7976931348623157e+308\n"
        "#define DBL_MIN 2.2250738585072014e-308\n#define DBL_EPSILON 2.2204460492503131e-16\n"
        "#define FLT_DIG 6\n#define DBL_DIG 15\n#define FLT_MANT_DIG 24\n#define DBL_MANT_DIG 53\n";
    static const std::vector<std::pair<const char*, const char*>> shims = {
        {"assert.h", kAssert}, {"cassert", kAssert}, {"stdio.h", kBuiltIn},  {"cstdio", kBuiltIn},
        {"math.h", kBuiltIn},  {"cmath", kBuiltIn},  {"stdlib.h", kBuiltIn}, {"cstdlib", kBuiltIn},
        {"stdint.h", kStdint}, {"cstdint", kStdint}, {"limits.h", kLimits},  {"climits", kLimits},
        {"float.h", kFloat},   {"cfloat", kFloat}};
    return shims;
}

// Owns an nvrtcProgram, so that it is destroyed on every path, exceptions included.
class Program {
public:
    Program(std::string_view source, const std::string& name) {
        const std::string text(source); // NVRTC wants it NUL-terminated
        const auto& shims = hostHeaderShims();
        std::vector<const char*> headers, names;
        for (const auto& [headerName, content] : shims) {
            names.push_back(headerName);
            headers.push_back(content);
        }
        KP_NVRTC(nvrtcCreateProgram, &handle_, text.c_str(), name.c_str(), static_cast<int>(shims.size()),
                 headers.data(), names.data());
    }
    Program(Program&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Program& operator=(Program&& other) noexcept {
        std::swap(handle_, other.handle_);
        return *this;
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    // A destructor cannot throw, and nvrtcDestroyProgram only fails for an invalid handle, which this
    // class never holds.
    ~Program() {
        if (handle_) Nvrtc::api().nvrtcDestroyProgram(&handle_);
    }

    nvrtcProgram get() const noexcept { return handle_; }

private:
    nvrtcProgram handle_ = nullptr;
};

// NVRTC's sizes count the terminating NUL; the strings here do not.
std::string withoutTrailingNul(std::string text) {
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

std::string programLog(const Program& program) {
    std::size_t size = 0;
    KP_NVRTC(nvrtcGetProgramLogSize, program.get(), &size);
    std::string log(size, '\0');
    if (size > 0) KP_NVRTC(nvrtcGetProgramLog, program.get(), log.data());
    return withoutTrailingNul(std::move(log));
}

std::string programPtx(const Program& program) {
    std::size_t size = 0;
    KP_NVRTC(nvrtcGetPTXSize, program.get(), &size);
    std::string ptx(size, '\0');
    if (size > 0) KP_NVRTC(nvrtcGetPTX, program.get(), ptx.data());
    return withoutTrailingNul(std::move(ptx));
}

std::vector<std::byte> programCubin(const Program& program) {
    std::size_t size = 0;
    KP_NVRTC(nvrtcGetCUBINSize, program.get(), &size); // 0 for a virtual architecture
    std::vector<std::byte> cubin(size);
    if (size > 0) KP_NVRTC(nvrtcGetCUBIN, program.get(), reinterpret_cast<char*>(cubin.data()));
    return cubin;
}

// The value of an option given in `extra` as "-name=value", "-name value" or with any of its spellings.
std::optional<std::string> optionValue(const std::vector<std::string>& extra,
                                       std::initializer_list<std::string_view> spellings) {
    std::optional<std::string> value;
    for (std::size_t i = 0; i < extra.size(); ++i) {
        const std::string_view option = extra[i];
        for (const auto spelling : spellings) {
            if (option == spelling && i + 1 < extra.size())
                value = extra[i + 1];
            else if (option.starts_with(spelling) && option.substr(spelling.size()).starts_with('='))
                value = std::string(option.substr(spelling.size() + 1));
        }
    }
    return value; // the last one, as NVRTC takes the last
}

// Raw options may name the architecture or the standard themselves (a playground's "options":
// ["-std=c++20"]); then they win, and ours are left out so that NVRTC does not warn about the repetition.
std::optional<std::string> archInExtraOptions(const CompileOptions& options) {
    return optionValue(options.extraOptions, {"--gpu-architecture", "-arch"});
}

std::vector<std::string> nvrtcFlags(const CompileOptions& options, const std::string& arch) {
    std::vector<std::string> flags;
    if (!archInExtraOptions(options)) flags.push_back("--gpu-architecture=" + arch);
    if (!options.standard.empty() && !optionValue(options.extraOptions, {"--std", "-std"}))
        flags.push_back("-std=" + options.standard);
    for (const auto& dir : options.includeDirs)
        flags.push_back("-I" + dir);
    for (const auto& [name, value] : options.defines)
        flags.push_back(value.empty() ? "-D" + name : "-D" + name + "=" + value);
    if (options.lineInfo) flags.emplace_back("-lineinfo");
    if (options.fastMath) flags.emplace_back("-use_fast_math");
    flags.insert(flags.end(), options.extraOptions.begin(), options.extraOptions.end());
    // The toolkit's headers last, so that the user's folders and their own -I come first.
    for (const auto& dir : toolkitHeaders().folders)
        flags.push_back("-I" + dir.string());
    return flags;
}

std::string trimmedLog(std::string log) {
    while (!log.empty() && (log.back() == '\n' || log.back() == '\r' || log.back() == ' '))
        log.pop_back();
    return log;
}

std::string join(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& word : words)
        text += (text.empty() ? "" : " ") + word;
    return text;
}

// An #include NVRTC cannot open, when the toolkit's headers were not found either, gets a note saying
// where they were looked for: <cooperative_groups.h> is the toolkit's, not the user's, to provide.
void explainMissingToolkitHeaders(std::vector<model::Diagnostic>& diagnostics) {
    const auto& toolkit = toolkitHeaders();
    if (toolkit.found()) return;
    const auto missing = std::find_if(diagnostics.begin(), diagnostics.end(), [](const model::Diagnostic& d) {
        return d.message.find("cannot open source file") != std::string::npos;
    });
    if (missing == diagnostics.end()) return;
    model::Diagnostic note = *missing;
    note.severity = model::Diagnostic::Severity::Note;
    note.message = toolkit.unavailableReason();
    diagnostics.insert(std::next(missing), std::move(note));
}

// The folders NVRTC searches for #include, including those given as raw -I options.
std::vector<fs::path> includeSearchPath(const CompileOptions& options) {
    std::vector<fs::path> dirs(options.includeDirs.begin(), options.includeDirs.end());
    const auto& extra = options.extraOptions;
    for (std::size_t i = 0; i < extra.size(); ++i) {
        const std::string_view option = extra[i];
        const bool separate = option == "-I" || option == "--include-path";
        if (separate && i + 1 < extra.size())
            dirs.emplace_back(extra[++i]);
        else if (option.starts_with("--include-path="))
            dirs.emplace_back(option.substr(15));
        else if (option.starts_with("-I") && option.size() > 2)
            dirs.emplace_back(option.substr(2));
    }
    return dirs;
}

void appendField(std::string& out, std::string_view field) {
    out += std::to_string(field.size());
    out += ':';
    out += field;
}

// Which NVRTC this is: nvrtcVersion says only major.minor, and a patch release may generate other code.
const std::string& nvrtcIdentity() {
    static const std::string identity = [] {
        std::string text = Nvrtc::version() + " " + Nvrtc::path();
        std::error_code error;
        const auto size = fs::file_size(Nvrtc::path(), error);
        if (!error) text += " " + std::to_string(size);
        const auto written = fs::last_write_time(Nvrtc::path(), error);
        if (!error) text += " " + std::to_string(written.time_since_epoch().count());
        return text;
    }();
    return identity;
}

// Everything that decides what compileWithNvrtc returns, each field length-prefixed so that no two
// different inputs serialize alike.
std::string canonicalInput(std::string_view source, const std::string& fileName,
                           const CompileOptions& options, const std::string& arch,
                           const std::string& headers) {
    std::string key;
    key.reserve(source.size() + 512);
    appendField(key, "kernelpad-compile/2"); // 2: the host header shims
    appendField(key, nvrtcIdentity());
    appendField(key, arch);
    appendField(key, fileName);
    // NVRTC makes relative names absolute against the working folder (PTX .file directives with -lineinfo),
    // and relative include folders are searched from it.
    std::error_code noWorkingFolder;
    appendField(key, fs::current_path(noWorkingFolder).string());
    appendField(key, source);
    for (const auto& flag : nvrtcFlags(options, arch))
        appendField(key, flag);
    appendField(key, "names");
    for (const auto& expression : options.nameExpressions)
        appendField(key, expression);
    appendField(key, "headers");
    key += headers;
    return key;
}

// See Compiler::defaultArch. `supported` is ascending.
std::string archForCapability(int capability, const std::vector<int>& supported) {
    if (std::find(supported.begin(), supported.end(), capability) != supported.end())
        return "sm_" + std::to_string(capability);
    const auto older =
        std::find_if(supported.rbegin(), supported.rend(), [&](int arch) { return arch < capability; });
    if (older == supported.rend())
        throw Unavailable("this GPU (sm_" + std::to_string(capability) +
                          ") is older than the oldest architecture NVRTC " + Nvrtc::version() +
                          " can compile for (sm_" + std::to_string(supported.front()) +
                          "): use an older CUDA toolkit's NVRTC (KERNELPAD_NVRTC)");
    if (*older / 10 == capability / 10) return "sm_" + std::to_string(*older);
    return "compute_" + std::to_string(*older);
}

} // namespace

Compiler::Compiler(CompileCache* cache) : cache_(cache) {}

const std::vector<int>& Compiler::supportedArchs() {
    static const std::vector<int> archs = [] {
        int count = 0;
        KP_NVRTC(nvrtcGetNumSupportedArchs, &count);
        std::vector<int> list(static_cast<std::size_t>(std::max(count, 0)));
        if (!list.empty()) KP_NVRTC(nvrtcGetSupportedArchs, list.data());
        std::sort(list.begin(), list.end());
        if (list.empty())
            throw Unavailable("NVRTC at " + Nvrtc::path() + " reports no supported architecture");
        return list;
    }();
    return archs;
}

std::string Compiler::defaultArch(int device) {
    const auto& supported = supportedArchs();
    if (!Driver::available()) return "compute_" + std::to_string(supported.front());
    CUdevice handle = 0;
    KP_CU(cuDeviceGet, &handle, device);
    int major = 0;
    int minor = 0;
    KP_CU(cuDeviceGetAttribute, &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle);
    KP_CU(cuDeviceGetAttribute, &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle);
    return archForCapability(major * 10 + minor, supported);
}

CompileResult Compiler::compile(std::string_view source, const std::string& fileName,
                                const CompileOptions& options) const {
    const auto start = std::chrono::steady_clock::now();
    auto arch = archInExtraOptions(options).value_or(options.arch);
    if (arch.empty()) arch = defaultArch(options.device);

    io::IncludedHeaders includes(includeSearchPath(options));
    includes.add(source, fs::path(fileName).parent_path(), fileName);
    if (!includes.problems().empty()) {
        CompileResult refused;
        refused.arch = arch;
        refused.diagnostics = includes.problems();
        refused.milliseconds = millisecondsSince(start);
        return refused;
    }
    std::optional<CompileCache::Key> key;
    if (cache_) {
        key = CompileCache::Key::of(canonicalInput(source, fileName, options, arch, includes.fingerprint()));
        if (auto hit = cache_->find(*key)) {
            hit->milliseconds = millisecondsSince(start);
            return std::move(*hit);
        }
    }
    auto result = compileWithNvrtc(source, fileName, options, arch);
    if (key) cache_->store(*key, result);
    result.milliseconds = millisecondsSince(start);
    return result;
}

CompileResult Compiler::compileWithNvrtc(std::string_view source, const std::string& fileName,
                                         const CompileOptions& options, const std::string& arch) const {
    Program program(source, fileName);
    for (const auto& expression : options.nameExpressions)
        KP_NVRTC(nvrtcAddNameExpression, program.get(), expression.c_str());

    const auto flags = nvrtcFlags(options, arch);
    std::vector<const char*> argv;
    argv.reserve(flags.size());
    for (const auto& flag : flags)
        argv.push_back(flag.c_str());
    const auto status =
        Nvrtc::api().nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());

    CompileResult result;
    result.arch = arch;
    result.log = programLog(program);
    // A bad option comes from the user's playground or command line, not from the source: it is their
    // input to fix, and NVRTC's log is the only place that names the option.
    if (status == NVRTC_ERROR_INVALID_OPTION)
        throw InputError("NVRTC rejected the compile options \"" + join(flags) +
                         "\": " + (result.log.empty() ? "no reason given" : trimmedLog(result.log)));
    if (status != NVRTC_ERROR_COMPILATION) checkNvrtc(status, "nvrtcCompileProgram");
    result.diagnostics = NvrtcLog::parse(result.log, fileName, source);
    explainMissingToolkitHeaders(result.diagnostics);
    result.ok = status == NVRTC_SUCCESS;
    if (!result.ok) return result;

    result.ptx = programPtx(program);
    result.cubin = programCubin(program);
    for (const auto& expression : options.nameExpressions) {
        const char* lowered = nullptr;
        KP_NVRTC(nvrtcGetLoweredName, program.get(), expression.c_str(), &lowered);
        result.loweredNames[expression] = lowered ? lowered : "";
    }
    return result;
}

} // namespace kp::cuda
