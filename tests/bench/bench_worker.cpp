// bench_worker: what running in the worker process costs (issue 5's goal: a 256 MiB result comes back
// for little more than a memcpy). The same playground (one kernel writing 64 Mi floats) runs in this
// process (run::execute) and through the WorkerClient. The goal row is what receiving the result
// costs the app (the message and mapping its shared memory) against a 256 MiB memcpy in the same run;
// the whole difference between the two runs is shown too (shared pages cost more to fault in than heap). Also
// the cost of a worker's start. Runs on any machine. Usage: bench_worker [--json FILE]
#include "BenchTable.h"
#include "core/Stopwatch.h"
#include "core/io/PlaygroundFile.h"
#include "core/run/Execute.h"
#include "core/worker/WorkerClient.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <vector>

using namespace kp;

int main(int argc, char** argv) {
    const std::string playground = nlohmann::json{
        {"format", "kernelpad/1"},
        {"code", "__global__ void k(float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x; }"},
        {"kernel", "k"},
        {"launch", {{"grid", {1 << 18}}, {"block", {256}}}},
        {"args",
         {{{"name", "x"},
           {"array", {{"dtype", "float32"}, {"shape", {1 << 26}}}},
           {"direction", "out"}}}}}.dump();
    const std::string path = (std::filesystem::temp_directory_path() / "bench_worker.kpad.json").string();
    worker::WorkerClient client;
    std::printf("bench_worker: worker %s\n\n", client.executable().c_str());
    bench::BenchTable table;

    const auto parsed = io::parsePlayground(playground, path);
    (void)run::execute(parsed, {}); // compile once, so both sides use the cache
    const double inProcess =
        bench::medianMs(7, [&] { (void)run::execute(io::parsePlayground(playground, path), {}); });
    const auto first = client.run({worker::RunRequest{playground, path}});
    if (!first.ok()) {
        std::fprintf(stderr, "bench_worker: the worker run failed: %s\n", first.message.c_str());
        return 1;
    }
    std::vector<double> receive;
    const double throughWorker = bench::medianMs(7, [&] {
        receive.push_back(client.run({worker::RunRequest{playground, path}}).receiveMs);
    });
    std::vector<float> from(std::size_t{1} << 26, 1.0f), to(std::size_t{1} << 26);
    const double memcpyMs = bench::medianMs(7, [&] {
        std::memcpy(to.data(), from.data(), from.size() * sizeof(float));
        asm volatile("" : : "g"(to.data()) : "memory");
    });
    table.add({"256 MiB result: receiving it from the worker vs a 256 MiB memcpy", "ms",
               bench::median(receive), memcpyMs, "ratio <= 1.25", 1.25});
    table.add({"worker run minus in-process run (shared-memory pages included) vs memcpy", "ms",
               throughWorker - inProcess, memcpyMs, "(information)"});
    table.add(
        {"the same run in the worker vs in this process", "ms", throughWorker, inProcess, "(information)"});
    const double restart = bench::medianMs(5, [&] {
        worker::WorkerClient fresh;
        (void)fresh.run({worker::RunRequest{playground, path}});
    });
    table.add({"a run on a fresh worker (start + run) vs on a running one", "ms", restart, throughWorker,
               "(information)"});
    table.print();
    if (argc == 3 && std::strcmp(argv[1], "--json") == 0) table.writeJson(argv[2]);
    return 0;
}
