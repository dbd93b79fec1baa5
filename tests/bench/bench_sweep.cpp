// bench_sweep: the multiply_them sample swept from 1,000 to 2^26 elements on CUDA, the CPU backend (all
// cores) and its C++ reference, the sweep the tutorials did with time.time(). Prints the crossovers, the
// kernel at 2^26 against the same kernel launched with the raw driver API in this run (same block and
// grid, events, the same repeats), the reference against a serial loop compiled into this benchmark, both
// also against anchors.md's figures (0.293 ms and 62 ms on the H100 host), and what the sweep costs beyond
// the runs it times. Usage: bench_sweep [--json FILE] [--csv FILE]. Needs a GPU.
#include "BenchTable.h"
#include "core/Stopwatch.h"
#include "core/cpu/HostCompiler.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/Context.h"
#include "core/cuda/Device.h"
#include "core/io/InitialArray.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/RunSetup.h"
#include "core/run/Reference.h"
#include "core/run/SweepRunner.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <fstream>
#include <map>
#include <stdexcept>
#include <vector>

using namespace kp;

namespace {

void rawCheck(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(r));
}

// The sweep's largest GPU point done by hand: the sample compiled once, three cuMemAlloc'd arrays, the
// launch the sweep made (its block and grid) timed by events, `warmup` untimed then the median of `repeat`.
double rawKernelMs(const model::Playground& playground, const run::SweepRow& row, int repeat, int warmup) {
    const cuda::Context context(cuda::Device::get(0));
    const auto kernel = launch::prepareKernel(playground);
    const auto compiled = cuda::Compiler(nullptr).compile(kernel.source, kernel.sourceName, {});
    if (!compiled.ok) throw std::runtime_error("the sample does not compile");
    CUmodule module = nullptr;
    rawCheck(cuModuleLoadData(&module, compiled.cubin.data()), "cuModuleLoadData");
    CUfunction function = nullptr;
    rawCheck(cuModuleGetFunction(&function, module, "multiply_them"), "cuModuleGetFunction");
    const std::size_t bytes = row.elements * sizeof(float);
    CUdeviceptr dest = 0, a = 0, b = 0;
    rawCheck(cuMemAlloc(&dest, bytes), "cuMemAlloc");
    rawCheck(cuMemAlloc(&a, bytes), "cuMemAlloc");
    rawCheck(cuMemAlloc(&b, bytes), "cuMemAlloc");
    rawCheck(cuMemsetD8(a, 0, bytes), "cuMemsetD8");
    rawCheck(cuMemsetD8(b, 0, bytes), "cuMemsetD8");
    int n = static_cast<int>(row.elements);
    void* args[] = {&dest, &a, &b, &n};
    CUevent e0 = nullptr, e1 = nullptr;
    rawCheck(cuEventCreate(&e0, CU_EVENT_DEFAULT), "cuEventCreate");
    rawCheck(cuEventCreate(&e1, CU_EVENT_DEFAULT), "cuEventCreate");
    std::vector<double> times;
    for (int i = 0; i < warmup + repeat; ++i) {
        rawCheck(cuEventRecord(e0, nullptr), "cuEventRecord");
        rawCheck(cuLaunchKernel(function, row.grid[0], row.grid[1], row.grid[2], row.block[0], row.block[1],
                                row.block[2], 0, nullptr, args, nullptr),
                 "cuLaunchKernel");
        rawCheck(cuEventRecord(e1, nullptr), "cuEventRecord");
        rawCheck(cuEventSynchronize(e1), "cuEventSynchronize");
        float ms = 0;
        rawCheck(cuEventElapsedTime(&ms, e0, e1), "cuEventElapsedTime");
        if (i >= warmup) times.push_back(ms);
    }
    cuEventDestroy(e0);
    cuEventDestroy(e1);
    cuMemFree(dest);
    cuMemFree(a);
    cuMemFree(b);
    cuModuleUnload(module);
    return bench::median(times);
}

// The reference's loop written into this benchmark, kept out of line as the reference's function is.
[[gnu::noinline]] void serialMultiply(float* dest, const float* a, const float* b, int n) {
    for (int i = 0; i < n; ++i)
        dest[i] = a[i] * b[i];
}

// The reference at the sweep's largest point timed by runReference, and the loop above over copies of
// the same inputs, taken in turns so that the machine's drift (one core's memory bandwidth on the GPU
// machine moves by a third from minute to minute) falls on both: the median of each over `rounds`.
std::pair<double, double> referenceAgainstLoop(const model::Playground& point, int repeat, int warmup,
                                               int rounds) {
    const auto setup = launch::prepare(point);
    const auto& a = setup.args.at(1).array;
    const auto& b = setup.args.at(2).array;
    const auto n = static_cast<int>(a.bytes() / sizeof(float));
    std::vector<float> dest(a.bytes() / sizeof(float)), aCopy(a.bytes() / sizeof(float)),
        bCopy(a.bytes() / sizeof(float));
    std::memcpy(aCopy.data(), a.data(), a.bytes());
    std::memcpy(bCopy.data(), b.data(), b.bytes());
    std::vector<double> reference, loop;
    for (int round = 0; round < rounds; ++round) {
        reference.push_back(run::runReference(setup, cpu::HostCompiler(), repeat, warmup).milliseconds);
        for (int i = 0; i < warmup; ++i)
            serialMultiply(dest.data(), aCopy.data(), bCopy.data(), n);
        loop.push_back(
            bench::medianMs(repeat, [&] { serialMultiply(dest.data(), aCopy.data(), bCopy.data(), n); }));
    }
    return {bench::median(reference), bench::median(loop)};
}

} // namespace

int main(int argc, char** argv) {
    std::string json, csv;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = argv[i + 1];
        if (std::strcmp(argv[i], "--csv") == 0) csv = argv[i + 1];
    }
    const auto playground =
        io::readPlayground(std::string(KP_SOURCE_DIR) + "/samples/multiply_them/multiply_them.kpad.json");
    auto spec = run::storedSweepSpec(playground).value();
    spec.backends = {"cuda:0", "cpu", "reference"};
    spec.from = 1000;
    spec.to = 67108864; // 2^26, anchors.md's multiply_them
    spec.steps = 10;
    spec.repeat = 10;
    spec.warmup = 2;

    // Where the wall time goes, by the rows' backends: from the previous row to this one. A point's first
    // row (the reference's) also holds the point's setup (its inputs: generated for the first point,
    // leading parts after), the others their checks.
    std::map<std::string, double> wallBy, timedBy;
    auto last = std::chrono::steady_clock::now();
    run::SweepOptions options;
    options.progress = [&](const run::SweepRow& row, std::size_t, std::size_t) {
        wallBy[row.backend] += millisecondsSince(last);
        last = std::chrono::steady_clock::now();
    };
    const auto start = std::chrono::steady_clock::now();
    const auto result = run::runSweep(playground, spec, options);
    const double wallMs = millisecondsSince(start);

    // What the sweep timed: every timed and untimed repeat of every row.
    double timedMs = 0;
    for (const auto& row : result.rows) {
        timedMs += (spec.repeat + spec.warmup) * row.timeMs(true);
        timedBy[row.backend] += (spec.repeat + spec.warmup) * row.timeMs(true);
    }
    bool allPassed = true;
    for (const auto& row : result.rows) {
        if (!row.ran() || row.check.starts_with("failed")) allPassed = false;
        std::printf("%-10s %12llu elements: kernel %9.4f ms  with copies %9.4f ms  %s%s\n",
                    row.backend.c_str(), static_cast<unsigned long long>(row.elements), row.kernel().median,
                    row.timeMs(true), row.check.c_str(), row.error.c_str());
    }
    for (const auto& c : run::crossovers(result))
        std::printf("%s\n", run::describe(c, result).c_str());

    bench::BenchTable table;
    const auto* gpuLast = result.rowsOf("cuda:0").back();
    const auto* refLast = result.rowsOf("reference").back();
    const auto* cpuLast = result.rowsOf("cpu").back();
    const double rawMs = rawKernelMs(playground, *gpuLast, spec.repeat, spec.warmup);
    auto largest = spec;
    largest.values = {static_cast<double>(refLast->value)};
    const auto [referenceMs, loopMs] = referenceAgainstLoop(
        run::planSweep(playground, largest).points.at(0).playground, spec.repeat, spec.warmup, 3);
    table.add({"multiply_them 2^26 kernel (sweep) vs raw launch, same block/grid", "ms",
               gpuLast->kernel().median, rawMs, "ratio <= 1.03", 1.03});
    table.add({"  the same vs anchors.md raw 0.293 ms (block 256)", "ms", gpuLast->kernel().median, 0.293,
               "informational", 0});
    table.add({"  its bandwidth vs the device's peak", "GB/s", gpuLast->gigabytesPerSecond().value_or(0),
               result.backends[0].peak.bandwidthGBs, "informational", 0});
    table.add({"reference 2^26 (one core) vs the same loop in this benchmark, in turns", "ms", referenceMs,
               loopMs, "ratio <= 1.10", 1.10});
    table.add({"  the reference's row in the sweep vs anchors.md serial loop 62 ms", "ms",
               refLast->kernel().median, 62, "informational", 0});
    table.add({"CPU backend 2^26 (all cores) vs the reference", "ms", cpuLast->kernel().median,
               refLast->kernel().median, "informational", 0});
    for (const bool copies : {false, true}) {
        const auto c = run::crossover(result, "cuda:0", "reference", copies);
        table.add({std::string("crossover cuda:0 vs reference, ") + (copies ? "with copies" : "kernel only"),
                   "elements", c.kind == run::Crossover::Kind::Found ? c.x : 0, 0, "informational", 0});
    }
    table.add({"whole sweep wall time vs the repeats it times", "ms", wallMs, timedMs, "ratio <= 2", 2});
    for (const auto& [backend, ms] : wallBy)
        table.add({"  " + backend + " rows: wall vs timed" +
                       (backend == "reference" ? " (with each point's setup)" : " (with checks)"),
                   "ms", ms, timedBy[backend], "informational", 0});
    {
        // The inputs of the largest point made alone, as the sweep makes them once.
        const auto plan = run::planSweep(playground, largest);
        const auto& big = plan.points.at(0).playground;
        const auto begin = std::chrono::steady_clock::now();
        std::size_t made = 0;
        for (const auto& arg : big.args)
            if (arg.isArray() && arg.init)
                made += io::initialArray(arg.array(), *arg.init, big.folder, "bench", model::heapAllocator())
                            .size();
        table.add({"  the largest point's inputs generated alone (" + std::to_string(made) + " elements)",
                   "ms", millisecondsSince(begin), 0, "informational", 0});
    }
    table.print();
    std::printf("%zu rows, every check %s; device %s, peak %.0f GB/s, %.0f GFLOP/s FP32\n",
                result.rows.size(), allPassed ? "passed" : "DID NOT pass", result.backends[0].name.c_str(),
                result.backends[0].peak.bandwidthGBs, result.backends[0].peak.gflops);
    if (!json.empty()) table.writeJson(json);
    if (!csv.empty()) std::ofstream(csv) << result.toCsv();
    return allPassed ? 0 : 1;
}
