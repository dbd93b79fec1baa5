#include "CompileCommand.h"

#include "ExitCode.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/CudaError.h"
#include "core/io/FileBytes.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

namespace kp::cli {

namespace {

bool writeFile(const std::string& path, const char* data, std::size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data, static_cast<std::streamsize>(size));
    out.close();
    return static_cast<bool>(out);
}

void printSummary(const CompileCommandOptions& options, const cuda::CompileResult& result) {
    std::cerr << options.file << ": " << (result.ok ? "compiled" : "failed") << " for " << result.arch
              << " in " << result.milliseconds << " ms (cache: " << cuda::cacheHitName(result.fromCache)
              << "), PTX " << result.ptx.size() << " bytes, CUBIN " << result.cubin.size() << " bytes\n";
    for (const auto& [expression, lowered] : result.loweredNames)
        std::cerr << "  " << expression << " -> " << lowered << "\n";
}

// Writes --ptx and --cubin; false (after saying why) when one cannot be written.
bool writeOutputs(const CompileCommandOptions& options, const cuda::CompileResult& result) {
    if (!options.ptxOut.empty() && !writeFile(options.ptxOut, result.ptx.data(), result.ptx.size())) {
        std::cerr << "kernelpad-cli: cannot write " << options.ptxOut << ": " << std::strerror(errno) << "\n";
        return false;
    }
    if (options.cubinOut.empty()) return true;
    if (result.cubin.empty()) {
        std::cerr << "kernelpad-cli: no CUBIN for " << result.arch
                  << " (a virtual architecture gives PTX only): pass --arch sm_XY\n";
        return false;
    }
    if (!writeFile(options.cubinOut, reinterpret_cast<const char*>(result.cubin.data()),
                   result.cubin.size())) {
        std::cerr << "kernelpad-cli: cannot write " << options.cubinOut << ": " << std::strerror(errno)
                  << "\n";
        return false;
    }
    return true;
}

} // namespace

CLI::App* addCompileCommand(CLI::App& root, CompileCommandOptions& options) {
    auto* cmd = root.add_subcommand("compile", "Compile a CUDA source with NVRTC and print its diagnostics");
    cmd->add_option("file", options.file, "The .cu file")->required();
    cmd->add_option("nvrtc-options", options.nvrtcOptions, "NVRTC options, after --");
    cmd->add_option("--arch", options.arch, "sm_XY (CUBIN and PTX) or compute_XY (PTX only)");
    cmd->add_option("--name", options.names,
                    "A kernel's C++ name (e.g. scale<float>) to instantiate and look up");
    cmd->add_option("--ptx", options.ptxOut, "Write the PTX to this file");
    cmd->add_option("--cubin", options.cubinOut, "Write the CUBIN to this file (needs an sm_XY arch)");
    cmd->add_flag("--no-cache", options.noCache, "Compile even if the compile cache has the result");
    cmd->add_flag("-v,--verbose", options.verbose, "Say the arch, time, cache hit and mangled names");
    return cmd;
}

int runCompileCommand(const CompileCommandOptions& options) {
    // Only a regular file, without waiting: a FIFO or /dev/zero is refused at once (io/FileBytes).
    std::optional<std::string> source;
    try {
        source = io::readTextFile(options.file);
    } catch (const InputError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::BadInput;
    }
    cuda::CompileOptions compileOptions;
    compileOptions.arch = options.arch;
    compileOptions.extraOptions = options.nvrtcOptions;
    compileOptions.nameExpressions = options.names;

    cuda::CompileResult result;
    try {
        const cuda::Compiler compiler(options.noCache ? nullptr : &cuda::CompileCache::user());
        result = compiler.compile(*source, options.file, compileOptions);
    } catch (const cuda::Unavailable& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::NoBackend;
    }
    for (const auto& diagnostic : result.diagnostics)
        std::cout << model::toString(diagnostic) << "\n";
    if (options.verbose) printSummary(options, result);
    if (!result.ok) return ExitCode::CompileError;
    return writeOutputs(options, result) ? ExitCode::Ok : ExitCode::BadInput;
}

} // namespace kp::cli
