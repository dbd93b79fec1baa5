// bench_code: the Compiled Code view's work (compile with ptxas's report, read the PTX's source lines,
// disassemble the CUBIN with nvdisasm, read the SASS and the registers) against the same compile done
// with NVRTC by hand plus nvdisasm run by hand on its CUBIN, in the same run, alternating round by
// round. Goal: within 10% of the raw work; a compile-cache hit far under it. Needs NVRTC; nvdisasm
// where the toolkit has it (without it, PTX against the raw compile alone).
#include "BenchTable.h"
#include "core/cuda/CompileCache.h"
#include "core/cuda/Disassembler.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/RunSetup.h"
#include "core/run/CompiledCode.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nvrtc.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace kp;
namespace fs = std::filesystem;

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The same compile by hand: the options CompiledCode adds (line info, ptxas's report, no driver cache).
std::vector<char> rawCompile(const launch::RunSetup& setup, const std::string& arch) {
    nvrtcProgram prog = nullptr;
    if (nvrtcCreateProgram(&prog, setup.source.c_str(), setup.sourceName.c_str(), 0, nullptr, nullptr) !=
        NVRTC_SUCCESS)
        throw std::runtime_error("raw nvrtcCreateProgram failed");
    if (!setup.signature.externC) nvrtcAddNameExpression(prog, setup.kernelName.c_str());
    const std::string archOption = "--gpu-architecture=" + arch;
    const char* options[] = {archOption.c_str(), "-std=c++17", "-lineinfo", "-Xptxas=-v", "--no-cache"};
    if (nvrtcCompileProgram(prog, 5, options) != NVRTC_SUCCESS)
        throw std::runtime_error("raw compile failed");
    std::size_t logSize = 0;
    nvrtcGetProgramLogSize(prog, &logSize);
    std::string log(logSize, '\0');
    nvrtcGetProgramLog(prog, log.data());
    std::size_t ptxSize = 0;
    nvrtcGetPTXSize(prog, &ptxSize);
    std::string ptx(ptxSize, '\0');
    nvrtcGetPTX(prog, ptx.data());
    std::size_t size = 0;
    nvrtcGetCUBINSize(prog, &size);
    std::vector<char> cubin(size);
    nvrtcGetCUBIN(prog, cubin.data());
    nvrtcDestroyProgram(&prog);
    return cubin;
}

// nvdisasm by hand on a CUBIN written to a file, its text read back.
std::size_t rawDisassemble(const fs::path& nvdisasm, const std::vector<char>& cubin) {
    const fs::path file = fs::temp_directory_path() / "bench_code.cubin";
    std::ofstream(file, std::ios::binary).write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
    const std::string command = nvdisasm.string() + " -c -gi " + file.string();
    FILE* out = popen(command.c_str(), "r");
    if (!out) throw std::runtime_error("popen nvdisasm failed");
    std::size_t bytes = 0;
    char buffer[65536];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, out))
        bytes += n;
    pclose(out);
    fs::remove(file);
    return bytes;
}

} // namespace

int main(int argc, char** argv) {
    std::string json;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--json") == 0) json = argv[i + 1];
    const auto playground =
        io::readPlayground(std::string(KP_SOURCE_DIR) + "/samples/matmul_tiled/matmul_tiled.kpad.json");
    const launch::RunSetup setup = launch::prepareKernel(playground);
    const std::string arch = run::CompiledCode::defaultArch();
    const auto nvdisasm = cuda::Disassembler::find();
    std::printf("matmul_tiled for %s; nvdisasm: %s\n", arch.c_str(), nvdisasm ? nvdisasm->c_str() : "none");

    // Warm both: NVRTC's start-up is paid once per process, by whichever comes first.
    const run::CompiledCode code = run::compileCode(playground, arch, true, nullptr);
    rawCompile(setup, arch);
    std::printf("%zu PTX lines, %zu SASS lines, %zu kernel(s)", code.ptx.lines().size(),
                code.sass.lines().size(), code.kernels.size());
    for (const auto& k : code.kernels)
        std::printf("; %s: %d registers, %d bytes of spill stores", k.name.c_str(), k.registers,
                    k.spillStoreBytes);
    std::printf("\n%s\n", code.sassUnavailable.c_str());

    // New code each round, as while editing: a global of its own changes the CUBIN, so neither the
    // compile cache nor the kept SASS can answer.
    std::vector<double> ours, raw;
    for (int round = 0; round < 9; ++round) {
        model::Playground edited = playground;
        edited.source.reset();
        edited.code = setup.source + "\n__device__ int kp_bench_round_" + std::to_string(round) + ";\n";
        auto start = std::chrono::steady_clock::now();
        run::compileCode(edited, arch, true, nullptr);
        ours.push_back(msSince(start));
        edited.code = setup.source + "\n__device__ int kp_bench_raw_round_" + std::to_string(round) + ";\n";
        const launch::RunSetup rawSetup = launch::prepareKernel(edited);
        start = std::chrono::steady_clock::now();
        const auto cubin = rawCompile(rawSetup, arch);
        if (nvdisasm) rawDisassemble(*nvdisasm, cubin);
        raw.push_back(msSince(start));
    }
    bench::BenchTable table;
    table.add({nvdisasm
                   ? "compiled code of new text: compile, report, PTX and SASS read (median of 9)"
                   : "compiled code of new text: compile, report and PTX read, no nvdisasm (median of 9)",
               "ms", bench::median(ours), bench::median(raw), "ratio <= 1.10", 1.10});

    // The same text again (a refresh, the dock shown again): a compile-cache hit and the SASS kept.
    const fs::path cacheDir = fs::temp_directory_path() / "bench_code_cache";
    fs::remove_all(cacheDir);
    cuda::CompileCache cache(cacheDir);
    run::compileCode(playground, arch, true, &cache);
    const double hit = bench::medianMs(9, [&] { run::compileCode(playground, arch, true, &cache); });
    table.add({"compiled code of the same text again: compile cache and kept SASS (median of 9)", "ms", hit,
               bench::median(raw), "ratio <= 0.50", 0.50});
    fs::remove_all(cacheDir);

    table.print();
    if (!json.empty()) table.writeJson(json);
    return 0;
}
