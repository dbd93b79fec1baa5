#include "CompiledCode.h"

#include "core/Error.h"
#include "core/Stopwatch.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Disassembler.h"
#include "core/cuda/Driver.h"
#include "core/cuda/Nvrtc.h"
#include "core/launch/CompileError.h"
#include "core/launch/ProgramPlan.h"
#include "core/launch/RunSetup.h"

#include <algorithm>
#include <charconv>
#include <chrono>

namespace kp::run {

namespace {

using nlohmann::json;

// "sm_90" and "sm_90a" -> 90; nullopt for anything that is not a real architecture.
std::optional<int> realArchNumber(std::string_view arch) {
    if (!arch.starts_with("sm_")) return std::nullopt;
    arch.remove_prefix(3);
    int number = 0;
    const auto [end, error] = std::from_chars(arch.data(), arch.data() + arch.size(), number);
    const std::string_view suffix(end, static_cast<std::size_t>(arch.data() + arch.size() - end));
    if (error != std::errc() || end == arch.data() || suffix.size() > 1 ||
        (suffix.size() == 1 && suffix != "a" && suffix != "f"))
        return std::nullopt;
    return number;
}

std::string archList(const std::vector<int>& archs) {
    std::string text;
    for (const int arch : archs)
        text += (text.empty() ? "sm_" : ", sm_") + std::to_string(arch);
    return text;
}

void checkArch(const std::string& arch, const std::vector<int>& supported) {
    const auto number = realArchNumber(arch);
    if (!number)
        throw InputError(
            "arch: \"" + arch +
            "\" is not a real GPU architecture; the compiled code needs one like sm_90, " +
            "whose CUBIN holds the SASS and the register counts (a compute_XY one has PTX only)");
    if (std::find(supported.begin(), supported.end(), *number) == supported.end())
        throw InputError("arch: this NVRTC cannot compile for " + arch + "; it knows " + archList(supported));
}

// The playground's options without an architecture, which the one chosen in the view replaces.
std::vector<std::string> withoutArch(const std::vector<std::string>& options) {
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const std::string_view option = options[i];
        if (option == "-arch" || option == "--gpu-architecture") {
            ++i; // and its value
            continue;
        }
        if (option.starts_with("-arch=") || option.starts_with("--gpu-architecture=")) continue;
        kept.push_back(options[i]);
    }
    return kept;
}

bool asksForLineInfo(const std::vector<std::string>& options) {
    return std::any_of(options.begin(), options.end(),
                       [](const std::string& o) { return o == "-lineinfo" || o == "--generate-line-info"; });
}

cuda::CompileOptions compileOptions(const launch::RunSetup& setup, const std::string& arch, bool lineInfo) {
    cuda::CompileOptions options;
    options.arch = arch;
    options.lineInfo = lineInfo;
    options.extraOptions = withoutArch(setup.compile.options);
    // ptxas's verbose report in NVRTC's log: registers, stack, shared memory and spills per kernel.
    options.extraOptions.emplace_back("-Xptxas=-v");
    // And ptxas run every time, which NVRTC's own cache would skip; the CompileCache still keeps the result,
    // report included.
    if (cuda::Nvrtc::keepsItsOwnCache()) options.extraOptions.emplace_back("--no-cache");
    for (const auto& [name, value] : setup.compile.defines)
        options.defines[name] = value;
    // A template kernel exists in the code only once named (as the runners name it).
    for (const auto& kernel : launch::programOf(setup).kernels)
        if (!kernel.signature.externC) options.nameExpressions.push_back(kernel.name);
    return options;
}

// ptxas's report is not a problem with the source: it stays out of the diagnostics the view shows.
std::vector<model::Diagnostic> withoutPtxasReport(std::vector<model::Diagnostic> diagnostics) {
    std::erase_if(diagnostics, [](const model::Diagnostic& d) {
        return d.message.find("ptxas info") != std::string::npos;
    });
    return diagnostics;
}

// The kernels in the order of the PTX (ptxas reports them in another).
std::vector<cuda::KernelResources> inCodeOrder(std::vector<cuda::KernelResources> reported,
                                               const cuda::CodeListing& ptx) {
    std::vector<cuda::KernelResources> ordered;
    for (const auto& function : ptx.functions()) {
        const auto found = std::find_if(reported.begin(), reported.end(),
                                        [&](const auto& k) { return k.name == function.name; });
        if (found == reported.end()) continue;
        ordered.push_back(std::move(*found));
        reported.erase(found);
    }
    ordered.insert(ordered.end(), std::make_move_iterator(reported.begin()),
                   std::make_move_iterator(reported.end()));
    return ordered;
}

void addSass(CompiledCode& code, const cuda::CompileResult& compiled) {
    const auto start = std::chrono::steady_clock::now();
    if (compiled.cubin.empty()) {
        code.sassUnavailable = "NVRTC made no CUBIN for " + code.arch + ", so there is no SASS to show.";
        return;
    }
    const auto nvdisasm = cuda::Disassembler::find();
    if (!nvdisasm) {
        code.sassUnavailable = cuda::Disassembler::unavailableReason();
        return;
    }
    try {
        code.sass = cuda::CodeListing::fromSass(cuda::Disassembler(*nvdisasm).disassemble(compiled.cubin),
                                                code.sourceName);
        if (code.sass.empty()) code.sassUnavailable = nvdisasm->string() + " printed no code for the CUBIN.";
    } catch (const Error& e) { // the PTX is still worth showing
        code.sassUnavailable = std::string("SASS could not be read: ") + e.what();
    }
    code.disassembleMs = millisecondsSince(start);
}

// What NVRTC would compile for on this machine's GPU ("sm_90", or "compute_120" for a GPU newer than
// NVRTC); empty without a usable GPU.
std::string gpuArch() {
    if (!cuda::Driver::available()) return {};
    try {
        return cuda::Compiler::defaultArch();
    } catch (const Error&) { // a device NVRTC is too new for, or none after all: as without a GPU
        return {};
    }
}

// CompiledCode::defaultArch, given gpuArch().
std::string defaultArchFor(const std::string& gpu) {
    const auto& supported = cuda::Compiler::supportedArchs();
    const auto newest = "sm_" + std::to_string(supported.back());
    if (!gpu.empty()) return gpu.starts_with("sm_") ? gpu : newest; // a GPU newer than NVRTC: its newest
    return std::find(supported.begin(), supported.end(), 90) != supported.end() ? "sm_90" : newest;
}

} // namespace

const cuda::KernelResources* CompiledCode::resources(std::string_view kernelName) const {
    for (const auto& k : kernels)
        if (k.name == kernelName) return &k;
    return nullptr;
}

std::string CompiledCode::defaultArch() {
    return defaultArchFor(gpuArch());
}

CompiledCode compileCode(const model::Playground& playground, const std::string& arch, bool lineInfo,
                         cuda::CompileCache* cache) {
    const launch::RunSetup setup = launch::prepareKernel(playground);
    CompiledCode code;
    code.supportedArchs = cuda::Compiler::supportedArchs();
    const std::string gpu = gpuArch(); // the device is asked once
    if (gpu.starts_with("sm_")) code.deviceArch = gpu;
    code.arch = arch.empty() ? defaultArchFor(gpu) : arch;
    checkArch(code.arch, code.supportedArchs);
    code.lineInfo = lineInfo || asksForLineInfo(setup.compile.options);
    code.sourceName = setup.sourceName;

    const cuda::Compiler compiler(cache);
    const auto compiled =
        compiler.compile(setup.source, setup.sourceName, compileOptions(setup, code.arch, lineInfo));
    if (!compiled.ok) throw launch::CompileError(compiled.diagnostics, compiled.log);
    code.compileMs = compiled.milliseconds;
    code.fromCache = compiled.fromCache != cuda::CompileResult::CacheHit::None;
    code.diagnostics = withoutPtxasReport(compiled.diagnostics);
    const auto lowered = compiled.loweredNames.find(setup.kernelName);
    code.kernel = lowered != compiled.loweredNames.end() && !lowered->second.empty() ? lowered->second
                                                                                     : setup.signature.name;
    code.ptx = cuda::CodeListing::fromPtx(compiled.ptx, code.sourceName);
    code.kernels = inCodeOrder(cuda::KernelResources::fromPtxasLog(compiled.log), code.ptx);
    addSass(code, compiled);
    return code;
}

json CompiledCode::toJson() const {
    json kernelsJson = json::array();
    for (const auto& k : kernels)
        kernelsJson.push_back(k.toJson());
    json diagnosticsJson = json::array();
    for (const auto& d : diagnostics)
        diagnosticsJson.push_back(model::toJson(d));
    return {{"arch", arch},
            {"line_info", lineInfo},
            {"source_name", sourceName},
            {"kernel", kernel},
            {"ptx", ptx.toJson()},
            {"sass", sass.toJson()},
            {"sass_unavailable", sassUnavailable},
            {"kernels", kernelsJson},
            {"diagnostics", diagnosticsJson},
            {"supported_archs", supportedArchs},
            {"device_arch", deviceArch},
            {"compile_ms", compileMs},
            {"from_cache", fromCache},
            {"disassemble_ms", disassembleMs}};
}

CompiledCode CompiledCode::fromJson(const json& j) {
    try {
        CompiledCode code;
        code.arch = j.at("arch").get<std::string>();
        code.lineInfo = j.at("line_info").get<bool>();
        code.sourceName = j.at("source_name").get<std::string>();
        code.kernel = j.at("kernel").get<std::string>();
        code.ptx = cuda::CodeListing::fromJson(j.at("ptx"));
        code.sass = cuda::CodeListing::fromJson(j.at("sass"));
        code.sassUnavailable = j.at("sass_unavailable").get<std::string>();
        for (const auto& k : j.at("kernels"))
            code.kernels.push_back(cuda::KernelResources::fromJson(k));
        for (const auto& d : j.at("diagnostics"))
            code.diagnostics.push_back(model::diagnosticFromJson(d));
        code.supportedArchs = j.at("supported_archs").get<std::vector<int>>();
        code.deviceArch = j.at("device_arch").get<std::string>();
        code.compileMs = j.at("compile_ms").get<double>();
        code.fromCache = j.at("from_cache").get<bool>();
        code.disassembleMs = j.at("disassemble_ms").get<double>();
        return code;
    } catch (const json::exception& e) {
        throw InputError(std::string("compiled code: ") + e.what());
    }
}

std::vector<model::Diagnostic> gpuCompilerErrors(const launch::RunSetup& setup, cuda::CompileCache* cache) {
    std::vector<model::Diagnostic> errors;
    try {
        const cuda::Compiler compiler(cache);
        const auto compiled = compiler.compile(setup.source, setup.sourceName,
                                               compileOptions(setup, defaultArchFor(gpuArch()), false));
        if (compiled.ok) return errors;
        for (auto d : compiled.diagnostics)
            if (d.severity == model::Diagnostic::Severity::Error) {
                d.message = "a GPU would not compile this: " + d.message;
                errors.push_back(std::move(d));
            }
    } catch (const std::exception&) {
        // NVRTC missing, or options it refuses: the CPU compiler's word stands alone.
    }
    return errors;
}

} // namespace kp::run
