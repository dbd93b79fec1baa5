// bench_run: whole runs through the core's RunSetup + CudaRunner against the same work done with the raw
// driver API in the same process (issue 3's goals: kernel time within 3% of raw events; end to end no
// slower than raw, which copies from pageable memory as a PyCUDA script does). Usage:
// bench_run [--json FILE]. Needs a GPU.
#include "BenchTable.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/Context.h"
#include "core/launch/RunSetup.h"
#include "core/run/CudaRunner.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace kp;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void rawCheck(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(r));
}

// One scenario: a kernel over one input array of `elements` floats (plus a second for multiply), its
// playground for the runner, and a raw driver-API version of the same run.
struct Scenario {
    std::string title;
    std::string code;
    std::string kernel;
    std::size_t elements = 0;
    bool twoInputs = false; // multiply_them: dest = a * b; else sum of squares: *sum += x[i]^2
    std::uint32_t grid = 0, block = 256;
};

model::Playground playgroundOf(const Scenario& s) {
    model::Playground p;
    p.title = s.title;
    p.code = s.code;
    p.kernel = s.kernel;
    p.folder = std::filesystem::temp_directory_path();
    p.launch.autoGrid = false;
    p.launch.grid = {s.grid, 1, 1};
    p.launch.block = {s.block, 1, 1};
    model::InitSpec ones;
    ones.kind = model::InitSpec::Kind::Ones;
    model::InitSpec range;
    range.kind = model::InitSpec::Kind::Range;
    range.step = 1e-6;
    const model::ArraySpec big{model::DType::Float32, {s.elements}, {}};
    if (s.twoInputs) {
        p.args.push_back({"dest", big, model::Direction::Out, std::nullopt, std::nullopt, {}});
        p.args.push_back({"a", big, model::Direction::In, ones, std::nullopt, {}});
        p.args.push_back({"b", big, model::Direction::In, range, std::nullopt, {}});
    } else {
        p.args.push_back({"x", big, model::Direction::In, ones, std::nullopt, {}});
        p.args.push_back({"sum",
                          model::ArraySpec{model::DType::Float32, {1}, {}},
                          model::Direction::Out,
                          std::nullopt,
                          std::nullopt,
                          {}});
    }
    p.args.push_back({"n",
                      model::ScalarSpec{model::DType::Int32, {}},
                      std::nullopt,
                      std::nullopt,
                      model::ScalarValue{model::ScalarValue::Kind::Size, 0, s.twoInputs ? "a" : "x"},
                      {}});
    return p;
}

struct RawTimes {
    double endToEndMs = 0;
    double kernelMs = 0;
};

// What a hand-written program does: pageable host vectors, cuMemAlloc, cuMemcpyHtoD, a launch timed by
// events, cuMemcpyDtoH, cuMemFree. The module is loaded once outside, as a compiled SourceModule is.
RawTimes rawRun(const Scenario& s, CUfunction function, const std::vector<float>& a,
                const std::vector<float>& b, std::vector<float>& out) {
    const auto start = Clock::now();
    const std::size_t bytes = s.elements * sizeof(float);
    const std::size_t outBytes = s.twoInputs ? bytes : sizeof(float);
    CUdeviceptr da = 0, db = 0, dout = 0;
    rawCheck(cuMemAlloc(&da, bytes), "cuMemAlloc");
    if (s.twoInputs) rawCheck(cuMemAlloc(&db, bytes), "cuMemAlloc");
    rawCheck(cuMemAlloc(&dout, outBytes), "cuMemAlloc");
    rawCheck(cuMemcpyHtoD(da, a.data(), bytes), "cuMemcpyHtoD");
    if (s.twoInputs) rawCheck(cuMemcpyHtoD(db, b.data(), bytes), "cuMemcpyHtoD");
    rawCheck(cuMemsetD8(dout, 0, outBytes), "cuMemsetD8");
    CUevent e0 = nullptr, e1 = nullptr;
    cuEventCreate(&e0, CU_EVENT_DEFAULT);
    cuEventCreate(&e1, CU_EVENT_DEFAULT);
    int n = static_cast<int>(s.elements);
    void* multiplyArgs[] = {&dout, &da, &db, &n};
    void* sumArgs[] = {&da, &dout, &n};
    cuEventRecord(e0, nullptr);
    rawCheck(cuLaunchKernel(function, s.grid, 1, 1, s.block, 1, 1, 0, nullptr,
                            s.twoInputs ? multiplyArgs : sumArgs, nullptr),
             "cuLaunchKernel");
    cuEventRecord(e1, nullptr);
    out.resize(outBytes / sizeof(float));
    rawCheck(cuMemcpyDtoH(out.data(), dout, outBytes), "cuMemcpyDtoH");
    RawTimes t;
    float kernelMs = 0;
    cuEventElapsedTime(&kernelMs, e0, e1);
    t.kernelMs = kernelMs;
    cuEventDestroy(e0);
    cuEventDestroy(e1);
    cuMemFree(da);
    if (db) cuMemFree(db);
    cuMemFree(dout);
    t.endToEndMs = msSince(start);
    return t;
}

void benchScenario(bench::BenchTable& table, const run::CudaRunner& runner, const Scenario& s, int rounds) {
    // Ours: the playground prepared once (inputs generated straight into pinned memory), then whole runs.
    const auto prepareStart = Clock::now();
    const auto setup = launch::prepare(playgroundOf(s), runner.allocator());
    const double prepareMs = msSince(prepareStart);

    // Raw: the same inputs in pageable vectors, and the kernel compiled once.
    const std::vector<float> a(s.elements, 1.0f);
    std::vector<float> b;
    if (s.twoInputs) {
        b.resize(s.elements);
        for (std::size_t i = 0; i < s.elements; ++i)
            b[i] = static_cast<float>(static_cast<double>(i) * 1e-6);
    }
    const auto compiled = cuda::Compiler(nullptr).compile(s.code, "bench.cu", {});
    CUmodule module = nullptr;
    rawCheck(cuModuleLoadData(&module, compiled.cubin.data()), "cuModuleLoadData");
    CUfunction function = nullptr;
    rawCheck(cuModuleGetFunction(&function, module, s.kernel.c_str()), "cuModuleGetFunction");

    (void)runner.run(setup); // compiles into the cache and warms the allocator, as a second click would
    std::vector<float> rawOut;
    (void)rawRun(s, function, a, b, rawOut);

    std::vector<double> oursE2E, oursKernel, rawE2E, rawKernel;
    double oursResult = 0, rawResult = 0;
    for (int i = 0; i < rounds; ++i) {
        const auto r = rawRun(s, function, a, b, rawOut);
        rawE2E.push_back(r.endToEndMs);
        rawKernel.push_back(r.kernelMs);
        const auto t = Clock::now();
        const auto result = runner.run(setup);
        oursE2E.push_back(msSince(t));
        oursKernel.push_back(result.kernelMs.front());
        oursResult = result.outputs.front().second.value(s.twoInputs ? 1000 : 0);
        rawResult = rawOut[s.twoInputs ? 1000 : 0];
    }
    cuModuleUnload(module);
    if (oursResult != rawResult)
        throw std::runtime_error(s.title + ": results differ: " + std::to_string(oursResult) + " vs " +
                                 std::to_string(rawResult));

    table.add({s.title + ": kernel time, events (median)", "ms", bench::median(oursKernel),
               bench::median(rawKernel), "ratio <= 1.03", 1.03});
    table.add({s.title + ": end to end, compiled (median)", "ms", bench::median(oursE2E),
               bench::median(rawE2E), "ratio <= 1.00", 1.0});
    table.add({s.title + ": prepare, inputs into pinned memory (once)", "ms", prepareMs, 0, "informational"});
}

} // namespace

int main(int argc, char** argv) {
    try {
        const run::CudaRunner runner(0);
        std::printf("bench_run on %s\n\n", runner.properties().name.c_str());
        bench::BenchTable table;

        Scenario sum;
        sum.title = "seed: sum of squares 4000x4000 ones, atomicAdd";
        sum.kernel = "sum_squares";
        sum.code = "extern \"C\" __global__ void sum_squares(const float* x, float* sum, int n) {\n"
                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "    if (i < n) atomicAdd(sum, x[i] * x[i]);\n}\n";
        sum.elements = 4000u * 4000u;
        sum.grid = static_cast<std::uint32_t>((sum.elements + 255) / 256);
        benchScenario(table, runner, sum, 15);

        Scenario multiply;
        multiply.title = "multiply_them 2^26 floats";
        multiply.kernel = "multiply_them";
        multiply.code = "extern \"C\" __global__ void multiply_them(float* dest, const float* a, const "
                        "float* b, int n) {\n"
                        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "    if (i < n) dest[i] = a[i] * b[i];\n}\n";
        multiply.elements = std::size_t{1} << 26;
        multiply.twoInputs = true;
        multiply.grid = static_cast<std::uint32_t>(multiply.elements / 256);
        benchScenario(table, runner, multiply, 9);

        table.print();
        if (argc == 3 && std::strcmp(argv[1], "--json") == 0) table.writeJson(argv[2]);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_run: %s\n", e.what());
        return 1;
    }
}
