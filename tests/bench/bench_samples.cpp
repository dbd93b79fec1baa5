// bench_samples: every sample on CUDA and on the CPU backend (all cores), with its CPU reference, and
// the claims the lessons make checked as ratios measured in this run: the shared-memory reduction of
// the sum of squares hundreds of times faster than one atomicAdd per element (anchors.md: 28.1 ms
// against 0.034 ms on the H100) and close to a device-to-device copy of the same bytes; the tiled
// kernels faster than their naive siblings; and (issue 25) the CPU backend on all cores at least as fast
// as each sample's one-core reference. Usage: bench_samples [--json FILE] [--only NAME,NAME...] (the
// lessons' claims need every sample). Without a GPU it measures the CPU backend and the references alone.
#include "BenchTable.h"
#include "core/cpu/CpuRunner.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/DeviceMemory.h"
#include "core/cuda/Event.h"
#include "core/cuda/Stream.h"
#include "core/io/PlaygroundFile.h"
#include "core/io/SampleCatalog.h"
#include "core/launch/RunSetup.h"
#include "core/run/CudaRunner.h"
#include "core/run/Reference.h"
#include "core/run/RunReport.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>

using namespace kp;

namespace {

struct SampleTimes {
    double gpuKernelMs = 0;
    double gpuCopiesMs = 0;
    double cpuKernelMs = 0;
    double referenceMs = 0;
    bool gpuPassed = false;
    bool cpuPassed = false;
    bool brief = false; // timed over many calls (microseconds each), shown in us
};

// What reading `bytes` once costs on this device: half of a device-to-device copy of them (which reads
// and writes each byte), median of 20, timed with events like the runner's kernel times. Through the
// core's driver wrappers, which load the driver when there is one: the benchmark also runs without.
double readBaselineMs(std::size_t bytes) {
    const cuda::DeviceBuffer from(bytes), to(bytes);
    const auto stream = cuda::Stream::defaultStream();
    const auto start = cuda::Event::create(), stop = cuda::Event::create();
    std::vector<double> times;
    for (int i = 0; i < 22; ++i) {
        start.record(stream);
        cuda::copyDeviceToDeviceAsync(to.address(), from.address(), bytes, stream);
        stop.record(stream);
        stop.synchronize();
        if (i >= 2) times.push_back(cuda::Event::elapsedMs(start, stop));
    }
    return bench::median(times) / 2;
}

bool passed(const launch::RunSetup& setup, const launch::RunResult& result,
            const run::ReferenceResult& reference) {
    for (const auto& c : run::checkAgainst(setup, result, reference))
        if (!c.passed) return false;
    return true;
}

SampleTimes measure(const io::Sample& sample, const run::CudaRunner* gpu, const cpu::CpuRunner& cpu) {
    const auto playground = io::readPlayground(sample.playground);
    const auto setup = gpu ? launch::prepare(playground, gpu->allocator()) : launch::prepare(playground);
    // The reference is called once per run: the median of three runs, since one call is noisy (the same
    // matmul reference once read 62 and 142 ms in one run).
    std::vector<double> referenceMs;
    std::optional<run::ReferenceResult> reference;
    for (int i = 0; i < 3; ++i) {
        reference = run::runReference(setup, cpu::HostCompiler());
        referenceMs.push_back(reference->milliseconds);
    }
    SampleTimes t;
    t.referenceMs = bench::median(referenceMs);
    if (gpu) {
        const auto onGpu = gpu->run(setup, {20, 3});
        t.gpuKernelMs = launch::median(onGpu.kernelMs);
        t.gpuCopiesMs = launch::median(onGpu.h2dMs) + launch::median(onGpu.d2hMs);
        t.gpuPassed = passed(setup, onGpu, *reference);
    }
    // A sample that runs in microseconds is timed over many calls on both sides, as many on each: one call
    // of a 16-element loop measures the clock and a cold cache more than the loop.
    constexpr double kBriefMs = 0.01;
    constexpr int kBriefRepeat = 201, kBriefWarmup = 10;
    const bool brief = t.referenceMs < kBriefMs;
    t.brief = brief;
    if (brief) {
        reference = run::runReference(setup, cpu::HostCompiler(), kBriefRepeat, kBriefWarmup);
        t.referenceMs = reference->milliseconds;
    }
    const auto onCpu =
        cpu.run(setup, brief ? launch::RunOptions{kBriefRepeat, kBriefWarmup} : launch::RunOptions{5, 1});
    t.cpuKernelMs = launch::median(onCpu.kernelMs);
    t.cpuPassed = passed(setup, onCpu, *reference);
    return t;
}

} // namespace

int main(int argc, char** argv) {
    std::string jsonPath;
    std::string only; // a comma-separated list of samples to measure; empty: all
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) jsonPath = argv[++i];
        if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = "," + std::string(argv[++i]) + ",";
    }
    try {
        std::optional<run::CudaRunner> gpu;
        try {
            gpu.emplace(0);
        } catch (const std::exception& e) {
            std::printf("no GPU here (%s): the CPU backend and the references alone\n", e.what());
        }
        const cpu::CpuRunner cpu;
        std::printf("bench_samples on %s and %s\n\n", gpu ? gpu->backendName().c_str() : "no GPU",
                    cpu.backendName().c_str());
        const auto catalog = io::readSampleCatalog(io::defaultSamplesFolder());

        std::map<std::string, SampleTimes> times;
        std::printf("%-24s %12s %12s %12s %12s %10s  %s\n", "sample", "GPU kernel", "GPU copies",
                    "CPU kernel", "reference", "CPU/GPU", "checks");
        int failures = 0;
        for (const auto& sample : catalog.samples) {
            if (!only.empty() && only.find("," + sample.name + ",") == std::string::npos) continue;
            const auto t = measure(sample, gpu ? &*gpu : nullptr, cpu);
            times[sample.name] = t;
            failures += (gpu && !t.gpuPassed) + !t.cpuPassed;
            std::printf("%-24s %9.4f ms %9.4f ms %9.4f ms %9.4f ms %9.1fx  %s\n", sample.name.c_str(),
                        t.gpuKernelMs, t.gpuCopiesMs, t.cpuKernelMs, t.referenceMs,
                        gpu ? t.cpuKernelMs / t.gpuKernelMs : 0.0,
                        !t.cpuPassed  ? "CPU FAILS"
                        : !gpu        ? "CPU passes"
                        : t.gpuPassed ? "both pass"
                                      : "GPU FAILS");
        }
        std::printf("\n");

        bench::BenchTable table;
        // Issue 25: a student comparing the GPU with the CPU must not see a CPU slower than one core is.
        for (const auto& [name, t] : times)
            table.add({name + ": CPU backend on all cores / one-core reference", t.brief ? "us" : "ms",
                       t.cpuKernelMs * (t.brief ? 1000 : 1), t.referenceMs * (t.brief ? 1000 : 1),
                       "ratio <= 1", 1.0});
        if (!gpu || !only.empty()) {
            table.print();
            if (!jsonPath.empty()) table.writeJson(jsonPath);
            if (failures) std::printf("\n%d sample runs failed their check\n", failures);
            return failures ? 1 : 0;
        }
        const auto& atomic = times.at("sum_squares_atomic");
        const auto& reduction = times.at("sum_squares_reduction");
        table.add({"sum of squares 4000x4000: reduction / atomic kernel", "ms", reduction.gpuKernelMs,
                   atomic.gpuKernelMs, "ratio <= 0.01", 0.01});
        table.add({"reduction kernel / reading its 64 MB once (DtoD / 2)", "ms", reduction.gpuKernelMs,
                   readBaselineMs(4000ull * 4000ull * sizeof(float)), "ratio <= 1.5", 1.5});
        table.add({"reduction kernel (anchors.md: 0.034 ms to beat)", "ms", reduction.gpuKernelMs, 0.034,
                   "ratio < 1", 1.0});
        // The same sum finished on the GPU, in passes (a program): its whole time against the atomics'.
        table.add({"sum of squares in passes (a program) / atomic kernel", "ms",
                   times.at("sum_squares_multipass").gpuKernelMs, atomic.gpuKernelMs, "ratio <= 0.01", 0.01});
        for (const auto& [fast, slow] :
             {std::pair{"matmul_tiled", "matmul_naive"}, std::pair{"transpose_tiled", "transpose_naive"},
              std::pair{"histogram_shared", "histogram_global"}})
            table.add({std::string(fast) + " / " + slow + " kernel", "ms", times.at(fast).gpuKernelMs,
                       times.at(slow).gpuKernelMs, "ratio < 1", 1.0});
        table.print();
        if (!jsonPath.empty()) table.writeJson(jsonPath);
        if (failures) std::printf("\n%d sample runs failed their check\n", failures);
        return failures ? 1 : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_samples: %s\n", e.what());
        return 2;
    }
}
