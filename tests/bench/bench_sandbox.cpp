// bench_sandbox: what running CPU code in the sandbox (a child process under Landlock, seccomp and
// limits) adds to a CPU-backend run, against the same kernel called in this process the way the CPU
// backend did before (compile-cache lookup, dlopen, the block loop), in the same run. Goal: at most
// 20 ms added. Also: the same run as a trusted file (a child process without the confinement), and a
// compile-cache hit with the checksum that now guards it. Usage: bench_sandbox [--json FILE].
#include "BenchTable.h"
#include "core/cpu/BlockState.h"
#include "core/cpu/CpuRunner.h"
#include "core/cpu/CudaHostHeader.h"
#include "core/io/PlaygroundFile.h"
#include "core/sandbox/Confinement.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace kp;

namespace {

launch::RunSetup multiplySetup(std::size_t n) {
    nlohmann::json playground = {
        {"format", "kernelpad/1"},
        {"code",
         "__global__ void mul(float* d, const float* a, const float* b, int n) {\n"
         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) d[i] = a[i] * b[i];\n}\n"},
        {"kernel", "mul"},
        {"launch", {{"grid", "auto"}, {"block", {256}}}}};
    playground["args"] = {
        {{"name", "d"}, {"array", {{"dtype", "float32"}, {"shape", {n}}}}, {"direction", "out"}},
        {{"name", "a"},
         {"array", {{"dtype", "float32"}, {"shape", {n}}}},
         {"direction", "in"},
         {"init", "ones"}},
        {{"name", "b"},
         {"array", {{"dtype", "float32"}, {"shape", {n}}}},
         {"direction", "in"},
         {"init", {{"constant", 2}}}},
        {{"name", "n"}, {"scalar", {{"dtype", "int32"}}}, {"value", "size(a)"}}};
    return launch::prepare(
        io::parsePlayground(playground.dump(), std::filesystem::temp_directory_path() / "bench.kpad.json"));
}

// The run as the CPU backend made it in its own process before the sandbox: the same compiled program,
// loaded here, its blocks called in a loop on one thread, copies in and out as a run makes them.
double inProcessMs(const launch::RunSetup& setup) {
    const auto start = std::chrono::steady_clock::now();
    const cpu::HostCompiler compiler;
    const auto compiled =
        compiler.compile({{setup.sourceName, cpu::CpuRunner::hostSource(setup)}}, cpu::hostKernelOptions());
    if (!compiled.ok) throw Error("bench_sandbox: the kernel does not compile:\n" + compiled.log);
    const auto library = cpu::loadCompiled(compiled.library);
    const auto runBlock = reinterpret_cast<void (*)(void* const*)>(library->symbol("kernelpad_run_block"));
    std::vector<model::Array> work;
    std::vector<void*> pointers;
    work.reserve(setup.args.size());
    for (const auto& arg : setup.args) {
        if (!arg.isArray) {
            work.emplace_back();
            pointers.push_back(const_cast<std::byte*>(arg.scalarBytes.data()));
            continue;
        }
        work.emplace_back(arg.array);
        pointers.push_back(work.back().data());
    }
    auto& state = kernelpad_block_state;
    const auto& g = setup.launch;
    std::copy(g.grid.begin(), g.grid.end(), state.gridDimension);
    std::copy(g.block.begin(), g.block.end(), state.blockDimension);
    for (std::uint32_t x = 0; x < g.grid[0]; ++x) {
        state.blockIndex[0] = x;
        state.blockIndex[1] = state.blockIndex[2] = 0;
        runBlock(pointers.data());
    }
    model::Array result(work[0]);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double runMs(const cpu::CpuRunner& runner, const launch::RunSetup& setup) {
    const auto start = std::chrono::steady_clock::now();
    (void)runner.run(setup);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    const auto& support = sandbox::support();
    std::printf("bench_sandbox: sandbox %s (Landlock ABI %d)\n\n",
                support.available ? "available" : support.reason.c_str(), support.landlockAbi);
    const cpu::CpuRunner one(cpu::HostCompiler(), 1);
    bench::BenchTable table;
    for (const std::size_t n : {std::size_t{400}, std::size_t{1} << 22}) {
        const auto setup = multiplySetup(n);
        (void)inProcessMs(setup); // compiled and cached once, for every row below
        sandbox::setMode(sandbox::Mode::Contained);
        (void)runMs(one, setup);
        const std::string size = n == 400 ? "400 floats" : "2^22 floats";
        const double baseline = bench::median([&] {
            std::vector<double> samples;
            samples.reserve(21);
            for (int i = 0; i < 21; ++i)
                samples.push_back(inProcessMs(setup));
            return samples;
        }());
        if (support.available) {
            const double contained = bench::medianMs(21, [&] { (void)runMs(one, setup); });
            table.add({"CPU run of multiply, " + size + ", sandboxed vs in process (added ms)", "ms",
                       contained - baseline, 0, "<= 20 ms added"});
            table.add({"CPU run of multiply, " + size + ", sandboxed vs in process", "ms", contained,
                       baseline, "information"});
        }
        sandbox::setMode(sandbox::Mode::Trusted);
        const double trusted = bench::medianMs(21, [&] { (void)runMs(one, setup); });
        table.add({"CPU run of multiply, " + size + ", trusted (child, unconfined) vs in process", "ms",
                   trusted, baseline, "information"});
    }
    table.print();
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--json") == 0) table.writeJson(argv[i + 1]);
    return 0;
}
