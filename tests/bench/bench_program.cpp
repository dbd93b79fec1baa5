// bench_program: a program's launches through the CUDA runner against the raw driver doing the same
// launches back to back, with no copies between them, in the same process (issue 24's goal: at most 5 µs
// more per launch). Both are timed by CUDA events around the launches, so what the host spends between
// two launches shows as GPU time whenever it is more than the kernel's. Three programs: a loop of one
// tiny kernel, an iterative stencil of two swapped grids, and a bitonic sort's nested loops with scalar
// arguments that change every launch. Usage: bench_program [--json FILE]. Needs a GPU.
#include "BenchTable.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/Context.h"
#include "core/cuda/Device.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/RunSetup.h"
#include "core/run/CudaRunner.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

using namespace kp;
using nlohmann::json;

namespace {

void rawCheck(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(r));
}

constexpr const char* kSource = R"(
extern "C" __global__ void bump(float* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}
extern "C" __global__ void heat(const float* u, float* next, int width, int height, float alpha) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) { next[i] = u[i]; return; }
    next[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - width] + u[i + width] - 4.0f * u[i]);
}
extern "C" __global__ void merge(unsigned* keys, unsigned j, unsigned k) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = 2 * t - (t & (j - 1));
    const bool up = (i & k) == 0;
    const unsigned a = keys[i], b = keys[i + j];
    if ((a > b) == up) { keys[i] = b; keys[i + j] = a; }
}
)";

// One launch the raw loop makes: a kernel, its geometry and its parameters.
struct RawLaunch {
    CUfunction function = nullptr;
    unsigned grid[3] = {1, 1, 1};
    unsigned block[3] = {1, 1, 1};
    std::vector<std::vector<std::byte>> values;
    std::vector<void*> pointers;
};

template <typename T> void addValue(RawLaunch& launch, const T& value) {
    std::vector<std::byte> bytes(sizeof(T));
    std::memcpy(bytes.data(), &value, sizeof(T));
    launch.values.push_back(std::move(bytes));
}

// The raw driver: the launches back to back on one stream, events around all of them; the median over
// `repeat` rounds of the time per launch, in microseconds. Parameter buffers are built before the clock
// starts, as the runner builds its own before its rounds.
double rawPerLaunchUs(std::vector<RawLaunch>& launches, int repeat) {
    for (auto& l : launches) {
        l.pointers.clear();
        for (auto& v : l.values)
            l.pointers.push_back(v.data());
    }
    CUstream stream = nullptr;
    CUevent start = nullptr, end = nullptr;
    rawCheck(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    rawCheck(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    rawCheck(cuEventCreate(&end, CU_EVENT_DEFAULT), "cuEventCreate");
    std::vector<double> samples;
    for (int r = 0; r < repeat + 1; ++r) { // the first round warms up
        rawCheck(cuEventRecord(start, stream), "cuEventRecord");
        for (auto& l : launches)
            rawCheck(cuLaunchKernel(l.function, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1],
                                    l.block[2], 0, stream, l.pointers.data(), nullptr),
                     "cuLaunchKernel");
        rawCheck(cuEventRecord(end, stream), "cuEventRecord");
        rawCheck(cuStreamSynchronize(stream), "cuStreamSynchronize");
        float ms = 0;
        rawCheck(cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime");
        if (r > 0) samples.push_back(1000.0 * ms / static_cast<double>(launches.size()));
    }
    cuEventDestroy(start);
    cuEventDestroy(end);
    cuStreamDestroy(stream);
    return bench::median(samples);
}

// The same launches as a program through the CUDA runner: the program's time (events from its first
// operation to its last) per launch, the median over `repeat` rounds, in microseconds.
double programPerLaunchUs(const run::CudaRunner& runner, const json& file, int repeat,
                          std::uint64_t& launches) {
    const auto playground =
        io::parsePlayground(file.dump(), std::filesystem::temp_directory_path() / "bench.kpad.json");
    const auto setup = launch::prepare(playground, runner.allocator());
    launches = setup.program.launchCount();
    const auto result = runner.run(setup, {repeat, 1});
    return 1000.0 * launch::median(result.kernelMs) / static_cast<double>(launches);
}

json floats(const std::string& name, const json& shape) {
    return {{"name", name}, {"array", {{"dtype", "float32"}, {"shape", shape}}}, {"direction", "inout"}};
}

} // namespace

int main(int argc, char** argv) {
    std::string jsonPath;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--json") jsonPath = argv[i + 1];
    try {
        const run::CudaRunner runner(0, nullptr);
        const cuda::Compiler compiler(nullptr);
        cuda::CompileOptions options;
        options.arch = runner.properties().arch();
        const auto compiled = compiler.compile(kSource, "bench.cu", options);
        if (!compiled.ok)
            throw std::runtime_error("the benchmark's kernels did not compile:\n" + compiled.log);
        CUmodule module = nullptr;
        rawCheck(cuModuleLoadData(&module, compiled.cubin.empty()
                                               ? static_cast<const void*>(compiled.ptx.c_str())
                                               : compiled.cubin.data()),
                 "cuModuleLoadData");
        CUfunction bump = nullptr, heat = nullptr, merge = nullptr;
        rawCheck(cuModuleGetFunction(&bump, module, "bump"), "cuModuleGetFunction");
        rawCheck(cuModuleGetFunction(&heat, module, "heat"), "cuModuleGetFunction");
        rawCheck(cuModuleGetFunction(&merge, module, "merge"), "cuModuleGetFunction");
        CUdeviceptr a = 0, u = 0, next = 0, keys = 0;
        rawCheck(cuMemAlloc(&a, 256 * sizeof(float)), "cuMemAlloc");
        rawCheck(cuMemAlloc(&u, 512 * 512 * sizeof(float)), "cuMemAlloc");
        rawCheck(cuMemAlloc(&next, 512 * 512 * sizeof(float)), "cuMemAlloc");
        rawCheck(cuMemAlloc(&keys, (1u << 20) * sizeof(unsigned)), "cuMemAlloc");
        rawCheck(cuMemsetD8(u, 0, 512 * 512 * sizeof(float)), "cuMemsetD8");
        rawCheck(cuMemsetD8(next, 0, 512 * 512 * sizeof(float)), "cuMemsetD8");
        rawCheck(cuMemsetD8(keys, 0, (1u << 20) * sizeof(unsigned)), "cuMemsetD8");
        const int repeat = 15;
        bench::BenchTable table;
        const auto add = [&](const std::string& what, double ours, double raw, std::uint64_t launches) {
            table.add(
                {what + " (" + std::to_string(launches) + " launches), per launch", "us", ours, raw, "", 0});
            table.add(
                {what + ": Kernelpad's time per launch over raw", "us", ours - raw, 5.0, "<= 5 us", 1.0});
        };

        // 5000 launches of a kernel over 256 floats: nothing but the launches.
        {
            std::vector<RawLaunch> launches(5000);
            for (auto& l : launches) {
                l.function = bump;
                l.block[0] = 256;
                addValue(l, a);
                addValue(l, 256);
            }
            const double raw = rawPerLaunchUs(launches, repeat);
            const json file = {{"format", "kernelpad/1"},
                               {"code", kSource},
                               {"args", {floats("a", {256})}},
                               {"steps",
                                {{{"repeat", {{"times", 5000}}},
                                  {"steps",
                                   {{{"launch",
                                      {{"kernel", "bump"},
                                       {"grid", {1}},
                                       {"block", {256}},
                                       {"args", {"a", "size(a)"}}}}}}}}}}};
            std::uint64_t count = 0;
            const double ours = programPerLaunchUs(runner, file, repeat, count);
            add("a loop of one tiny launch", ours, raw, count);
        }
        // 2000 time steps of a 512x512 heat stencil, the two grids swapped after each.
        {
            std::vector<RawLaunch> launches(2000);
            for (std::size_t s = 0; s < launches.size(); ++s) {
                auto& l = launches[s];
                l.function = heat;
                l.grid[0] = l.grid[1] = 32;
                l.block[0] = l.block[1] = 16;
                addValue(l, s % 2 ? next : u);
                addValue(l, s % 2 ? u : next);
                addValue(l, 512);
                addValue(l, 512);
                addValue(l, 0.24f);
            }
            const double raw = rawPerLaunchUs(launches, repeat);
            const json file = {
                {"format", "kernelpad/1"},
                {"code", kSource},
                {"args", {floats("u", {512, 512})}},
                {"buffers", {{{"name", "next"}, {"array", {{"dtype", "float32"}, {"shape", {512, 512}}}}}}},
                {"steps",
                 {{{"repeat", {{"times", 2000}}},
                   {"steps",
                    {{{"launch",
                       {{"kernel", "heat"},
                        {"grid", {32, 32}},
                        {"block", {16, 16}},
                        {"args", {"u", "next", 512, 512, 0.24}}}}},
                     {{"swap", {"u", "next"}}}}}}}}};
            std::uint64_t count = 0;
            const double ours = programPerLaunchUs(runner, file, repeat, count);
            add("a heat stencil's time steps", ours, raw, count);
        }
        // A bitonic sort's global merges over 2^20 keys: j and k change every launch.
        {
            std::vector<RawLaunch> launches;
            for (unsigned k = 2; k <= (1u << 20); k *= 2)
                for (unsigned j = k / 2; j > 0; j /= 2) {
                    RawLaunch l;
                    l.function = merge;
                    l.grid[0] = (1u << 19) / 256;
                    l.block[0] = 256;
                    addValue(l, keys);
                    addValue(l, j);
                    addValue(l, k);
                    launches.push_back(std::move(l));
                }
            const double raw = rawPerLaunchUs(launches, repeat);
            const json file = {
                {"format", "kernelpad/1"},
                {"code", kSource},
                {"args",
                 {{{"name", "keys"},
                   {"array", {{"dtype", "uint32"}, {"shape", {1u << 20}}}},
                   {"direction", "inout"}}}},
                {"steps",
                 {{{"repeat",
                    {{"counter", "k"}, {"from", 2}, {"while", "k <= size(keys)"}, {"next", "k * 2"}}},
                   {"steps",
                    {{{"repeat",
                       {{"counter", "j"}, {"from", "k / 2"}, {"while", "j > 0"}, {"next", "floor(j / 2)"}}},
                      {"steps",
                       {{{"launch",
                          {{"kernel", "merge"},
                           {"grid", {"size(keys) / 2 / 256"}},
                           {"block", {256}},
                           {"args", {"keys", "j", "k"}}}}}}}}}}}}}};
            std::uint64_t count = 0;
            const double ours = programPerLaunchUs(runner, file, repeat, count);
            add("a bitonic sort's merges", ours, raw, count);
        }
        cuMemFree(a);
        cuMemFree(u);
        cuMemFree(next);
        cuMemFree(keys);
        cuModuleUnload(module);
        std::printf("bench_program on %s: time per launch in a program, CUDA events, median of %d rounds\n",
                    runner.backendName().c_str(), repeat);
        table.print();
        if (!jsonPath.empty()) table.writeJson(jsonPath);
        return table.missedGoals() > 0 ? 1 : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_program: %s\n", e.what());
        return 2;
    }
}
