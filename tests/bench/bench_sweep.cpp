// bench_sweep: the multiply_them sample swept from 1,000 to 2^26 elements on CUDA, the CPU backend (all
// cores) and its C++ reference, the sweep the tutorials did with time.time(). Prints the crossovers, the
// kernel at 2^26 against anchors.md's raw figure (0.293 ms, 2750 GB/s on the H100) and the reference
// against its serial loop (62 ms), and what the sweep costs beyond the runs it times. Usage:
// bench_sweep [--json FILE] [--csv FILE]. Needs a GPU.
#include "BenchTable.h"
#include "core/Stopwatch.h"
#include "core/io/PlaygroundFile.h"
#include "core/run/SweepRunner.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

using namespace kp;

int main(int argc, char** argv) {
    std::string json, csv;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = argv[i + 1];
        if (std::strcmp(argv[i], "--csv") == 0) csv = argv[i + 1];
    }
    const auto playground = io::readPlayground(std::string(KP_SOURCE_DIR) + "/samples/multiply_them/multiply_them.kpad.json");
    auto spec = run::storedSweepSpec(playground).value();
    spec.backends = {"cuda:0", "cpu", "reference"};
    spec.from = 1000;
    spec.to = 67108864; // 2^26, anchors.md's multiply_them
    spec.steps = 10;
    spec.repeat = 10;
    spec.warmup = 2;

    const auto start = std::chrono::steady_clock::now();
    const auto result = run::runSweep(playground, spec);
    const double wallMs = millisecondsSince(start);

    // What the sweep timed: every timed and untimed repeat of every row.
    double timedMs = 0;
    for (const auto& row : result.rows) timedMs += (spec.repeat + spec.warmup) * row.timeMs(true);
    bool allPassed = true;
    for (const auto& row : result.rows) {
        if (!row.ran() || row.check.starts_with("failed")) allPassed = false;
        std::printf("%-10s %12llu elements: kernel %9.4f ms  with copies %9.4f ms  %s%s\n", row.backend.c_str(),
                    static_cast<unsigned long long>(row.elements), row.kernel().median, row.timeMs(true), row.check.c_str(),
                    row.error.c_str());
    }
    for (const auto& c : run::crossovers(result)) std::printf("%s\n", run::describe(c, result).c_str());

    bench::BenchTable table;
    const auto* gpuLast = result.rowsOf("cuda:0").back();
    const auto* refLast = result.rowsOf("reference").back();
    const auto* cpuLast = result.rowsOf("cpu").back();
    table.add({"multiply_them 2^26 kernel (sweep) vs anchors.md raw 0.293 ms", "ms", gpuLast->kernel().median, 0.293, "ratio <= 1.10", 1.10});
    table.add({"  its bandwidth vs the device's peak", "GB/s", gpuLast->gigabytesPerSecond().value_or(0),
               result.backends[0].peak.bandwidthGBs, "informational", 0});
    table.add({"reference 2^26 (one core) vs anchors.md serial loop 62 ms", "ms", refLast->kernel().median, 62, "ratio <= 1.10", 1.10});
    table.add({"CPU backend 2^26 (all cores) vs the reference", "ms", cpuLast->kernel().median, refLast->kernel().median, "informational", 0});
    for (const bool copies : {false, true}) {
        const auto c = run::crossover(result, "cuda:0", "reference", copies);
        table.add({std::string("crossover cuda:0 vs reference, ") + (copies ? "with copies" : "kernel only"), "elements",
                   c.kind == run::Crossover::Kind::Found ? c.x : 0, 0, "informational", 0});
    }
    table.add({"whole sweep wall time vs the repeats it times", "ms", wallMs, timedMs, "informational", 0});
    table.print();
    std::printf("%zu rows, every check %s; device %s, peak %.0f GB/s, %.0f GFLOP/s FP32\n", result.rows.size(),
                allPassed ? "passed" : "DID NOT pass", result.backends[0].name.c_str(), result.backends[0].peak.bandwidthGBs,
                result.backends[0].peak.gflops);
    if (!json.empty()) table.writeJson(json);
    if (!csv.empty()) std::ofstream(csv) << result.toCsv();
    return allPassed ? 0 : 1;
}
