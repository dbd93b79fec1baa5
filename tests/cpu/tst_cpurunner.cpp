// The CPU backend: CUDA kernels compiled with the host compiler behind Kernelpad's built-ins and run on
// all cores. Built-ins, barriers, static and dynamic shared memory, atomics under contention, 2D/3D
// launches, and compile errors that point at the user's own line. Runs in CI (no GPU).
#include "../TestSupport.h"
#include "core/Cores.h"
#include "core/cpu/CpuRunner.h"
#include "core/cpu/WarpSynchronous.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sched.h>
#include <thread>

using namespace kp;

class TestCpuRunner : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    std::optional<cpu::CpuRunner> runner_;

    // Runs of `setup` the usual way, in bounds mode and with each thread a fiber: each must leave CUDA's
    // values.
    std::vector<launch::RunResult> onEveryPath(const launch::RunSetup& setup,
                                               const launch::RunOptions& options) {
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 2, true);
        cpu::CpuRunner fibers(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 2);
        fibers.setSplitAtBarriers(false);
        std::vector<launch::RunResult> results;
        for (const cpu::CpuRunner* runner :
             std::initializer_list<const cpu::CpuRunner*>{&*runner_, &checked, &fibers})
            results.push_back(runner->run(setup, options));
        return results;
    }

    // A playground with inline code, parsed as a file would be.
    launch::RunSetup setupOf(const std::string& code, const std::string& kernel,
                             const std::vector<nlohmann::json>& args, const nlohmann::json& launch) {
        return test::setupOf(code, kernel, args, launch, cache_.filePath("t.kpad.json").toStdString());
    }
    static nlohmann::json array(const std::string& name, const std::string& dtype,
                                std::vector<std::size_t> shape, const std::string& direction,
                                const nlohmann::json& init = nullptr) {
        nlohmann::json a = {
            {"name", name}, {"array", {{"dtype", dtype}, {"shape", shape}}}, {"direction", direction}};
        if (!init.is_null()) a["init"] = init;
        return a;
    }
    // A program of one launch step (`step`: its kernel, grid, block and args), prepared.
    launch::RunSetup oneLaunchProgram(const std::string& code, const nlohmann::json& args,
                                      const nlohmann::json& step, const QString& fileName) {
        const nlohmann::json file = {
            {"format", "kernelpad/1"}, {"code", code}, {"args", args}, {"steps", {{{"launch", step}}}}};
        return launch::prepare(io::parsePlayground(file.dump(), cache_.filePath(fileName).toStdString()));
    }
    static nlohmann::json scalar(const std::string& name, const std::string& dtype, nlohmann::json value) {
        return {{"name", name}, {"scalar", {{"dtype", dtype}}}, {"value", value}};
    }

private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        runner_.emplace(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 4);
    }

    void multipliesOnEveryCore() {
        const auto setup = setupOf(
            "extern \"C\" __global__ void mul(float* d, const float* a, const float* b, int n) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) d[i] = a[i] * b[i];\n}\n",
            "mul",
            {array("d", "float32", {10000}, "out"),
             array("a", "float32", {10000}, "in", {{"range", {{"start", 0}, {"step", 1}}}}),
             array("b", "float32", {10000}, "in", {{"constant", 0.5}}), scalar("n", "int32", "size(a)")},
            {{"grid", "auto"}, {"block", {128}}});
        const auto result = runner_->run(setup, {3, 1, nullptr});
        QCOMPARE(result.kernelMs.size(), std::size_t{3});
        QVERIFY(result.backend.starts_with("cpu (4 threads)"));
        const auto* d = result.output("d");
        for (std::size_t i = 0; i < 10000; ++i)
            QCOMPARE(d->value(i), 0.5 * static_cast<double>(i));
        const cpu::CpuRunner single(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 1);
        QVERIFY(*single.run(setup).output("d") == *d);
    }

    // As many workers as this process may use: a `taskset` or a container's CPU quota allows fewer than
    // the machine has, and threads past the allowance only queue (and, under a quota, stop the GUI too).
    void startsAsManyWorkersAsTheProcessMayUse() {
        QCOMPARE(coresInCpuMax("max 100000"), 0u);
        QCOMPARE(coresInCpuMax("200000 100000"), 2u);
        QCOMPARE(coresInCpuMax("150000 100000"), 2u); // 1.5 cores: two threads, each busy part of the time
        QCOMPARE(coresInCpuMax("50000 100000"), 1u);
        QCOMPARE(coresInCpuMax(""), 0u);
        QVERIFY(usableCores() >= 1 && usableCores() <= std::max(1u, std::thread::hardware_concurrency()));
        cpu_set_t all, one;
        QCOMPARE(::sched_getaffinity(0, sizeof all, &all), 0);
        std::size_t first = 0;
        while (!CPU_ISSET(first, &all))
            ++first;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        QCOMPARE(::sched_setaffinity(0, sizeof one, &one), 0);
        const unsigned pinned = usableCores();
        const cpu::CpuRunner defaulted(cpu::HostCompiler(std::string(), cache_.path().toStdString()));
        QCOMPARE(::sched_setaffinity(0, sizeof all, &all), 0);
        QCOMPARE(pinned, 1u);
        QCOMPARE(defaulted.backendName(), std::string("cpu (1 thread)"));
    }

    // Each worker starts on its own share of the grid and takes from the others' once it is done: every
    // block runs once, whatever the workers and the blocks, also where the first share's blocks are slow
    // and the other workers take most of it.
    void everyBlockRunsOnceWhateverTheShares() {
        const std::string code =
            "__global__ void once(unsigned* runs, float* sink, int slow) {\n"
            "    if (threadIdx.x != 0) return;\n"
            "    float x = blockIdx.x;\n"
            "    if (blockIdx.x < slow) for (int k = 0; k < 20000; ++k) x = x * 0.999f + 1;\n"
            "    sink[blockIdx.x] = x;\n"
            "    runs[blockIdx.x] += 1;\n}\n";
        const cpu::CpuRunner three(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 3);
        for (const std::size_t blocks : {std::size_t{7}, std::size_t{1000}, std::size_t{70001}}) {
            const auto setup =
                setupOf(code, "once",
                        {array("runs", "uint32", {blocks}, "inout", {{"constant", 0}}),
                         array("sink", "float32", {blocks}, "out"), scalar("slow", "int32", blocks / 4)},
                        {{"grid", {blocks}}, {"block", {32}}});
            for (const cpu::CpuRunner* runner : {static_cast<const cpu::CpuRunner*>(&*runner_), &three}) {
                const auto result = runner->run(setup);
                const auto* runs = result.output("runs");
                for (std::size_t b = 0; b < blocks; ++b)
                    QVERIFY2(
                        runs->value(b) == 1.0,
                        qPrintable(
                            QString("block %1 of %2 ran %3 times").arg(b).arg(blocks).arg(runs->value(b))));
            }
        }
    }

    void barriersOrderSharedMemory() {
        // Each thread writes its slot, then reads its mirror's: wrong without a working barrier.
        const auto setup = setupOf(
            "__global__ void reverse(int* data) {\n"
            "    __shared__ int tile[256];\n"
            "    int t = threadIdx.x, base = blockIdx.x * blockDim.x;\n"
            "    tile[t] = data[base + t];\n    __syncthreads();\n"
            "    data[base + t] = tile[blockDim.x - 1 - t];\n}\n",
            "reverse", {array("data", "int32", {1024}, "inout", {{"range", {{"start", 0}, {"step", 1}}}})},
            {{"grid", {4}}, {"block", {256}}});
        QVERIFY(cpu::CpuRunner::needsFibers(setup.source));
        const auto dataResult = runner_->run(setup);
        const auto* data = dataResult.output("data");
        for (std::size_t i = 0; i < 1024; ++i)
            QCOMPARE(data->value(i), static_cast<double>(i - i % 256 + 255 - i % 256));
    }

    void blockReductionWithManyBarriers() {
        const auto setup =
            setupOf("__global__ void sum_squares(const float* x, float* sum, int n) {\n"
                    "    __shared__ float partial[256];\n"
                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    partial[threadIdx.x] = i < n ? x[i] * x[i] : 0.0f;\n    __syncthreads();\n"
                    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                    "        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];\n        "
                    "__syncthreads();\n    }\n"
                    "    if (threadIdx.x == 0) atomicAdd(sum, partial[0]);\n}\n",
                    "sum_squares",
                    {array("x", "float32", {100000}, "in", "ones"), array("sum", "float32", {1}, "out"),
                     scalar("n", "int32", "size(x)")},
                    {{"grid", "auto"}, {"block", {256}}});
        QCOMPARE(runner_->run(setup).output("sum")->value(0), 100000.0);
    }

    void dynamicSharedMemory() {
        const auto setup =
            setupOf("__global__ void rotate(float* data, int n) {\n"
                    "    extern __shared__ float tile[];\n"
                    "    int t = threadIdx.x;\n    tile[t] = data[t];\n    __syncthreads();\n"
                    "    data[t] = tile[(t + 1) % n];\n}\n",
                    "rotate",
                    {array("data", "float32", {100}, "inout", {{"range", {{"start", 0}, {"step", 1}}}}),
                     scalar("n", "int32", 100)},
                    {{"grid", {1}}, {"block", {100}}, {"shared_bytes", 400}});
        const auto dataResult = runner_->run(setup);
        const auto* data = dataResult.output("data");
        for (std::size_t i = 0; i < 100; ++i)
            QCOMPARE(data->value(i), static_cast<double>((i + 1) % 100));
    }

    void atomicsUnderContention() {
        const auto setup =
            setupOf("__global__ void hammer(int* counters, unsigned* wrap) {\n"
                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    atomicAdd(&counters[0], 1);\n    atomicSub(&counters[1], 2);\n"
                    "    atomicMax(&counters[2], i);\n    atomicMin(&counters[3], -i);\n"
                    "    atomicOr(&counters[4], 1 << (i % 31));\n    atomicXor(&counters[5], 1);\n"
                    "    atomicInc(&wrap[0], 9u);\n    atomicCAS(&counters[6], 0, i + 1);\n}\n",
                    "hammer", {array("counters", "int32", {7}, "out"), array("wrap", "uint32", {1}, "out")},
                    {{"grid", {64}}, {"block", {256}}});
        const auto result = runner_->run(setup);
        const auto* c = result.output("counters");
        const int threads = 64 * 256;
        QCOMPARE(c->value(0), static_cast<double>(threads));
        QCOMPARE(c->value(1), -2.0 * threads);
        QCOMPARE(c->value(2), static_cast<double>(threads - 1));
        QCOMPARE(c->value(3), -static_cast<double>(threads - 1));
        QCOMPARE(c->value(4), static_cast<double>(0x7fffffff));
        QCOMPARE(c->value(5), 0.0);                          // an even number of flips
        QVERIFY(c->value(6) >= 1 && c->value(6) <= threads); // exactly one CAS won
        QCOMPARE(result.output("wrap")->value(0), static_cast<double>(threads % 10)); // counts 0..9 and wraps
    }

    // The fast path for contended atomics (DeferredAtomics.h) renames a call only where the kernel cannot
    // read what it changes; everything else stays an atomic that acts at once.
    void deferredAtomicsOnlyWhereNothingReadsThem_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QStringList>("deferred");
        // How the deferred calls are renamed: _kp_pN where parameter N takes adds only (a private copy per
        // worker, or the windowed add, of kernelpad_cuda_host.h), _kp_df where it takes any other operation.
        QTest::addColumn<QStringList>("renamed");
        QTest::newRow("one float") << "atomicAdd(total, v * v);" << QStringList{"total"}
                                   << QStringList{"_kp_p0"};
        QTest::newRow("bins indexed by the data")
            << "atomicAdd(&bins[data[i]], 1u);" << QStringList{"bins"} << QStringList{"_kp_p2"};
        QTest::newRow("after an if, and the block form")
            << "if (i < n) atomicMax_block(best + 1, i);" << QStringList{"best"} << QStringList{"_kp_df"};
        QTest::newRow("old value used")
            << "int slot = atomicAdd(total, 1);" << QStringList{} << QStringList{};
        QTest::newRow("old value compared")
            << "if (atomicAdd(total, 1) == 0) v = 1;" << QStringList{} << QStringList{};
        QTest::newRow("read after") << "atomicAdd(total, v); v = *total;" << QStringList{} << QStringList{};
        QTest::newRow("read in the index")
            << "atomicAdd(&total[(int)total[0]], v);" << QStringList{} << QStringList{};
        QTest::newRow("dereferenced in the address")
            << "atomicAdd(bins + *total, 1u);" << QStringList{"bins"} << QStringList{"_kp_p2"};
        QTest::newRow("passed to a helper")
            << "atomicAdd(total, v); helper(total);" << QStringList{} << QStringList{};
        QTest::newRow("not deferrable") << "atomicCAS(total, 0, 1);" << QStringList{} << QStringList{};
        QTest::newRow("a member of the same name") << "atomicOr(total, v); v = other.total + other->total;"
                                                   << QStringList{"total"} << QStringList{"_kp_df"};
        QTest::newRow("in a ternary") << "v = i ? 0 : atomicAdd(total, 1);" << QStringList{} << QStringList{};
        QTest::newRow("adds and a maximum on one parameter")
            << "atomicAdd(&best[0], v); atomicMax(&best[1], v);" << QStringList{"best"}
            << QStringList{"_kp_df"};
        QTest::newRow("adds, one through a cast (another type at the same address)")
            << "atomicAdd((float*)&bins[0], 1.0f); atomicAdd(&bins[0], 1u);" << QStringList{"bins"}
            << QStringList{"_kp_df"};
        QTest::newRow("an address cast to another pointer type")
            << "atomicAdd((unsigned long long*)total, 1ull); atomicAdd((unsigned*)&bins[v], 1u);"
            << QStringList{"total", "bins"} << QStringList{"_kp_df"};
        QTest::newRow("an address in a reinterpret_cast")
            << "atomicAdd(reinterpret_cast<unsigned long long*>(&total[0]), 1ull);"
               " atomicMax(static_cast<int*>(best), v);"
            << QStringList{"total", "best"} << QStringList{"_kp_df"};
        QTest::newRow("a cast then indexed")
            << "atomicAdd(&reinterpret_cast<unsigned*>(total)[1], 1u);" << QStringList{} << QStringList{};
        QTest::newRow("a cast of a value read")
            << "atomicAdd(bins + (int)*total, 1u);" << QStringList{"bins"} << QStringList{"_kp_p2"};
        QTest::newRow("adds on one parameter, a maximum on another")
            << "atomicAdd(&bins[data[i]], 1u); atomicMax(best, v);" << QStringList{"bins", "best"}
            << QStringList{"_kp_p2", "_kp_df"};
    }

    void deferredAtomicsOnlyWhereNothingReadsThem() {
        QFETCH(QString, body);
        QFETCH(QStringList, deferred);
        QFETCH(QStringList, renamed);
        const std::string head = "__global__ void k(int* total, const unsigned char* data, unsigned* bins, "
                                 "int* best, int n) {\n    int i = threadIdx.x, v = i;\n    ";
        const std::string original = head + body.toStdString() + "\n}\n";
        std::string source = original;
        const std::vector<std::pair<std::string, bool>> parameters{
            {"total", true}, {"data", true}, {"bins", true}, {"best", true}, {"n", false}};
        const auto found = cpu::rewriteDeferredAtomics(source, 1, 17, parameters);
        QStringList names;
        for (const auto& p : found)
            names << QString::fromStdString(p.name);
        QCOMPARE(names, deferred);
        QCOMPARE(source.size(), original.size()); // columns stay where they were
        for (const char* prefix : {"_kp_df", "_kp_dw", "_kp_p0", "_kp_p2"})
            QCOMPARE(source.find(prefix) != std::string::npos, renamed.contains(prefix));

        // A #define that names the parameters could read them: nothing is deferred.
        std::string defined = "#define ALL total + bins + best\n" + original;
        QVERIFY(cpu::rewriteDeferredAtomics(defined, 2, 17, parameters).empty());
    }

    // A kernel that passes a parameter whole to a __device__ helper whose only uses of it are discarded
    // atomics (`bump(counts, v)`): the helper's atomics are the kernel's, and are deferred with them,
    // renamed as they are. Not where the helper reads it, is called with another buffer in that place or
    // from elsewhere, is a template, is declared apart, or gets an expression.
    void deferredAtomicsThroughHelpers_data() {
        QTest::addColumn<QString>("helpers");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QStringList>("deferred");
        QTest::addColumn<QStringList>("renamed");
        const QString bump = "__device__ void bump(unsigned* counts, int b) { atomicAdd(&counts[b], 1u); }\n";
        QTest::newRow("adds in a helper")
            << bump << "bump(bins, v & 7); bump(bins, 3);" << QStringList{"bins"} << QStringList{"_kp_p2"};
        QTest::newRow("a maximum and an add in a helper, and the kernel's own add")
            << "static __device__ __forceinline__ int keep(int v, int* best) {\n"
               "    atomicMax(best, v); atomicAdd(&best[1], 1); return v; }\n"
            << "v = keep(v, best); atomicAdd(best + 2, v);" << QStringList{"best"} << QStringList{"_kp_df"};
        QTest::newRow("the helper reads it") << "__device__ void bump(unsigned* counts, int b) { if "
                                                "(counts[0] < 9) atomicAdd(&counts[b], 1u); }\n"
                                             << "bump(bins, v);" << QStringList{} << QStringList{};
        QTest::newRow("another buffer in that place")
            << bump << "bump(bins, v); bump((unsigned*)total, v);" << QStringList{} << QStringList{};
        QTest::newRow("called from another function too")
            << bump + "__device__ void twice(unsigned* c) { bump(c, 0); bump(c, 1); }\n"
            << "bump(bins, v);" << QStringList{} << QStringList{};
        QTest::newRow("a template")
            << "template <typename T> __device__ void bump(T* c, int b) { atomicAdd(&c[b], "
               "1u); }\n"
            << "bump(bins, v);" << QStringList{} << QStringList{};
        QTest::newRow("declared apart") << "__device__ void bump(unsigned* counts, int b);\n" + bump
                                        << "bump(bins, v);" << QStringList{} << QStringList{};
        QTest::newRow("an expression as the argument")
            << bump << "bump(bins + 1, v);" << QStringList{} << QStringList{};
    }

    void deferredAtomicsThroughHelpers() {
        QFETCH(QString, helpers);
        QFETCH(QString, body);
        QFETCH(QStringList, deferred);
        QFETCH(QStringList, renamed);
        const std::string kernel = "__global__ void k(int* total, const unsigned char* data, unsigned* bins, "
                                   "int* best, int n) {\n    int i = threadIdx.x, v = i;\n    " +
                                   body.toStdString() + "\n}\n";
        const std::string head = helpers.toStdString();
        const std::string original = head + kernel;
        std::string source = original;
        const std::vector<std::pair<std::string, bool>> parameters{
            {"total", true}, {"data", true}, {"bins", true}, {"best", true}, {"n", false}};
        const int line = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
        const auto found = cpu::rewriteDeferredAtomics(source, line, 17, parameters);
        QStringList names;
        for (const auto& p : found)
            names << QString::fromStdString(p.name);
        QCOMPARE(names, deferred);
        QCOMPARE(source.size(), original.size());
        // The helper's own atomics are renamed with the kernel's (or none is).
        const std::string helperText = source.substr(0, head.size());
        QCOMPARE(helperText.find("atomic") == std::string::npos, !deferred.isEmpty());
        for (const char* prefix : {"_kp_df", "_kp_dw", "_kp_p2", "_kp_p3"})
            QCOMPARE(source.find(prefix) != std::string::npos, renamed.contains(prefix));
    }

    // The helper's atomics run deferred, with the kernel's own on the same buffer: exact counts, repeat
    // after repeat, and the maximum kept with the adds.
    void helperAtomicsLeaveCudasValues() {
        const auto setup = setupOf(
            "__device__ void bump(unsigned int* counts, int bucket) { atomicAdd(&counts[bucket], 1u); }\n"
            "__device__ int keep(int* best, int v) { atomicMax(best, v); atomicAdd(&best[1], v % 3); return "
            "0; }\n"
            "__global__ void count(const int* v, unsigned int* counts, int* best, int n) {\n"
            "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i >= n) return;\n"
            "    bump(counts, v[i] & 7);\n"
            "    atomicAdd(&counts[8], 2u);\n"
            "    keep(best, v[i]);\n}\n",
            "count",
            {array("v", "int32", {100000}, "in",
                   {{"random", "uniform"}, {"low", 0}, {"high", 100000}, {"seed", 12}}),
             array("counts", "uint32", {9}, "out"), array("best", "int32", {2}, "inout", {{"constant", 5}}),
             scalar("n", "int32", "size(v)")},
            {{"grid", {391}}, {"block", {256}}});
        const auto compiled = runner_->compile(setup);
        QVERIFY2(compiled.execution.find("atomics on counts and best are combined") != std::string::npos,
                 compiled.execution.c_str());
        std::vector<double> counts(9, 0.0);
        double best = 5, added = 5;
        const auto& v = setup.find("v")->array;
        for (std::size_t i = 0; i < 100000; ++i) {
            const auto x = static_cast<std::int64_t>(v.value(i));
            counts[static_cast<std::size_t>(x & 7)] += 1;
            counts[8] += 2;
            best = std::max(best, static_cast<double>(x));
            added += static_cast<double>(x % 3);
        }
        const auto result = runner_->run(setup, {3, 1, nullptr});
        for (std::size_t b = 0; b < counts.size(); ++b)
            QCOMPARE(result.output("counts")->value(b), counts[b]);
        QCOMPARE(result.output("best")->value(0), best);
        QCOMPARE(result.output("best")->value(1), added);
    }

    // A warp-aggregated histogram (`__match_any_sync`, the lowest lane adds the group's `__popc`) becomes
    // each lane's own add of 1 (undoWarpAggregation), which the deferral then folds. Only where the peers
    // serve nothing else, the mask is the running lanes, the lane is threadIdx.x's, and the address is the
    // same for a group's every lane.
    void warpAggregationUndone_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("undone");
        const QString value = "const unsigned v = data[i] & 15;\n    ";
        QTest::newRow("the sample's form")
            << "const unsigned active = __activemask();\n    " + value +
                   "const unsigned int peers = __match_any_sync(active, v);\n    const int leader = "
                   "__ffs(peers) - "
                   "1;\n    if (lane == leader) {\n        atomicAdd(&bins[v], __popc(peers));\n    }"
            << 1;
        QTest::newRow("inline mask and leader, unbraced, the other way round")
            << value + "unsigned peers = __match_any_sync(__activemask(), v);\n    if (__ffs(peers) - 1 == "
                       "threadIdx.x % warpSize) atomicAdd(bins + v, __popc(peers));"
            << 1;
        QTest::newRow("the block's row of bins")
            << value + "auto peers = __match_any_sync(__activemask(), v);\n    if (lane == __ffs(peers) - 1) "
                       "atomicAdd(&bins[blockIdx.x * 16 + v], __popc(peers));"
            << 1;
        QTest::newRow("a full mask")
            << value +
                   "const unsigned peers = __match_any_sync(0xffffffffu, v);\n    if (lane == __ffs(peers) - "
                   "1) atomicAdd(&bins[v], __popc(peers));"
            << 0;
        QTest::newRow("the peers read again")
            << value +
                   "const unsigned peers = __match_any_sync(__activemask(), v);\n    if (lane == "
                   "__ffs(peers) "
                   "- 1) atomicAdd(&bins[v], __popc(peers));\n    if (peers == 1u) atomicAdd(&bins[16], 1u);"
            << 0;
        QTest::newRow("an else")
            << value + "const unsigned peers = __match_any_sync(__activemask(), v);\n    if (lane == "
                       "__ffs(peers) "
                       "- 1) atomicAdd(&bins[v], __popc(peers));\n    else atomicAdd(&bins[16], 1u);"
            << 0;
        QTest::newRow("an address of the thread's")
            << value + "const unsigned peers = __match_any_sync(__activemask(), v);\n    if (lane == "
                       "__ffs(peers) "
                       "- 1) atomicAdd(&bins[v + threadIdx.x % 2], __popc(peers));"
            << 0;
        QTest::newRow("the value changed before the add")
            << "unsigned v = data[i] & 15;\n    const unsigned peers = __match_any_sync(__activemask(), "
               "v);\n    "
               "v = v / 2;\n    if (lane == __ffs(peers) - 1) atomicAdd(&bins[v], __popc(peers));"
            << 0;
        QTest::newRow("the old value used")
            << value +
                   "const unsigned peers = __match_any_sync(__activemask(), v);\n    unsigned old = 0;\n    "
                   "if (lane == __ffs(peers) - 1) old = atomicAdd(&bins[v], __popc(peers));\n    bins[17] = "
                   "old;"
            << 0;
        QTest::newRow("a mask taken before a loop")
            << value + "const unsigned active = __activemask();\n    for (int r = 0; r < 2; ++r) {\n        "
                       "const unsigned peers = __match_any_sync(active, v);\n        if (lane == "
                       "__ffs(peers) - 1) "
                       "atomicAdd(&bins[v], __popc(peers));\n    }"
            << 0;
        QTest::newRow("a lane may leave before the add")
            << value + "const unsigned peers = __match_any_sync(__activemask(), v);\n    if (data[i] < 0) "
                       "return;\n    if (lane == __ffs(peers) - 1) atomicAdd(&bins[v], __popc(peers));"
            << 0;
        QTest::newRow("a lane may leave between the mask and the match")
            << "const unsigned active = __activemask();\n    " + value +
                   "if (v == 3) return;\n    const unsigned peers = __match_any_sync(active, v);\n    if "
                   "(lane == "
                   "__ffs(peers) - 1) atomicAdd(&bins[v], __popc(peers));"
            << 0;
        QTest::newRow("another lane leads")
            << value + "const unsigned peers = __match_any_sync(__activemask(), v);\n    if (lane == "
                       "__ffs(peers)) "
                       "atomicAdd(&bins[v], __popc(peers));"
            << 0;
    }

    void warpAggregationUndone() {
        QFETCH(QString, body);
        QFETCH(int, undone);
        const std::string original = "__global__ void h(unsigned int* bins, const int* data, int n) {\n"
                                     "    const int lane = threadIdx.x % 32;\n"
                                     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                     "    if (i >= n) return;\n    " +
                                     body.toStdString() + "\n}\n";
        std::string source = original;
        const std::vector<std::pair<std::string, bool>> parameters{
            {"bins", true}, {"data", true}, {"n", false}};
        QCOMPARE(cpu::undoWarpAggregation(source, 1, 17, parameters), undone);
        QCOMPARE(source.size(), original.size());
        QCOMPARE(std::count(source.begin(), source.end(), '\n'),
                 std::count(original.begin(), original.end(), '\n'));
        QCOMPARE(source.find("__match_any_sync") == std::string::npos, undone > 0);
        if (undone == 0) {
            QCOMPARE(source, original);
            return;
        }
        QVERIFY2(source.find("__popc") == std::string::npos && source.find("__ffs") == std::string::npos &&
                     source.find("==") == std::string::npos &&
                     source.find("__activemask") == std::string::npos,
                 source.c_str());
        QVERIFY2(source.find(", 1 ") != std::string::npos, source.c_str()); // the lane's own count
        // A lane named only in the condition is kept in use: no warning on its declaration.
        QCOMPARE(source.find("(void)lane;") != std::string::npos, body.contains("lane =="));
    }

    // Undone, the histogram has CUDA's counts, on every path and with a tail of lanes gone; where a block's
    // rows are not whole warps, `threadIdx.x % 32` is not the lane: nothing is undone, and the counts are
    // the ones a GPU makes of that kernel (lanes of odd rows lead for the row before).
    void warpAggregationKeepsCudasCounts() {
        const std::string kernel =
            "__global__ void h(unsigned int* bins, const unsigned char* data, int n) {\n"
            "    const int lane = threadIdx.x % 32;\n"
            "    const int threads = blockDim.x * blockDim.y;\n"
            "    for (int i = blockIdx.x * threads + threadIdx.y * blockDim.x + threadIdx.x; i < n;\n"
            "         i += threads * gridDim.x) {\n"
            "        const unsigned active = __activemask();\n"
            "        const unsigned value = data[i];\n"
            "        const unsigned peers = __match_any_sync(active, value);\n"
            "        const int leader = __ffs(peers) - 1;\n"
            "        if (lane == leader) {\n"
            "            atomicAdd(&bins[value], __popc(peers));\n"
            "        }\n    }\n}\n";
        const int n = 100003;
        const auto args = std::vector<nlohmann::json>{
            array("bins", "uint32", {16}, "out"),
            array("data", "uint8", {static_cast<std::size_t>(n)}, "in",
                  {{"random", "uniform"}, {"low", 0}, {"high", 16}, {"seed", 21}}),
            scalar("n", "int32", "size(data)")};
        // Blocks of one row: the plain histogram.
        const auto rows = setupOf(kernel, "h", args, {{"grid", {40}}, {"block", {256}}});
        const auto& data = rows.find("data")->array;
        std::vector<double> counts(16, 0.0);
        for (int i = 0; i < n; ++i)
            counts[static_cast<std::size_t>(data.value(static_cast<std::size_t>(i)))] += 1;
        QVERIFY2(runner_->compile(rows).execution.find("warp-aggregated atomicAdd runs as each lane's own") !=
                     std::string::npos,
                 runner_->compile(rows).execution.c_str());
        for (const auto& result : onEveryPath(rows, {3, 1, nullptr}))
            for (std::size_t b = 0; b < 16; ++b)
                QCOMPARE(result.output("bins")->value(b), counts[b]);
        // Blocks of 16x8: each warp is two rows, and a lane of the second row leads where its x equals the
        // lowest lane of its group, which may stand in the first row.
        const auto square = setupOf(kernel, "h", args, {{"grid", {40}}, {"block", {16, 8}}});
        QVERIFY(runner_->compile(square).execution.find("warp-aggregated") == std::string::npos);
        std::vector<double> cuda(16, 0.0);
        const std::size_t threads = 128, stride = threads * 40, elements = n;
        for (std::size_t pass = 0; pass * stride < elements; ++pass)
            for (std::size_t block = 0; block < 40; ++block)
                for (std::size_t warp = 0; warp < threads / 32; ++warp) {
                    const std::size_t first = pass * stride + block * threads + warp * 32;
                    for (std::size_t l = 0; l < 32 && first + l < elements; ++l) {
                        const auto value = data.value(first + l);
                        std::size_t leader = 32, peers = 0;
                        for (std::size_t m = 0; m < 32 && first + m < elements; ++m)
                            if (data.value(first + m) == value) {
                                leader = std::min(leader, m);
                                ++peers;
                            }
                        if (l % 16 == leader) // x == leader
                            cuda[static_cast<std::size_t>(value)] += static_cast<double>(peers);
                    }
                }
        QVERIFY(cuda != counts);
        for (const auto& result : onEveryPath(square, {3, 1, nullptr}))
            for (std::size_t b = 0; b < 16; ++b)
                QCOMPARE(result.output("bins")->value(b), cuda[b]);
    }

    // CUDA's older reductions end in the last warp through a volatile pointer to shared memory, with no
    // __syncwarp between the steps, counting on the warp taking each step together as a GPU does. Run one
    // thread after another, thread 0 added s[16] before thread 16 had added s[48] into it. Each statement
    // that names a volatile is now taken by the warp's running lanes together (WarpSynchronous.h): the
    // block sums match, split and as fibers.
    void legacyWarpSynchronousSteps() {
        const std::string kernel = "__device__ void warpReduce(volatile float* sdata, int tid) {\n"
                                   "    sdata[tid] += sdata[tid + 32]; sdata[tid] += sdata[tid + 16];\n"
                                   "    sdata[tid] += sdata[tid + 8]; sdata[tid] += sdata[tid + 4];\n"
                                   "    sdata[tid] += sdata[tid + 2]; sdata[tid] += sdata[tid + 1];\n}\n"
                                   "__global__ void total(const float* in, float* out) {\n"
                                   "    __shared__ float s[128];\n"
                                   "    const int tid = threadIdx.x;\n"
                                   "    s[tid] = in[blockIdx.x * 128 + tid];\n"
                                   "    __syncthreads();\n"
                                   "    if (tid < 64) s[tid] += s[tid + 64];\n"
                                   "    __syncthreads();\n"
                                   "    if (tid < 32) warpReduce(s, tid);\n"
                                   "    if (tid == 0) out[blockIdx.x] = s[0];\n}\n";
        std::string rewritten = kernel;
        QCOMPARE(cpu::syncVolatileStatements(rewritten), 6); // the helper's, not the kernel's own lines
        QCOMPARE(std::count(rewritten.begin(), rewritten.end(), '\n'),
                 std::count(kernel.begin(), kernel.end(), '\n'));
        // An unbraced body gets braces, on its line.
        std::string bodies = "__device__ void step(volatile int* s, int t) {\n"
                             "    if (t < 2) s[t] += s[t + 2]; else s[t] = 0;\n"
                             "    for (int k = 1; k > 0; k /= 2) s[t] += s[t + k];\n}\n"
                             "__global__ void k() { __shared__ int sh[64]; step(sh, threadIdx.x); }\n";
        QCOMPARE(cpu::syncVolatileStatements(bodies), 3);
        QVERIFY2(bodies.find("if (t < 2) { const unsigned __kp_lanes0 = __activemask(); s[t] += s[t + 2]; "
                             "__syncwarp(__kp_lanes0); } else { const unsigned") != std::string::npos,
                 bodies.c_str());
        QVERIFY2(bodies.find("/= 2) { const unsigned __kp_lanes2 = __activemask(); s[t] += s[t + k]; "
                             "__syncwarp(__kp_lanes2); }\n}") != std::string::npos,
                 bodies.c_str());
        // A local pointer set to a shared array takes the steps too; its declaration does not.
        std::string local =
            "__global__ void k(float* out) {\n    __shared__ float sdata[64];\n"
            "    volatile float* vs = sdata;\n    vs[threadIdx.x] += vs[threadIdx.x + 32];\n}\n";
        QCOMPARE(cpu::syncVolatileStatements(local), 1);
        // Not a condition; nor volatile where it keeps the compiler from removing code (the fault corpus's
        // deep recursion through a pointer to a local, a volatile scalar, a local array, a pointer that a
        // call gives something other than shared memory).
        for (std::string none :
             {std::string("__global__ void k(volatile int* flag) { while (flag[0] == 0) {} }\n"),
              std::string(
                  "__device__ int down(volatile int* p, int d) { int local[64]; p[0] = d; return "
                  "down(p, d + 1); }\n__global__ void k(float* x) { int s = 0; x[0] = down(&s, 0); }\n"),
              std::string(
                  "__global__ void k(float* x, int n) { volatile int i = 0; i = i + n; x[0] = i; }\n"),
              std::string(
                  "__global__ void k(float* x) { volatile float big[64]; big[0] = x[0]; x[1] = big[0]; }\n"),
              std::string("__device__ void put(volatile float* p) { p[0] = 1; }\n__global__ void k(float* x) "
                          "{ __shared__ float s[4]; put(s); put(x); }\n")})
            QVERIFY2(cpu::syncVolatileStatements(none) == 0, none.c_str());
        const auto setup = setupOf(kernel, "total",
                                   {array("in", "float32", {1024}, "in",
                                          {{"random", "uniform"}, {"low", 0}, {"high", 1}, {"seed", 13}}),
                                    array("out", "float32", {8}, "out")},
                                   {{"grid", {8}}, {"block", {128}}});
        // No marker on the steps: C++20 deprecates a compound assignment through volatile, CUDA's C++17 not.
        for (const auto& compiled : {runner_->compile(setup), runner_->check(setup)})
            for (const auto& d : compiled.compiled.diagnostics)
                QFAIL(
                    qPrintable(QString::fromStdString("line " + std::to_string(d.line) + ": " + d.message)));
        std::vector<double> sums(8, 0.0);
        for (std::size_t i = 0; i < 1024; ++i)
            sums[i / 128] += setup.find("in")->array.value(i);
        cpu::CpuRunner fibers(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 2);
        fibers.setSplitAtBarriers(false);
        for (const cpu::CpuRunner* runner :
             std::initializer_list<const cpu::CpuRunner*>{&*runner_, &fibers}) {
            const auto result = runner->run(setup);
            QVERIFY2((result.execution.find("as loops") != std::string::npos) == (runner != &fibers),
                     result.execution.c_str());
            for (std::size_t b = 0; b < sums.size(); ++b)
                QVERIFY2(std::abs(result.output("out")->value(b) - sums[b]) < 1e-3,
                         qPrintable(QString("block %1: %2, not %3")
                                        .arg(b)
                                        .arg(result.output("out")->value(b))
                                        .arg(sums[b])));
        }
    }

    // Folded per core, the atomics leave what CUDA's would: every operation, integer and float, on one
    // address and on many; the same values with the fast path off; and the run says which took it.
    // Integer adds of a parameter that takes only adds go into each worker's window around the first
    // address it adds to; the rest of a larger array, and adds of another size, into the table. Both
    // leave exactly what atomics at once leave, wrapping ints included, repeat after repeat.
    void windowedAddsLeaveCudasValues() {
        const auto setup = setupOf("__global__ void count(unsigned* bins, int* wraps, unsigned long long* "
                                   "wide, const unsigned* data,\n"
                                   "                      int n) {\n"
                                   "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "    if (i >= n) return;\n"
                                   "    atomicAdd(&bins[data[i]], 1u);\n"
                                   "    atomicAdd(&wraps[data[i] % 8], (int)data[i] + 2000000000);\n"
                                   "    atomicAdd(&wide[data[i] % 3], 1ull << 40);\n}\n",
                                   "count",
                                   {array("bins", "uint32", {4096}, "out"),
                                    array("wraps", "int32", {8}, "out"), array("wide", "uint64", {3}, "out"),
                                    array("data", "uint32", {200000}, "in",
                                          {{"random", "uniform"}, {"low", 0}, {"high", 4095}, {"seed", 4}}),
                                    scalar("n", "int32", "size(data)")},
                                   {{"grid", {782}}, {"block", {256}}});
        const auto compiled = runner_->compile(setup);
        QVERIFY2(compiled.execution.find("atomics on bins, wraps and wide are combined on each core") !=
                     std::string::npos,
                 compiled.execution.c_str());
        // Three parameters under 10 whose atomics are all adds: each worker adds into a copy of theirs.
        QVERIFY(cpu::CpuRunner::hostProgram(setup, false, true).text.find("_kp_p2Add(&wide[") !=
                std::string::npos);
        const auto result = runner_->run(setup, {2, 1, nullptr});
        std::vector<double> counts(4096, 0.0);
        std::vector<std::uint32_t> wraps(8, 0);
        const auto* data = &setup.find("data")->array;
        for (std::size_t i = 0; i < data->size(); ++i) {
            const auto v = static_cast<std::uint32_t>(data->value(i));
            counts[v] += 1;
            wraps[v % 8] += v + 2000000000u; // as two's complement ints wrap
        }
        for (std::size_t b = 0; b < counts.size(); ++b)
            QCOMPARE(result.output("bins")->value(b), counts[b]);
        for (std::size_t b = 0; b < wraps.size(); ++b)
            QCOMPARE(result.output("wraps")->value(b),
                     static_cast<double>(static_cast<std::int32_t>(wraps[b])));
        cpu::CpuRunner atOnce(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 4);
        atOnce.setDeferAtomics(false);
        const auto direct = atOnce.run(setup);
        for (const char* name : {"bins", "wraps", "wide"})
            QVERIFY2(*direct.output(name) == *result.output(name), name);
    }

    // Integer adds on a small buffer run on a zeroed copy per worker, added into the buffer when the
    // worker's blocks are done (kernelpad_cuda_host.h, "Private copies"). The counts are exact repeat after
    // repeat (the copies are zero again for the next launch), through an argument that points into the
    // middle of its buffer. A larger buffer with no more bins than the launch has threads is copied too,
    // and the copies merged after the launch; one with more bins than threads, one over 1 MiB, and a
    // parameter after the tenth, take the window and the table.
    void privateCopiesLeaveCudasValues() {
        const auto program =
            oneLaunchProgram("__global__ void count(const unsigned* data, unsigned* bins, int n) {\n"
                             "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < n) atomicAdd(&bins[data[i] % 32], 1u);\n}\n",
                             {array("data", "uint32", {100000}, "in",
                                    {{"random", "uniform"}, {"low", 0}, {"high", 1000}, {"seed", 7}}),
                              array("bins", "uint32", {64}, "out")},
                             {{"kernel", "count"},
                              {"grid", {391}},
                              {"block", {256}},
                              {"args", {"data", "bins + 16", "size(data)"}}},
                             "private.kpad.json");
        const std::string host = cpu::CpuRunner::hostProgram(program, false, true).text;
        QVERIFY(host.find("_kp_p1Add(&bins[") != std::string::npos);
        // The block function reads once whether its worker has a copy (kernelpad::PrivateAdds).
        QVERIFY(host.find("_kp_p1Add = ::kernelpad::privateAdds<1>(") != std::string::npos);
        const auto* data = &program.find("data")->array;
        std::vector<double> expected(64, 0.0);
        for (std::size_t i = 0; i < data->size(); ++i)
            expected[16 + static_cast<std::size_t>(data->value(i)) % 32] += 1;
        const auto counted = runner_->run(program, {3, 1, nullptr});
        for (std::size_t b = 0; b < 64; ++b)
            QCOMPARE(counted.output("bins")->value(b), expected[b]);

        // 8192 bins (32 KiB) for 100,000 threads: merged copies; a parameter after the tenth: the window.
        const auto large =
            setupOf("__global__ void count(const unsigned* data, unsigned* bins, int n) {\n"
                    "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (i < n) atomicAdd(&bins[data[i] % 8192], 1u);\n}\n",
                    "count",
                    {array("data", "uint32", {100000}, "in",
                           {{"random", "uniform"}, {"low", 0}, {"high", 100000}, {"seed", 8}}),
                     array("bins", "uint32", {8192}, "out"), scalar("n", "int32", "size(data)")},
                    {{"grid", {391}}, {"block", {256}}});
        std::string late = "__global__ void late(const unsigned* data, int n";
        nlohmann::json lateArgs = {array("data", "uint32", {100000}, "in",
                                         {{"random", "uniform"}, {"low", 0}, {"high", 100000}, {"seed", 8}}),
                                   scalar("n", "int32", "size(data)")};
        for (int p = 2; p < 10; ++p) {
            late += ", int a" + std::to_string(p);
            lateArgs.push_back(scalar("a" + std::to_string(p), "int32", p));
        }
        late += ", unsigned* bins) {\n    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i < n) atomicAdd(&bins[data[i] % 8192], 1u);\n}\n";
        lateArgs.push_back(array("bins", "uint32", {8192}, "out"));
        const auto tenth = setupOf(late, "late", lateArgs, {{"grid", {391}}, {"block", {256}}});
        QVERIFY(cpu::CpuRunner::hostProgram(tenth, false, true).text.find("_kp_dwAdd(&bins[") !=
                std::string::npos);
        std::vector<double> bins(8192, 0.0);
        for (std::size_t i = 0; i < 100000; ++i)
            bins[static_cast<std::size_t>(large.find("data")->array.value(i)) % 8192] += 1;
        for (const auto* setup : {&large, &tenth}) {
            const auto result = runner_->run(*setup, {2, 1, nullptr});
            for (std::size_t b = 0; b < bins.size(); ++b)
                QCOMPARE(result.output("bins")->value(b), bins[b]);
        }

        // The same 8192 bins for 4,096 threads in a strided loop, and 300,000 bins (1.2 MB): no copy.
        const char* strided =
            "__global__ void count(const unsigned* data, unsigned* bins, int n, int range) {\n"
            "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
            "         i += blockDim.x * gridDim.x)\n"
            "        atomicAdd(&bins[data[i] % range], 1u);\n}\n";
        for (const int range : {8192, 300000}) {
            const auto setup =
                setupOf(strided, "count",
                        {array("data", "uint32", {100000}, "in",
                               {{"random", "uniform"}, {"low", 0}, {"high", 1000000}, {"seed", 8}}),
                         array("bins", "uint32", {static_cast<std::size_t>(range)}, "out"),
                         scalar("n", "int32", "size(data)"), scalar("range", "int32", range)},
                        {{"grid", {range == 8192 ? 16 : 391}}, {"block", {256}}});
            std::vector<double> perBin(static_cast<std::size_t>(range), 0.0);
            for (std::size_t i = 0; i < 100000; ++i)
                perBin[static_cast<std::size_t>(setup.find("data")->array.value(i)) % perBin.size()] += 1;
            const auto result = runner_->run(setup, {2, 1, nullptr});
            for (std::size_t b = 0; b < perBin.size(); ++b)
                QCOMPARE(result.output("bins")->value(b), perBin[b]);
        }
    }

    void deferredAtomicsLeaveCudasValues() {
        const auto setup = setupOf(
            "__global__ void fold(int* c, unsigned long long* big, float* f, double* d, unsigned* bins,\n"
            "                     const unsigned char* data, int n) {\n"
            "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i >= n) return;\n"
            "    atomicAdd(&c[0], 1);\n    atomicSub(&c[1], 2);\n"
            "    atomicMax(&c[2], i);\n    atomicMin(&c[3], -i);\n"
            "    atomicOr(&c[4], 1 << (i % 31));\n    atomicXor(&c[5], i);\n    atomicAnd(&c[6], ~(1 << (i % "
            "8)));\n"
            "    atomicAdd(big, (unsigned long long)i);\n"
            "    atomicAdd(f, 1.0f);\n    atomicAdd(d, 0.5);\n"
            "    atomicAdd(&bins[data[i]], 1u);\n}\n",
            "fold",
            {array("c", "int32", {7}, "inout", {{"constant", -1}}), array("big", "uint64", {1}, "out"),
             array("f", "float32", {1}, "out"), array("d", "float64", {1}, "out"),
             array("bins", "uint32", {256}, "out"),
             array("data", "uint8", {100000}, "in",
                   {{"random", "uniform"}, {"low", 0}, {"high", 255}, {"seed", 9}}),
             scalar("n", "int32", "size(data)")},
            {{"grid", {391}}, {"block", {256}}});
        const auto compiled = runner_->compile(setup);
        QVERIFY2(compiled.execution.find("atomics on c, big, f, d and bins are combined on each core and "
                                         "applied once at the end of the launch (nothing in the kernel reads "
                                         "them)") != std::string::npos,
                 compiled.execution.c_str());
        QCOMPARE(compiled.deferred.at(0), (std::vector<std::size_t>{0, 1, 2, 3, 4}));

        const auto result = runner_->run(setup, {2, 1, nullptr}); // repeats start from the inputs again
        constexpr int n = 100000;
        const auto* c = result.output("c");
        QCOMPARE(c->value(0), -1.0 + n);
        QCOMPARE(c->value(1), -1.0 - 2.0 * n);
        QCOMPARE(c->value(2), n - 1.0);
        QCOMPARE(c->value(3), -static_cast<double>(n - 1));
        QCOMPARE(c->value(4), -1.0); // -1 has every bit already
        int x = -1;
        for (int i = 0; i < n; ++i)
            x ^= i;
        QCOMPARE(c->value(5), static_cast<double>(x));
        QCOMPARE(c->value(6), static_cast<double>(~0xff));
        const std::int64_t sum = std::int64_t{n} * (n - 1) / 2; // an exact integer
        QCOMPARE(result.output("big")->value(0), static_cast<double>(sum));
        QCOMPARE(result.output("f")->value(0), static_cast<double>(n)); // whole numbers: exact in any order
        QCOMPARE(result.output("d")->value(0), 0.5 * n);
        std::vector<double> counts(256, 0.0);
        const auto* data = &setup.find("data")->array;
        for (std::size_t i = 0; i < n; ++i)
            counts[static_cast<std::size_t>(data->value(i))] += 1;
        for (std::size_t b = 0; b < 256; ++b)
            QCOMPARE(result.output("bins")->value(b), counts[b]);

        cpu::CpuRunner atOnce(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 4);
        atOnce.setDeferAtomics(false);
        QVERIFY(atOnce.compile(setup).execution.find("combined on each core") == std::string::npos);
        const auto direct = atOnce.run(setup);
        for (const char* name : {"c", "big", "f", "d", "bins"})
            QVERIFY2(*direct.output(name) == *result.output(name), name);

        // The bounds mode checks a deferred atomic's address like any other.
        auto outside = setup;
        outside.source.replace(outside.source.find("&bins[data[i]]"), 14, "&bins[data[i] + 200]");
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 2, true);
        try {
            (void)checked.run(outside);
            QFAIL("an atomic past the last bin went unnoticed");
        } catch (const launch::KernelFault& e) {
            QVERIFY2(std::string(e.what()).find("] is outside bins, which has 256 elements") !=
                         std::string::npos,
                     e.what());
        }
    }

    // Atomics on a block's own shared memory run without a lock (one worker thread runs the block); they
    // keep CUDA's results, the returned old values included, split, as fibers and in the bounds mode.
    void sharedMemoryAtomicsNeedNoLock() {
        std::string source = "__global__ void k(int* out, int* g) {\n"
                             "    __shared__ int counts[4], best;\n    __shared__ int* p;\n"
                             "    extern __shared__ unsigned dyn[];\n"
                             "    atomicAdd(&counts[0], 1); atomicMax(&best, 3); atomicInc(dyn + 1, 9u);\n"
                             "    atomicAdd(p, 1); atomicAdd(g, 1); x.atomicAdd(counts, 1);\n}\n";
        const std::string original = source;
        QCOMPARE(cpu::rewriteSharedAtomics(source, 1, 17), 3);
        QCOMPARE(source.size(), original.size());
        QVERIFY(source.find("_kp_shAdd(&counts[0]") != std::string::npos);
        QVERIFY(source.find("_kp_shMax(&best") != std::string::npos);
        QVERIFY(source.find("_kp_shInc(dyn + 1") != std::string::npos);
        QVERIFY(source.find("atomicAdd(p, 1)") != std::string::npos); // a __shared__ pointer: anywhere
        QVERIFY(source.find("atomicAdd(g, 1)") != std::string::npos);

        const auto setup =
            setupOf("__global__ void slots(int* firsts, unsigned* wraps, int* totals) {\n"
                    "    __shared__ int count, top, taken;\n    __shared__ unsigned wrap;\n"
                    "    if (threadIdx.x == 0) { count = 0; top = -1; taken = 0; wrap = 0; }\n"
                    "    __syncthreads();\n"
                    "    const int mine = atomicAdd(&count, 1);\n" // every thread a distinct old value
                    "    atomicMax(&top, (int)threadIdx.x);\n    atomicInc(&wrap, 6u);\n"
                    "    if (atomicCAS(&taken, 0, 1) == 0) firsts[blockIdx.x] = mine;\n"
                    "    __syncthreads();\n"
                    "    if (threadIdx.x == 0) { totals[blockIdx.x] = count * 1000 + top; wraps[blockIdx.x] "
                    "= wrap; }\n"
                    "}\n",
                    "slots",
                    {array("firsts", "int32", {8}, "out"), array("wraps", "uint32", {8}, "out"),
                     array("totals", "int32", {8}, "out")},
                    {{"grid", {8}}, {"block", {200}}});
        const auto compiled = runner_->compile(setup);
        QVERIFY2(compiled.execution.find("atomics on its shared memory run without a lock") !=
                     std::string::npos,
                 compiled.execution.c_str());
        for (const auto& result : onEveryPath(setup, {})) {
            for (std::size_t b = 0; b < 8; ++b) {
                QCOMPARE(result.output("totals")->value(b), 200.0 * 1000 + 199);
                QCOMPARE(result.output("wraps")->value(b), static_cast<double>(200 % 7)); // 0..6, then 0
                QVERIFY(result.output("firsts")->value(b) >= 0 && result.output("firsts")->value(b) < 200);
            }
        }
    }

    // Deferred sums: into a pointer parameter itself, the block function adds its threads into a local
    // (kernelpad::BlockSum); elsewhere, a worker's table adds a hot address into four lanes. Every add must
    // land, repeat after repeat: runs of one address between adds to a crowded table (4,096 addresses for
    // 512 slots, whose failed probes once left a hot address's lanes unmerged), in the split loop, in
    // bounds mode and as fibers. A float sum of -0.0 stays -0.0: the local and the lanes start from it.
    void deferredSumsKeepEveryAdd() {
        const auto setup = setupOf(
            "__global__ void sums(const int* data, int* total, float* runs, float* spread, float* zero,\n"
            "                     unsigned long long* wide, int n) {\n"
            "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i >= n) return;\n"
            "    atomicAdd(total, data[i]);\n"
            "    atomicAdd(&runs[(i / 64) % 2], 1.0f);\n"
            "    atomicAdd(&spread[(i * 7919) % 4096], 1.0f);\n"
            "    atomicAdd(zero, -0.0f);\n"
            "    atomicAdd(wide, 3ull);\n}\n",
            "sums",
            {array("data", "int32", {100000}, "in",
                   {{"random", "uniform"}, {"low", -1000}, {"high", 1000}, {"seed", 5}}),
             array("total", "int32", {1}, "inout", {{"constant", 7}}), array("runs", "float32", {2}, "out"),
             array("spread", "float32", {4096}, "out"),
             array("zero", "float32", {1}, "inout", {{"constant", -0.0}}),
             array("wide", "uint64", {1}, "out"), scalar("n", "int32", "size(data)")},
            {{"grid", {391}}, {"block", {256}}});
        const std::string text = cpu::CpuRunner::hostProgram(setup, false, true).text;
        for (const char* local :
             {"_kp_p1Add(__kp_a, __kp_v); }, total);", "_kp_p4Add(__kp_a, __kp_v); }, zero);",
              "_kp_p5Add(__kp_a, __kp_v); }, wide);"})
            QVERIFY2(text.find(local) != std::string::npos, local);
        QVERIFY(text.find(", runs);") == std::string::npos);
        QVERIFY(text.find(", spread);") == std::string::npos);

        constexpr int n = 100000;
        const auto& data = setup.find("data")->array;
        double total = 7;
        for (int i = 0; i < n; ++i)
            total += data.value(static_cast<std::size_t>(i));
        std::vector<double> spread(4096, 0.0), runs(2, 0.0);
        for (int i = 0; i < n; ++i) {
            spread[static_cast<std::size_t>(i) * 7919 % 4096] += 1;
            runs[static_cast<std::size_t>(i / 64 % 2)] += 1;
        }
        for (const auto& result : onEveryPath(setup, {3, 1, nullptr})) {
            QCOMPARE(result.output("total")->value(0), total);
            QCOMPARE(result.output("runs")->value(0), runs[0]);
            QCOMPARE(result.output("runs")->value(1), runs[1]);
            for (std::size_t a = 0; a < spread.size(); ++a)
                QCOMPARE(result.output("spread")->value(a), spread[a]);
            QCOMPARE(result.output("zero")->value(0), 0.0);
            QVERIFY(std::signbit(result.output("zero")->value(0)));
            QCOMPARE(result.output("wide")->value(0), 3.0 * n);
        }
    }

    // atomicMin, atomicMax, atomicAnd, atomicOr and atomicXor on a parameter alone fold each block's
    // values in a register too (kernelpad::BlockSum), from the operation's identity: a block none of whose
    // threads calls leaves the value as it was (floor and ceiling, where most blocks call nothing).
    void deferredFoldsKeepEveryValue() {
        const auto setup =
            setupOf("__global__ void folds(const int* data, int* lo, int* hi, int* floor, int* ceiling,\n"
                    "                      unsigned* cleared, unsigned* seen, unsigned* mixed, long long* "
                    "widest, int n) {\n"
                    "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (i >= n) return;\n"
                    "    const int v = data[i];\n"
                    "    atomicMin(lo, v);\n    atomicMax(hi, v);\n"
                    "    if (v < -990) atomicMax(floor, v);\n"
                    "    if (v > 990) atomicMin(ceiling, v);\n"
                    "    if (i % 1000 == 0) atomicAnd(cleared, ~(1u << (i / 1000 % 32)));\n"
                    "    atomicOr(seen, 1u << ((v + 1000) % 29));\n"
                    "    atomicXor(mixed, (unsigned)i * 2654435761u);\n"
                    "    atomicMax(widest, (long long)v * 1000000007ll);\n}\n",
                    "folds",
                    {array("data", "int32", {100000}, "in",
                           {{"random", "uniform"}, {"low", -1000}, {"high", 1000}, {"seed", 11}}),
                     array("lo", "int32", {1}, "inout", {{"constant", 5000}}),
                     array("hi", "int32", {1}, "inout", {{"constant", -5000}}),
                     array("floor", "int32", {1}, "inout", {{"constant", -3}}),
                     array("ceiling", "int32", {1}, "inout", {{"constant", 3}}),
                     array("cleared", "uint32", {1}, "inout", {{"constant", 4294967295.0}}),
                     array("seen", "uint32", {1}, "out"),
                     array("mixed", "uint32", {1}, "inout", {{"constant", 12345}}),
                     array("widest", "int64", {1}, "inout", {{"constant", -4000000000000.0}}),
                     scalar("n", "int32", "size(data)")},
                    {{"grid", {391}}, {"block", {256}}});
        const std::string text = cpu::CpuRunner::hostProgram(setup, false, true).text;
        for (const char* local :
             {"blockSum<::kernelpad::DeferredMin>([](auto __kp_a, auto __kp_v) { ::_kp_dfMin(__kp_a, "
              "__kp_v); }, lo, ceiling);",
              "blockSum<::kernelpad::DeferredMax>([](auto __kp_a, auto __kp_v) { ::_kp_dfMax(__kp_a, "
              "__kp_v); }, hi, floor, widest);",
              "::_kp_dfAnd(__kp_a, __kp_v); }, cleared);", "::_kp_dfOr(__kp_a, __kp_v); }, seen);",
              "::_kp_dfXor(__kp_a, __kp_v); }, mixed);"})
            QVERIFY2(text.find(local) != std::string::npos, local);

        constexpr int n = 100000;
        const auto& data = setup.find("data")->array;
        int lo = 5000, hi = -5000;
        std::uint32_t cleared = ~0u, seen = 0, mixed = 12345;
        std::int64_t widest = -4000000000000;
        for (int i = 0; i < n; ++i) {
            const int v = static_cast<int>(data.value(static_cast<std::size_t>(i)));
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            if (i % 1000 == 0) cleared &= ~(1u << (i / 1000 % 32));
            seen |= 1u << ((v + 1000) % 29);
            mixed ^= static_cast<std::uint32_t>(i) * 2654435761u;
            widest = std::max<std::int64_t>(widest, std::int64_t{v} * 1000000007);
        }
        for (const auto& result : onEveryPath(setup, {3, 1, nullptr})) {
            QCOMPARE(result.output("lo")->value(0), static_cast<double>(lo));
            QCOMPARE(result.output("hi")->value(0), static_cast<double>(hi));
            QCOMPARE(result.output("floor")->value(0), -3.0);  // every v < -990 is below -3
            QCOMPARE(result.output("ceiling")->value(0), 3.0); // every v > 990 is above 3
            QCOMPARE(result.output("cleared")->value(0), static_cast<double>(cleared));
            QCOMPARE(result.output("seen")->value(0), static_cast<double>(seen));
            QCOMPARE(result.output("mixed")->value(0), static_cast<double>(mixed));
            QCOMPARE(result.output("widest")->value(0), static_cast<double>(widest));
        }
    }

    // A program that passes one buffer twice lets the kernel read, through the second pointer, what its
    // atomics change: a thread must then see its own atomicAdd, so nothing is deferred in that launch.
    void deferredAtomicsStayOffWhereAnotherArgumentAliases() {
        const auto setup = oneLaunchProgram(
            "__global__ void bump(int* counts, const int* view, int* seen) {\n"
            "    atomicAdd(counts, 1);\n    seen[threadIdx.x] = view[0];\n}\n",
            {array("counts", "int32", {1}, "inout", {{"constant", 0}}), array("seen", "int32", {1}, "out")},
            {{"kernel", "bump"}, {"grid", {1}}, {"block", {1}}, {"args", {"counts", "counts", "seen"}}},
            "alias.kpad.json");
        QVERIFY(runner_->compile(setup).execution.find("atomics on counts are combined") !=
                std::string::npos);
        const auto result = runner_->run(setup);
        QCOMPARE(result.output("counts")->value(0), 1.0);
        QCOMPARE(result.output("seen")->value(0), 1.0); // its own add, seen at once
    }

    // CUDA's atomics are overloads: the value converts to the address's type, as under NVRTC, and the
    // _block and _system forms exist. A single template<T> atomicAdd(T*, T) rejected these.
    void atomicsTakeEveryCudaOverload() {
        const auto setup = setupOf(
            "__global__ void mixed(unsigned* u, int* s, unsigned long long* big, float* f, double* d) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    atomicAdd(&u[0], 1);\n"           // unsigned*, int
            "    atomicMax(&s[0], (unsigned)i);\n" // int*, unsigned
            "    atomicAdd_block(&s[1], 2);\n"
            "    atomicAdd_system(&big[0], 3ull);\n"
            "    atomicMin(&big[1], (unsigned long long)(1000 - i % 7));\n"
            "    atomicAdd(&f[0], 0.5f);\n    atomicAdd(d, 0.25);\n"
            "    atomicExch(&u[1], 7u);\n    atomicAnd(&u[2], ~0u);\n"
            "    atomicCAS_block(&s[2], 0, 5);\n"
            "}\n",
            "mixed",
            {array("u", "uint32", {3}, "out"), array("s", "int32", {3}, "out"),
             array("big", "uint64", {2}, "inout", {{"constant", 5000}}), array("f", "float32", {1}, "out"),
             array("d", "float64", {1}, "out")},
            {{"grid", {8}}, {"block", {128}}});
        const auto result = runner_->run(setup);
        constexpr double threads = 8 * 128;
        QCOMPARE(result.output("u")->value(0), threads);
        QCOMPARE(result.output("u")->value(1), 7.0);
        QCOMPARE(result.output("s")->value(0), threads - 1);
        QCOMPARE(result.output("s")->value(1), 2 * threads);
        QCOMPARE(result.output("s")->value(2), 5.0);
        QCOMPARE(result.output("big")->value(0), 5000 + 3 * threads);
        QCOMPARE(result.output("big")->value(1), 994.0);
        QCOMPARE(result.output("f")->value(0), 0.5 * threads);
        QCOMPARE(result.output("d")->value(0), 0.25 * threads);
    }

    // Dynamic shared memory declared with its specifiers in another order, or over several lines; an
    // error after it is still reported on its own line.
    void dynamicSharedInAnySpecifierOrder_data() {
        QTest::addColumn<QString>("declaration");
        QTest::newRow("extern __shared__ T") << "extern __shared__ float tile[];";
        QTest::newRow("extern T __shared__") << "extern float __shared__ tile[];";
        QTest::newRow("__shared__ extern T") << "__shared__ extern float tile[];";
        QTest::newRow("aligned, volatile") << "extern __shared__ __align__(16) volatile float tile[];";
        QTest::newRow("two lines") << "extern __shared__\n    float tile[];";
    }
    void dynamicSharedInAnySpecifierOrder() {
        QFETCH(QString, declaration);
        const std::string code = "__global__ void flip(float* data) {\n    " + declaration.toStdString() +
                                 "\n    int t = threadIdx.x;\n    tile[t] = data[t];\n    __syncthreads();\n"
                                 "    data[t] = tile[blockDim.x - 1 - t];\n}\n";
        auto setup = setupOf(
            code, "flip", {array("data", "float32", {64}, "inout", {{"range", {{"start", 0}, {"step", 1}}}})},
            {{"grid", {1}}, {"block", {64}}, {"shared_bytes", 256}});
        const auto result = runner_->run(setup);
        for (std::size_t i = 0; i < 64; ++i)
            QCOMPARE(result.output("data")->value(i), 63.0 - double(i));

        // the `tile[t] = data[t]` line: after the kernel's first line, the declaration's and `int t`
        const int errorLine = 4 + int(declaration.count('\n'));
        setup.source.replace(setup.source.find("tile[t] = data[t];"), 18, "tile[t] = data[t] +;");
        try {
            (void)runner_->run(setup);
            QFAIL("a compile error was expected");
        } catch (const launch::CompileError& e) {
            const auto& d = e.diagnostics();
            QVERIFY2(std::any_of(d.begin(), d.end(), [&](const auto& x) { return x.line == errorLine; }),
                     e.what());
        }
    }

    // Checking as you type: the same diagnostics and execution words as a compile, without a library.
    void checkSaysWhatACompileWould() {
        auto setup = setupOf("__global__ void reverse(int* data) {\n"
                             "    __shared__ int tile[64];\n"
                             "    const int t = threadIdx.x;\n"
                             "    tile[t] = data[t];\n"
                             "    __syncthreads();\n"
                             "    data[t] = tile[63 - t];\n}\n",
                             "reverse", {array("data", "int32", {64}, "inout", "ones")},
                             {{"grid", {1}}, {"block", {64}}});
        const auto checked = runner_->check(setup);
        const auto compiled = runner_->compile(setup);
        QVERIFY(checked.compiled.ok);
        QVERIFY(checked.compiled.library.empty());
        QVERIFY(!compiled.compiled.library.empty());
        QCOMPARE(checked.execution, compiled.execution);
        QVERIFY2(checked.execution.find("before and after its barrier") != std::string::npos,
                 checked.execution.c_str());
        QCOMPARE(checked.split, compiled.split);

        setup.source.replace(setup.source.find("tile[63 - t]"), 12, "tile[63 - u]");
        try {
            (void)runner_->check(setup);
            QFAIL("a compile error was expected");
        } catch (const launch::CompileError& e) {
            const auto& d = e.diagnostics();
            QVERIFY2(std::any_of(d.begin(), d.end(),
                                 [](const auto& x) {
                                     return x.line == 6 &&
                                            x.message.find("not declared") != std::string::npos;
                                 }),
                     e.what());
        }
    }

    // `#include "common.cuh"` beside the playground works on the CPU backend, and an edit of the header
    // compiles the kernel again (the header is part of the cache key).
    void headersBesideThePlaygroundAreIncludedAndWatched() {
        const std::string header = cache_.filePath("common.cuh").toStdString();
        std::ofstream(header) << "#define SCALE 2.0f\n";
        const std::string code = "#include \"common.cuh\"\n__global__ void scale(float* d) {\n"
                                 "    d[threadIdx.x] = SCALE * threadIdx.x;\n}\n";
        const auto setup =
            setupOf(code, "scale", {array("d", "float32", {8}, "out")}, {{"grid", {1}}, {"block", {8}}});
        QCOMPARE(runner_->run(setup).output("d")->value(3), 6.0);
        std::ofstream(header, std::ios::trunc) << "#define SCALE 3.0f\n";
        const auto again = runner_->run(setup);
        QVERIFY(!again.compileFromCache);
        QCOMPARE(again.output("d")->value(3), 9.0);
    }

    // The CPU backend fuses a*b+c as NVRTC does by default (where the processor has FMA), and not under
    // --fmad=false: the one rounding of fma(a, b, c) differs from the two of a*b+c for these values.
    void multiplyAddsAreFusedLikeNvrtc() {
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("fma")) QSKIP("this processor has no fused multiply-add");
        const std::string code = "__global__ void madd(float* y, const float* a, const float* x) {\n"
                                 "    int i = threadIdx.x;\n    y[i] = a[i] * x[i] + y[i];\n}\n";
        // a*x = 1 + 2^-11 + 2^-24 exactly; rounded to float it loses the 2^-24, which fma keeps.
        const float a = 1.0f + 0x1p-12f, x = 1.0f + 0x1p-12f, y = -1.0f;
        const auto args = std::vector<nlohmann::json>{array("y", "float32", {1}, "inout", {{"constant", y}}),
                                                      array("a", "float32", {1}, "in", {{"constant", a}}),
                                                      array("x", "float32", {1}, "in", {{"constant", x}})};
        auto setup = setupOf(code, "madd", args, {{"grid", {1}}, {"block", {1}}});
        QCOMPARE(runner_->run(setup).output("y")->value(0), double(std::fma(a, x, y)));
        setup.compile.options = {"--fmad=false"};
        const volatile float product = a * x; // rounded on its own
        QCOMPARE(runner_->run(setup).output("y")->value(0), double(product + y));
        QVERIFY(std::fma(a, x, y) != product + y);

        // So is a guarded kernel's, whose rows are vectorised (omp simd): each lane fuses its own.
        const std::string guarded =
            "__global__ void madd(float* y, const float* a, const float* x, int n) {\n"
            "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) y[i] = a[i] * x[i] + y[i];\n}\n";
        const auto rows =
            setupOf(guarded, "madd",
                    {array("y", "float32", {1000}, "inout", {{"constant", y}}),
                     array("a", "float32", {1000}, "in", {{"constant", a}}),
                     array("x", "float32", {1000}, "in", {{"constant", x}}), scalar("n", "int32", "size(y)")},
                    {{"grid", {4}}, {"block", {256}}});
        const auto vectorised = runner_->run(rows);
        QVERIFY2(vectorised.execution.find("one loop") != std::string::npos, vectorised.execution.c_str());
        for (std::size_t i = 0; i < 1000; ++i)
            QCOMPARE(vectorised.output("y")->value(i), double(std::fma(a, x, y)));

        // A loop's chain of multiply-adds is fused too: GCC 13's x86 tuning would split it.
        const std::string dot = "__global__ void dot(float* out, const float* a, const float* b, int n) {\n"
                                "    float sum = 0.0f;\n"
                                "    for (int k = 0; k < n; ++k) sum += a[k] * b[threadIdx.x * n + k];\n"
                                "    out[threadIdx.x] = sum;\n}\n";
        const auto chain =
            setupOf(dot, "dot",
                    {array("out", "float32", {32}, "out"),
                     array("a", "float32", {64}, "in", {{"random", "normal"}, {"seed", 1}}),
                     array("b", "float32", {32 * 64}, "in", {{"random", "normal"}, {"seed", 2}}),
                     scalar("n", "int32", 64)},
                    {{"grid", {1}}, {"block", {32}}});
        const auto fused = runner_->run(chain);
        const auto& av = chain.find("a")->array;
        const auto& bv = chain.find("b")->array;
        for (std::size_t t = 0; t < 32; ++t) {
            float sum = 0.0f;
            for (std::size_t k = 0; k < 64; ++k)
                sum = std::fma(float(av.value(k)), float(bv.value(t * 64 + k)), sum);
            QCOMPARE(fused.output("out")->value(t), double(sum));
        }
    }

    // Cooperative groups as CUDA defines them: the block, static tiles and tiles of tiles, reduce and the
    // scans, shuffles and votes on a tile. The expected values are worked out here, as plain loops.
    // --ftz=true, and -use_fast_math which implies it, flush single-precision denormals to zero as on the
    // GPU.
    void denormalsAreFlushedUnderFtz() {
        auto setup = setupOf(
            "__global__ void halve(float* y, const float* x) { y[threadIdx.x] = x[threadIdx.x] * 0.5f; }\n",
            "halve",
            {array("y", "float32", {1}, "out"), array("x", "float32", {1}, "in", {{"constant", 1e-39}})},
            {{"grid", {1}}, {"block", {1}}});
        const float denormal = 1e-39f;
        QCOMPARE(runner_->run(setup).output("y")->value(0), static_cast<double>(denormal * 0.5f));
        for (const char* option : {"--ftz=true", "-use_fast_math"}) {
            setup.compile.options = {option};
            QCOMPARE(runner_->run(setup).output("y")->value(0), 0.0);
        }
    }

    void cooperativeGroupsRunOnTheCpu() {
        const auto setup =
            setupOf(test::kCooperativeGroupsKernel, "groups",
                    {array("in", "int32", {512}, "in", {{"range", {{"start", -40}, {"step", 1}}}}),
                     array("blockSums", "int32", {4}, "out"), array("quarterMax", "int32", {512}, "out"),
                     array("scans", "int32", {512}, "out"), array("votes", "uint32", {512}, "out")},
                    {{"grid", {4}}, {"block", {128}}});
        QVERIFY(cpu::CpuRunner::needsFibers(setup.source));
        const auto result = runner_->run(setup);
        const auto in = [](int id) { return id - 40; };
        for (int b = 0; b < 4; ++b) {
            int total = 0;
            for (int t = 0; t < 128; ++t)
                total += in(b * 128 + t);
            QCOMPARE(result.output("blockSums")->value(std::size_t(b)), double(total));
        }
        for (int id = 0; id < 512; ++id) {
            const int first = id / 8 * 8, lane = id % 8;
            QCOMPARE(result.output("quarterMax")->value(std::size_t(id)), double(in(first + 7)));
            int before = 0;
            for (int l = 0; l < lane; ++l)
                before += in(first + l);
            const int below = id % 32 == 31 ? in(id) : in(id + 1); // shfl_down past the warp keeps its own
            QCOMPARE(result.output("scans")->value(std::size_t(id)), double(before + 1000 * below));
            unsigned bits = 0;
            for (int l = 0; l < 8; ++l)
                bits |= (in(first + l) % 3 == 0 ? 1u : 0u) << l;
            bool seven = false;
            for (int l = id / 32 * 32; l < id / 32 * 32 + 32; ++l)
                seven = seven || in(l) == 7;
            QCOMPARE(result.output("votes")->value(std::size_t(id)), double(bits + (seven ? 1000u : 0u)));
        }
    }

    // Half precision from cuda_fp16.h: every operation rounds to half once, as CUDA's half instructions do.
    void halfPrecisionRoundsLikeCuda() {
        const auto setup = setupOf(test::kHalfPrecisionKernel, "halves",
                                   {array("out", "float16", {64}, "out"),
                                    array("a", "float16", {64}, "in", {{"random", "normal"}, {"seed", 9}}),
                                    array("b", "float16", {64}, "in", {{"random", "normal"}, {"seed", 10}}),
                                    array("pair", "float16", {128}, "out")},
                                   {{"grid", {1}}, {"block", {64}}});
        const auto result = runner_->run(setup);
        const auto half = [](double v) { // rounded to float16 by Kernelpad's own arrays
            model::Array one(model::DType::Float16, {1});
            one.setValue(0, v);
            return one.value(0);
        };
        const auto& a = setup.find("a")->array;
        const auto& b = setup.find("b")->array;
        for (std::size_t i = 0; i < 64; ++i) {
            const double s = half(a.value(i) * b.value(i) + 0.5); // exact in double for halves
            QCOMPARE(result.output("out")->value(i), half(half(s * a.value(i)) - b.value(i)));
            QCOMPARE(result.output("pair")->value(2 * i), half(a.value(i) + b.value(i)));
            QCOMPARE(result.output("pair")->value(2 * i + 1), half(1.0 + s));
        }
    }

    // Visual Studio's CUDA template includes the runtime's headers: on the CPU backend they are built in.
    // cuda_bf16.h: conversions round to nearest even, and each operation is rounded to bfloat16 once.
    void bfloat16RoundsLikeCuda() {
        const auto setup = setupOf(
            "#include <cuda_bf16.h>\n"
            "__global__ void k(float* out, const float* a, const float* b) {\n"
            "    int i = threadIdx.x;\n"
            "    __nv_bfloat16 x = __float2bfloat16(a[i]), y = b[i];\n"
            "    out[3 * i] = __bfloat162float(x);\n"
            "    out[3 * i + 1] = __bfloat162float(x * y);\n"
            "    out[3 * i + 2] = __bfloat162float(__hfma(x, y, __float2bfloat16(-3.0f)));\n"
            "}\n",
            "k",
            {array("out", "float32", {4, 3}, "out"),
             array("a", "float32", {4}, "in",
                   {{"formula", "i == 0 ? 1.00390625 : (i == 1 ? 1.01171875 : (i == 2 ? 3 : -2.5))"}}),
             array("b", "float32", {4}, "in",
                   {{"formula", "i == 0 ? 3 : (i == 1 ? 1 : (i == 2 ? 1.0078125 : 0.001))"}})},
            {{"grid", {1}}, {"block", {4}}});
        const auto result = runner_->run(setup);
        const auto* out = result.output("out");
        const auto at = [&](std::size_t i, std::size_t k) { return out->value(3 * i + k); };
        QCOMPARE(at(0, 0), 1.0);      // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even
        QCOMPARE(at(1, 0), 1.015625); // 1 + 3 * 2^-8 is a tie: up to the even 1 + 2^-6
        QCOMPARE(at(0, 1), 3.0);      // 1 * 3
        QCOMPARE(at(2, 1), 3.03125);  // 3 * (1 + 2^-7) = 3.0234375 is a tie: to the even 3.03125
        QCOMPARE(at(2, 2),
                 0.0234375); // fma: 3.0234375 - 3 rounded once (rounding the product first gives 0.03125)
        QCOMPARE(at(3, 1), static_cast<double>(-0.00250244140625f)); // -2.5 * bf16(1e-3) rounded once
    }

    void aVisualStudioTemplateRuns() {
        const auto setup =
            setupOf("#include \"cuda_runtime.h\"\n#include \"device_launch_parameters.h\"\n"
                    "#include <stdio.h>\n\n"
                    "__global__ void addKernel(int *c, const int *a, const int *b)\n{\n"
                    "    int i = threadIdx.x;\n    c[i] = a[i] + b[i];\n}\n",
                    "addKernel",
                    {array("c", "int32", {5}, "out"),
                     array("a", "int32", {5}, "in", {{"range", {{"start", 1}, {"step", 1}}}}),
                     array("b", "int32", {5}, "in", {{"range", {{"start", 10}, {"step", 10}}}})},
                    {{"grid", {1}}, {"block", {5}}});
        const auto result = runner_->run(setup);
        for (std::size_t i = 0; i < 5; ++i)
            QCOMPARE(result.output("c")->value(i), double(11 * (i + 1)));
    }

    // What the CPU backend does not have of cooperative groups is a compile error naming it, on its line.
    // Every block runs at once, each on a thread of its own, and meets the others at grid.sync().
    void gridSyncRunsEveryBlockAtOnce() {
        const auto setupFor = [&](unsigned blocks) {
            return setupOf(test::kGridSyncKernel, "twoPhase",
                           {array("in", "int32", {10000}, "in", {{"range", {{"start", 0}, {"step", 1}}}}),
                            array("partial", "int32", {blocks}, "out"), array("total", "int32", {1}, "out"),
                            scalar("n", "int32", "size(in)")},
                           {{"grid", {blocks}}, {"block", {64}}});
        };
        const auto result = runner_->run(setupFor(16));
        QCOMPARE(result.output("total")->value(0), 49995000.0); // 0 + 1 + ... + 9999
        double partials = 0;
        for (std::size_t b = 0; b < 16; ++b)
            partials += result.output("partial")->value(b);
        QCOMPARE(partials, 49995000.0);
        // 2000 blocks cannot all run at once here: refused before anything runs, with the way out.
        const std::string problem = test::inputErrorOf([&] { (void)runner_->run(setupFor(2000)); });
        for (const char* fragment : {"synchronises its grid (a grid group on line 4)", "at most 1024 blocks",
                                     "2000 blocks of 64 threads", "grid-stride loop"})
            QVERIFY2(problem.find(fragment) != std::string::npos, problem.c_str());
    }

    void missingCooperativeGroupsAreNamedOnTheirLine() {
        const auto setup = setupOf("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                                   "__global__ void k(float* x) {\n    x[0] = 1;\n    auto g = "
                                   "cg::labeled_partition(cg::coalesced_threads(), 1);\n}\n",
                                   "k", {array("x", "float32", {4}, "out")}, {{"grid", {1}}, {"block", {1}}});
        try {
            (void)runner_->run(setup);
            QFAIL("labeled_partition compiled");
        } catch (const launch::CompileError& e) {
            const auto& d = e.diagnostics();
            const auto named = std::find_if(d.begin(), d.end(), [](const auto& x) {
                return x.message.starts_with("cooperative_groups labeled_partition is not supported");
            });
            QVERIFY2(named != d.end(), e.what());
            QCOMPARE(named->line, 5);
        }
    }

    void twoAndThreeDimensionalLaunches() {
        const auto setup2 = setupOf(
            "__global__ void coords(int* out, int rows, int cols) {\n"
            "    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;\n"
            "    if (r < rows && c < cols) out[r * cols + c] = r * 1000 + c;\n}\n",
            "coords",
            {array("out", "int32", {37, 53}, "out"), scalar("rows", "int32", "rows(out)"),
             scalar("cols", "int32", "cols(out)")},
            {{"grid", "auto"}, {"block", {16, 8}}});
        QCOMPARE(setup2.launch.grid, (std::array<std::uint32_t, 3>{4, 5, 1}));
        const auto outResult = runner_->run(setup2);
        const auto* out = outResult.output("out");
        for (std::size_t r = 0; r < 37; ++r)
            for (std::size_t c = 0; c < 53; ++c)
                QCOMPARE(out->value(r * 53 + c), static_cast<double>(r * 1000 + c));

        const auto setup3 = setupOf(
            "__global__ void ids(int* out) {\n"
            "    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
            "    int z = blockIdx.z * blockDim.z + threadIdx.z;\n"
            "    int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;\n"
            "    out[(z * h + y) * w + x] = z * 10000 + y * 100 + x;\n}\n",
            "ids", {array("out", "int32", {6, 8, 10}, "out")}, {{"grid", {5, 2, 3}}, {"block", {2, 4, 2}}});
        const auto idsResult = runner_->run(setup3);
        const auto* ids = idsResult.output("out");
        for (std::size_t z = 0; z < 6; ++z)
            for (std::size_t y = 0; y < 8; ++y)
                for (std::size_t x = 0; x < 10; ++x)
                    QCOMPARE(ids->value((z * 8 + y) * 10 + x), static_cast<double>(z * 10000 + y * 100 + x));
    }

    void mathBuiltins() {
        const auto setup =
            setupOf("__global__ void math(float* out) {\n"
                    "    out[0] = rsqrtf(4.0f);\n    out[1] = __saturatef(1.5f);\n    out[2] = "
                    "__fdividef(1.0f, 4.0f);\n"
                    "    out[3] = fmaf(2.0f, 3.0f, 1.0f);\n    out[4] = min(3.0f, -1.0f);\n    out[5] = "
                    "__expf(0.0f);\n"
                    "    float2 v = make_float2(1.0f, 2.0f);\n    out[6] = v.y;\n    out[7] = "
                    "float(__popc(0xF0u));\n}\n",
                    "math", {array("out", "float32", {8}, "out")}, {{"grid", {1}}, {"block", {1}}});
        const auto outResult = runner_->run(setup);
        const auto* out = outResult.output("out");
        const double expected[] = {0.5, 1.0, 0.25, 7.0, -1.0, 1.0, 2.0, 4.0};
        for (std::size_t i = 0; i < 8; ++i)
            QCOMPARE(out->value(i), expected[i]);
    }

    void warpShufflesAndVotes() {
        // 48 threads: one full warp and a partial one, as a block of 48 has on a GPU.
        const auto setup = setupOf(
            "__global__ void warps(int* out, const int* in) {\n"
            "    int t = threadIdx.x, lane = t % 32, v = in[t];\n"
            "    int sum = v;\n"
            "    for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffff, sum, d);\n"
            "    int first = __shfl_sync(0xffffffff, v, 0);\n"
            "    int butterfly = v;\n"
            "    for (int m = 1; m < 32; m *= 2) butterfly += __shfl_xor_sync(0xffffffff, butterfly, m);\n"
            "    unsigned odd = __ballot_sync(0xffffffff, v % 2);\n"
            "    int all = __all_sync(0xffffffff, v >= 0), any = __any_sync(0xffffffff, v > 40);\n"
            "    int up = __shfl_up_sync(0xffffffff, v, 1);\n"
            "    int big = __syncthreads_count(v >= 10);\n"
            "    out[t * 8 + 0] = sum; out[t * 8 + 1] = first; out[t * 8 + 2] = butterfly; out[t * 8 + 3] = "
            "(int)odd;\n"
            "    out[t * 8 + 4] = all; out[t * 8 + 5] = any; out[t * 8 + 6] = up; out[t * 8 + 7] = big;\n"
            "    (void)lane;\n}\n",
            "warps",
            {array("out", "int32", {48, 8}, "out"),
             array("in", "int32", {48}, "in", {{"range", {{"start", 0}, {"step", 1}}}})},
            {{"grid", {1}}, {"block", {48}}});
        QVERIFY(cpu::CpuRunner::needsFibers(setup.source));
        const auto result = runner_->run(setup);
        const auto* out = result.output("out");
        const auto at = [&](int t, int k) {
            return static_cast<long long>(out->value(std::size_t(t) * 8 + std::size_t(k)));
        };
        QCOMPARE(at(0, 0), 496LL); // lane 0 of warp 0 holds 0 + 1 + ... + 31
        // (Warp 1's reduction reads lanes 48..63, which do not exist: undefined in CUDA, so not checked.)
        QCOMPARE(at(40, 1), 32LL); // broadcast of the warp's lane 0
        QCOMPARE(at(5, 2), 496LL); // butterfly: every lane has the warp's sum
        QCOMPARE(at(3, 3), static_cast<long long>(0xAAAAAAAAu - 0x100000000LL)); // odd lanes, as an int
        QCOMPARE(at(33, 3), 0xAAAALL);                                           // warp 1: 16 lanes
        QCOMPARE(at(0, 4), 1LL);
        QCOMPARE(at(0, 5), 0LL);   // no value over 40 in warp 0
        QCOMPARE(at(47, 5), 1LL);  // 41..47 in warp 1
        QCOMPARE(at(7, 6), 6LL);   // up by one
        QCOMPARE(at(0, 6), 0LL);   // lane 0 keeps its own
        QCOMPARE(at(20, 7), 38LL); // 10..47 over the whole block
    }

    void warpsDivergeAndRunIndependentlyAsInCuda() {
        // Two warps. Each part is legal CUDA that a block-wide exchange would get wrong: shuffles by some
        // lanes only (as in NVIDIA's shfl_scan), warps that shuffle a different number of times, both
        // sides of a branch shuffling with their own masks, __activemask in a branch, matches, reductions.
        const auto setup =
            setupOf("__global__ void diverge(int* out, const int* in) {\n"
                    "    int t = threadIdx.x, lane = t % 32, warp = t / 32, v = in[t];\n"
                    "    int scan = v;\n"
                    "    if (lane < 16) {\n"
                    "        for (int d = 1; d < 16; d *= 2) {\n"
                    "            int up = __shfl_up_sync(0x0000ffffu, scan, d);\n"
                    "            if (lane >= d) scan += up;\n"
                    "        }\n"
                    "    }\n"
                    "    int acc = v;\n"
                    "    for (int r = 0; r <= warp; ++r) acc += __shfl_xor_sync(0xffffffffu, acc, 1);\n"
                    "    int side;\n"
                    "    if (lane % 2) side = __shfl_down_sync(0xaaaaaaaau, v, 2);\n"
                    "    else side = __shfl_down_sync(0x55555555u, v, 2);\n"
                    "    unsigned active = 0;\n"
                    "    if (lane >= 8 && lane < 24) active = __activemask();\n"
                    "    unsigned same = __match_any_sync(0xffffffffu, v / 4);\n"
                    "    int pred = 0;\n"
                    "    unsigned all = __match_all_sync(0xffffffffu, warp, &pred);\n"
                    "    unsigned total = __reduce_add_sync(0xffffffffu, (unsigned)v);\n"
                    "    int lowest = __reduce_min_sync(0xffffffffu, v - 40);\n"
                    "    unsigned bits = __reduce_or_sync(0xffffffffu, 1u << (lane % 8));\n"
                    "    int* o = out + t * 9;\n"
                    "    o[0] = scan; o[1] = acc; o[2] = side; o[3] = (int)active; o[4] = (int)same;\n"
                    "    o[5] = pred ? (int)all : -1; o[6] = (int)total; o[7] = lowest; o[8] = (int)bits;\n"
                    "}\n",
                    "diverge",
                    {array("out", "int32", {64, 9}, "out"),
                     array("in", "int32", {64}, "in", {{"range", {{"start", 0}, {"step", 1}}}})},
                    {{"grid", {1}}, {"block", {64}}});
        const auto result = runner_->run(setup);
        const auto* out = result.output("out");
        for (int t = 0; t < 64; ++t) {
            const int lane = t % 32, warp = t / 32, base = t - lane;
            const auto at = [&](int k) {
                return static_cast<long long>(out->value(std::size_t(t) * 9 + std::size_t(k)));
            };
            const long long scan = lane < 16 ? static_cast<long long>(base + t) * (t - base + 1) / 2 : t;
            const long long pair = t + (t ^ 1);
            const long long acc = warp == 0 ? pair : 2 * pair;
            const long long side = lane + 2 < 32 ? t + 2 : t;
            const long long active = lane >= 8 && lane < 24 ? 0x00ffff00 : 0;
            const long long same = static_cast<std::int32_t>(0xFu << (lane / 4 * 4)); // stored as int32
            const long long total = 32LL * base + 496;
            const QString where = QString("thread %1").arg(t);
            QVERIFY2(at(0) == scan, qPrintable(where + " scan"));
            QVERIFY2(at(1) == acc, qPrintable(where + " acc"));
            QVERIFY2(at(2) == side, qPrintable(where + " side"));
            QVERIFY2(at(3) == active, qPrintable(where + " active"));
            QVERIFY2(at(4) == same, qPrintable(where + " same"));
            QVERIFY2(at(5) == -1, qPrintable(where + " match_all")); // int32 -1 is 0xffffffff
            QVERIFY2(at(6) == total, qPrintable(where + " total"));
            QVERIFY2(at(7) == base - 40, qPrintable(where + " lowest"));
            QVERIFY2(at(8) == 0xff, qPrintable(where + " bits"));
        }
    }

    // __match_any_sync with values that interleave across the warp, in part of it: each lane gets the
    // lanes of its own value among those the mask names, whatever their order. Values under 64 take a
    // direct table, larger ones a hashed one: rows on both sides of that line.
    void matchAnyInterleavedValues_data() {
        QTest::addColumn<unsigned>("base");
        QTest::newRow("values under 64") << 0u;
        QTest::newRow("values across 64") << 60u;
        QTest::newRow("large values") << 0x80000000u;
    }
    void matchAnyInterleavedValues() {
        QFETCH(unsigned, base);
        const auto setup =
            setupOf("__global__ void match(unsigned* out, unsigned base) {\n"
                    "    unsigned lane = threadIdx.x % 32;\n"
                    "    unsigned peers = 0xdeadu;\n"
                    "    if (lane < 29) peers = __match_any_sync(0x1fffffffu, base + (lane % 3 == 0 ? 7u : "
                    "lane % 5));\n"
                    "    out[threadIdx.x] = peers;\n"
                    "}\n",
                    "match", {array("out", "uint32", {64}, "out"), scalar("base", "uint32", base)},
                    {{"grid", {1}}, {"block", {64}}});
        const auto result = runner_->run(setup);
        const auto* out = result.output("out");
        const auto valueOf = [](unsigned lane) { return lane % 3 == 0 ? 7u : lane % 5; };
        for (unsigned t = 0; t < 64; ++t) {
            const unsigned lane = t % 32;
            unsigned expected = 0xdeadu;
            if (lane < 29) {
                expected = 0;
                for (unsigned j = 0; j < 29; ++j)
                    expected |= valueOf(j) == valueOf(lane) ? 1u << j : 0u;
            }
            QCOMPARE(static_cast<unsigned>(out->value(t)), expected);
        }
    }

    // A whole warp's integer reduce with a known operation adds up its lanes in order instead of running
    // the butterfly: the same results, a sum that overflows wrapping as on a GPU.
    void tileReducesOfIntegersInAnyOrder() {
        const auto setup =
            setupOf("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                    "namespace cg = cooperative_groups;\n"
                    "__global__ void r(int* sums, int* mins, unsigned* maxes, unsigned long long* xors, "
                    "const int* in) {\n"
                    "    auto block = cg::this_thread_block();\n"
                    "    auto warp = cg::tiled_partition<32>(block);\n"
                    "    auto eight = cg::tiled_partition<8>(block);\n"
                    "    const int t = threadIdx.x, v = in[t];\n"
                    "    const int sum = cg::reduce(warp, v, cg::plus<int>());\n"
                    "    const int least = cg::reduce(eight, v, cg::less<int>());\n"
                    "    const unsigned most = cg::reduce(warp, (unsigned)v * 2654435761u, "
                    "cg::greater<unsigned>());\n"
                    "    const unsigned long long x = cg::reduce(eight, (unsigned long long)v << (t % 40), "
                    "cg::bit_xor<unsigned long long>());\n"
                    "    sums[t] = sum; mins[t] = least; maxes[t] = most; xors[t] = x;\n"
                    "}\n",
                    "r",
                    {array("sums", "int32", {64}, "out"), array("mins", "int32", {64}, "out"),
                     array("maxes", "uint32", {64}, "out"), array("xors", "uint64", {64}, "out"),
                     array("in", "int32", {64}, "in", {{"formula", "(i * 7919 % 13 - 6) * 300000000"}})},
                    {{"grid", {1}}, {"block", {64}}});
        const auto result = runner_->run(setup);
        QVERIFY2(result.execution.find("warp operations") != std::string::npos, result.execution.c_str());
        std::vector<int> in(64);
        for (std::size_t t = 0; t < 64; ++t)
            in[t] = static_cast<int>(setup.args.at(4).array.value(t));
        QCOMPARE(in[5], (5 * 7919 % 13 - 6) * 300000000); // the formula as C++ computes it
        for (std::size_t t = 0; t < 64; ++t) {
            const std::size_t warp = t / 32 * 32, warpEnd = warp + 32, eight = t / 8 * 8;
            std::uint32_t sum = 0, most = 0;
            for (std::size_t i = warp; i < warpEnd; ++i) {
                sum += static_cast<std::uint32_t>(in[i]);
                most = std::max(most, static_cast<std::uint32_t>(in[i]) * 2654435761u);
            }
            int least = in[eight];
            std::uint64_t x = 0;
            for (std::size_t i = eight; i < eight + 8; ++i) {
                least = std::min(least, in[i]);
                x ^= static_cast<std::uint64_t>(static_cast<unsigned long long>(in[i]) << (i % 40));
            }
            QCOMPARE(static_cast<std::int32_t>(result.output("sums")->value(t)),
                     static_cast<std::int32_t>(sum));
            QCOMPARE(static_cast<int>(result.output("mins")->value(t)), least);
            QCOMPARE(static_cast<std::uint32_t>(result.output("maxes")->value(t)), most);
            std::uint64_t got = 0;
            std::memcpy(&got, static_cast<const std::byte*>(result.output("xors")->data()) + 8 * t, 8);
            QCOMPARE(got, x);
        }
    }

    void coalescedGroupsAndTileMatches() {
        const auto setup =
            setupOf("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                    "__global__ void groups(int* out, const int* in) {\n"
                    "    int t = threadIdx.x, v = in[t];\n"
                    "    auto tile = cg::tiled_partition<8>(cg::this_thread_block());\n"
                    "    unsigned same = tile.match_any(v / 2);\n"
                    "    int rank = -1, size = 0, first = -1, sum = 0, down = -1;\n"
                    "    if (v % 3 == 0) {\n"
                    "        cg::coalesced_group active = cg::coalesced_threads();\n"
                    "        rank = (int)active.thread_rank();\n"
                    "        size = (int)active.size();\n"
                    "        first = active.shfl(v, 0);\n"
                    "        down = active.shfl_down(v, 1);\n"
                    "        sum = cg::reduce(active, v, cg::plus<int>());\n"
                    "    }\n"
                    "    int* o = out + t * 6;\n"
                    "    o[0] = (int)same; o[1] = rank; o[2] = size; o[3] = first; o[4] = sum; o[5] = down;\n"
                    "}\n",
                    "groups",
                    {array("out", "int32", {32, 6}, "out"),
                     array("in", "int32", {32}, "in", {{"range", {{"start", 0}, {"step", 1}}}})},
                    {{"grid", {1}}, {"block", {32}}});
        const auto result = runner_->run(setup);
        const auto* out = result.output("out");
        for (int t = 0; t < 32; ++t) {
            const auto at = [&](int k) {
                return static_cast<long long>(out->value(std::size_t(t) * 6 + std::size_t(k)));
            };
            QCOMPARE(at(0), 0x3LL << (t % 8 / 2 * 2)); // in tile ranks
            if (t % 3 != 0) {
                QCOMPARE(at(1), -1LL);
                continue;
            }
            QCOMPARE(at(1), static_cast<long long>(t / 3));
            QCOMPARE(at(2), 11LL); // 0, 3, ..., 30
            QCOMPARE(at(3), 0LL);
            QCOMPARE(at(4), 165LL);
            QCOMPARE(at(5), t + 3 <= 30 ? t + 3LL : static_cast<long long>(t)); // the last keeps its own
        }
    }

    // Lanes that take a loop's `continue` meet the others again at the next pass, as a GPU reconverges
    // them at the end of the pass (an H200 gives exactly these masks): __activemask() at the top of every
    // pass names every lane still in the loop. As fibers, the lanes that continued used to wait at the top
    // while the others answered further down, and the warp stayed split in two for the rest of the loop.
    void activeMaskReconvergesAfterContinue() {
        constexpr int kPasses = 6, kBlock = 48; // a whole warp and half of one
        const auto setup = setupOf("__global__ void k(unsigned* out) {\n"
                                   "    const int t = threadIdx.x;\n"
                                   "    for (int i = 0; i < 6; ++i) {\n"
                                   "        out[t * 24 + i * 4] = __activemask();\n"
                                   "        if ((t + i) % 3 == 0) continue;\n"
                                   "        out[t * 24 + i * 4 + 1] = __activemask();\n"
                                   "        if (i > t % 5) break;\n"
                                   "        out[t * 24 + i * 4 + 2] = __activemask();\n"
                                   "    }\n"
                                   "}\n",
                                   "k", {array("out", "uint32", {kBlock * 24}, "out")},
                                   {{"grid", {1}}, {"block", {kBlock}}});
        const auto result = runner_->run(setup);
        QVERIFY2(result.execution.find("fibers") != std::string::npos, result.execution.c_str());
        const auto* out = result.output("out");
        QVERIFY(out);
        QString wrong; // the first value that differs
        for (int first = 0; first < kBlock; first += 32) {
            const int lanes = std::min(32, kBlock - first);
            std::uint32_t in = lanes == 32 ? ~0u : (1u << lanes) - 1u;
            for (int i = 0; i < kPasses; ++i) {
                std::uint32_t middle = 0, low = 0;
                for (int l = 0; l < lanes; ++l)
                    if ((in >> l & 1u) && (first + l + i) % 3 != 0) middle |= 1u << l;
                for (int l = 0; l < lanes; ++l)
                    if ((middle >> l & 1u) && !(i > (first + l) % 5)) low |= 1u << l;
                for (int l = 0; l < lanes; ++l) {
                    const std::size_t at =
                        static_cast<std::size_t>(first + l) * 24 + static_cast<std::size_t>(i) * 4;
                    const std::uint32_t masks[3] = {in, middle, low};
                    for (std::size_t k = 0; k < 3; ++k) {
                        const double want = (masks[k] >> l & 1u) ? masks[k] : 0.0;
                        if (wrong.isEmpty() && out->value(at + k) != want)
                            wrong = QStringLiteral("thread %1, pass %2, call %3: %4, expected %5")
                                        .arg(first + l)
                                        .arg(i)
                                        .arg(k)
                                        .arg(out->value(at + k), 0, 'f', 0)
                                        .arg(want, 0, 'f', 0);
                    }
                }
                in &= ~(middle & ~low); // those that broke out
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void warpMisuseStopsWithTheLines_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QStringList>("fragments");
        QTest::newRow("a mask without the caller")
            << "    if (threadIdx.x == 5)\n        x[0] = __shfl_sync(0x1u, x[5], 0);\n"
            << QStringList{"at <code>:3, thread (5, 0, 0) of block (0, 0, 0) calls __shfl_sync with the mask "
                           "0x00000001, which leaves out its own lane (5)"};
        QTest::newRow("a named lane at __syncthreads")
            << "    if (threadIdx.x < 16)\n        x[threadIdx.x] = __shfl_down_sync(0xffffffffu, "
               "x[threadIdx.x], 1);\n"
               "    __syncthreads();\n"
            << QStringList{
                   "at <code>:3, thread (0, 0, 0) of block (0, 0, 0) waits in __shfl_down_sync for lane 16",
                   "which waits at __syncthreads at <code>:4", "0xffffffff"};
        QTest::newRow("a named lane at __activemask")
            << "    if (threadIdx.x < 16)\n        x[threadIdx.x] = __shfl_down_sync(0xffffffffu, "
               "x[threadIdx.x], 1);\n"
               "    x[threadIdx.x] += __activemask();\n"
            << QStringList{
                   "at <code>:3, thread (0, 0, 0) of block (0, 0, 0) waits in __shfl_down_sync for lane 16",
                   "which calls __activemask at <code>:4"};
        // The same where the call records (after another statement of its region): no mask to speak of.
        QTest::newRow("a named lane at a recorded __activemask")
            << "    if (threadIdx.x < 16)\n        x[threadIdx.x] = __shfl_down_sync(0xffffffffu, "
               "x[threadIdx.x], 1);\n"
               "    x[threadIdx.x] += 1.0f;\n    x[threadIdx.x] += __activemask();\n"
            << QStringList{
                   "at <code>:3, thread (0, 0, 0) of block (0, 0, 0) waits in __shfl_down_sync for lane 16",
                   "which calls __activemask at <code>:5."};
        QTest::newRow("two operations on one mask")
            << "    if (threadIdx.x < 16)\n        x[threadIdx.x] = __shfl_sync(0xffffffffu, x[0], 0);\n"
               "    else\n        x[threadIdx.x] = __ballot_sync(0xffffffffu, 1);\n"
            << QStringList{
                   "at <code>:3, thread (0, 0, 0) of block (0, 0, 0) waits in __shfl_sync for lane 16",
                   "which calls __ballot_sync with the mask 0xffffffff at <code>:5",
                   "must call the same operation with the same mask"};
    }
    void warpMisuseStopsWithTheLines() {
        QFETCH(QString, body);
        QFETCH(QStringList, fragments);
        const auto setup =
            setupOf("__global__ void k(float* x) {\n" + body.toStdString() + "}\n", "k",
                    {array("x", "float32", {32}, "inout", "ones")}, {{"grid", {1}}, {"block", {32}}});
        try {
            (void)runner_->run(setup);
            QFAIL("the run went on");
        } catch (const launch::KernelFault& e) {
            const std::string text = e.what();
            QVERIFY2(text.starts_with("the kernel k cannot go on: at <code>:3, "), text.c_str());
            for (const auto& fragment : fragments)
                QVERIFY2(text.find(fragment.toStdString()) != std::string::npos,
                         (text + "\n  lacks: " + fragment.toStdString()).c_str());
        }
    }

    // A tile reduce that part of the tile calls stops with its line where the others wait at a barrier, as a
    // shuffle does: the loop records lightly first, finds the warps not whole, and records again in full,
    // and the takes check the meeting.
    void aTileReduceThatPartOfTheTileCallsStops() {
        const auto setup =
            setupOf("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                    "namespace cg = cooperative_groups;\n"
                    "__global__ void k(float* x) {\n"
                    "    auto block = cg::this_thread_block();\n"
                    "    auto warp = cg::tiled_partition<32>(block);\n"
                    "    float v = x[threadIdx.x];\n"
                    "    if (threadIdx.x % 32 < 20)\n"
                    "        v = cg::reduce(warp, v, cg::plus<float>());\n"
                    "    __syncthreads();\n"
                    "    x[threadIdx.x] = v;\n}\n",
                    "k", {array("x", "float32", {64}, "inout", "ones")}, {{"grid", {2}}, {"block", {64}}});
        try {
            (void)runner_->run(setup);
            QFAIL("the run went on");
        } catch (const launch::KernelFault& e) {
            const std::string text = e.what();
            for (const char* fragment :
                 {"the kernel k cannot go on: at <code>:9, thread (0, 0, 0) of block (0, 0, 0)",
                  "waits in cooperative_groups::reduce for lane 20",
                  "which waits at __syncthreads at <code>:10"})
                QVERIFY2(text.find(fragment) != std::string::npos, (text + "\n  lacks: " + fragment).c_str());
        }
    }

    void boundsModeNamesTheArrayTheIndexTheThreadAndTheLine() {
        // The classic bug: no "if (i < n)", and a grid that covers 1024 threads for 1000 elements.
        const auto setup =
            setupOf("__global__ void mul(float* d, const float* a,\n                    const float* b) {\n"
                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    d[i] = a[i] * b[i];\n}\n",
                    "mul",
                    {array("d", "float32", {1000}, "out"), array("a", "float32", {1000}, "in", "ones"),
                     array("b", "float32", {1000}, "in", {{"constant", 3}})},
                    {{"grid", "auto"}, {"block", {256}}});
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 1, true);
        try {
            (void)checked.run(setup);
            QFAIL("24 threads past the end went unnoticed");
        } catch (const launch::KernelFault& e) {
            const std::string text = e.what();
            for (const char* fragment : {"the kernel mul accessed memory out of bounds", "[1000] is outside",
                                         "which has 1000 elements", "thread (232, 0, 0) of block (3, 0, 0)",
                                         "at <code>:4", "72 out-of-bounds accesses in all"})
                QVERIFY2(text.find(fragment) != std::string::npos, (text + "\n  lacks: " + fragment).c_str());
        }
        // Guarded, the same kernel runs clean in the bounds mode and gives the plain mode's values.
        auto guarded = setup;
        guarded.launch.grid = {4, 1, 1};
        guarded.source =
            "__global__ void mul(float* d, const float* a,\n                    const float* b) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < 1000) { d[i] = a[i] * b[i]; "
            "atomicAdd(d + 0, 0.0f); }\n}\n";
        const auto result = checked.run(guarded);
        QVERIFY(*result.output("d") == *runner_->run(guarded).output("d"));
        QCOMPARE(result.output("d")->value(999), 3.0);
    }

    // A read past the end returns a value the kernel never wrote; here a step of 0, so the loop never ends.
    // The bounds mode stops the launch kBoundsGrace (2 s) after that access and reports the access, where
    // the caller's time limit would have said only that the run took too long.
    void boundsModeStopsALoopThatAnOutOfBoundsReadMadeEndless() {
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 2, true);
        const auto setup = setupOf("__global__ void walk(int* a, const int* steps, int n) {\n"
                                   "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "    const int step = steps[n + i];\n"
                                   "    for (int j = 0; j < n; j += step) a[i] += 1;\n"
                                   "}\n",
                                   "walk",
                                   {array("a", "int32", {64}, "out"),
                                    array("steps", "int32", {64}, "in", "ones"), scalar("n", "int32", 64)},
                                   {{"grid", {2}}, {"block", {32}}});
        // Were the launch not stopped, the test would end it here rather than hang.
        std::atomic<bool> cancel{false};
        std::thread deadline([&cancel] {
            for (int i = 0; i < 300 && !cancel.load(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            cancel.store(true);
        });
        const auto started = std::chrono::steady_clock::now();
        std::string text;
        bool cancelled = false;
        try {
            cancelled = checked.run(setup, {1, 0, &cancel}).cancelled;
        } catch (const launch::KernelFault& e) {
            text = e.what();
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        cancel.store(true);
        deadline.join();
        QVERIFY2(!cancelled, "the launch ran on to the test's own limit of 30 s");
        for (const char* fragment :
             {"the kernel walk accessed memory out of bounds: steps[64] is outside steps, which has 64 "
              "elements: "
              "thread (0, 0, 0) of block (0, 0, 0), at <code>:3",
              "at <code>:3; the launch had not ended 2 s after that access, and was stopped there",
              "can make a loop's condition never change"})
            QVERIFY2(text.find(fragment) != std::string::npos, (text + "\n  lacks: " + fragment).c_str());
        QVERIFY2(seconds < 20, std::to_string(seconds).c_str());
    }

    // Vector loads written the CUDA way: the array cast to float4 with reinterpret_cast (still checked, in
    // float4 elements), a C-style cast, and a plain pointer taken from the array (unchecked from there).
    void boundsModeFollowsCastsOfTheArrays() {
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 1, true);
        const std::string kernel =
            "__global__ void quad(const float* in, float* out, int quads) {\n"
            "    int q = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (q >= quads) return;\n"
            "    float4 v = reinterpret_cast<const float4*>(in)[q];\n"
            "    const float* plain = in;\n"
            "    float2 tail = ((const float2*)in)[2 * q + 1];\n"
            "    reinterpret_cast<float4*>(out)[q] = make_float4(v.w, v.z, tail.x + plain[4 * q], v.x);\n"
            "}\n";
        auto setup = setupOf(kernel, "quad",
                             {array("in", "float32", {400}, "in", {{"range", {{"start", 0}, {"step", 1}}}}),
                              array("out", "float32", {400}, "out"), scalar("quads", "int32", 100)},
                             {{"grid", {4}}, {"block", {32}}});
        const auto result = checked.run(setup);
        QVERIFY(*result.output("out") == *runner_->run(setup).output("out"));
        QCOMPARE(result.output("out")->value(41), 42.0);      // quad 10: v.z = in[42]
        QCOMPARE(result.output("out")->value(42), 42.0 + 40); // tail.x = in[42], plain[40]
        // One quad too many for `out` (400 floats, 100 float4) while `in` has room: the write is caught and
        // named in float4 elements, on its line.
        setup = setupOf(kernel, "quad",
                        {array("in", "float32", {404}, "in", "ones"), array("out", "float32", {400}, "out"),
                         scalar("quads", "int32", 101)},
                        {{"grid", {4}}, {"block", {32}}});
        try {
            (void)checked.run(setup);
            QFAIL("the 101st float4 went unnoticed");
        } catch (const launch::KernelFault& e) {
            const std::string text = e.what();
            for (const char* fragment : {"out[100] is outside out, which has 100 elements", "at <code>:7"})
                QVERIFY2(text.find(fragment) != std::string::npos, (text + "\n  lacks: " + fragment).c_str());
        }
    }

    // An off-by-one grid-stride loop (`i <= n`) in a split kernel runs in passes; its report still names
    // the thread that read past the end: 5001 = 5 * 896 + 4 * 128 + 9, thread 9 of block 4.
    void boundsModeNamesTheThreadOfAPass() {
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 1, true);
        const auto setup = setupOf(
            "__global__ void k(const int* in, int* out, int n) {\n    __shared__ int s[128];\n"
            "    int sum = 0;\n"
            "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * gridDim.x)\n"
            "        sum += in[i];\n"
            "    s[threadIdx.x] = sum;\n    __syncthreads();\n"
            "    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[127];\n}\n",
            "k",
            {array("in", "int32", {5001}, "in", "ones"), array("out", "int32", {7}, "out"),
             scalar("n", "int32", 5001)},
            {{"grid", {7}}, {"block", {128}}});
        try {
            const auto result = checked.run(setup);
            QFAIL(("in[5001] went unnoticed; runs as: " + result.execution).c_str());
        } catch (const launch::KernelFault& e) {
            const std::string text = e.what();
            QVERIFY2(
                text.find("in[5001] is outside in, which has 5001 elements: thread (9, 0, 0) of block (4, "
                          "0, 0)") != std::string::npos,
                e.what());
        }
    }

    // In bounds mode a pointer parameter is a checked pointer, still no value the same for the block: a
    // grid-stride loop whose limit it points to (and which the loop changes) runs as written there too.
    void boundsModeKeepsALimitReadThroughAPointer() {
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 1, true);
        const auto setup = setupOf("__global__ void consume(float* y, int* budget) {\n"
                                   "    int index = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "    int stride = blockDim.x * gridDim.x;\n"
                                   "    for (int i = index; i < *budget; i += stride) {\n"
                                   "        y[i] = 2.0f + i;\n        budget[0] -= 1;\n    }\n}\n",
                                   "consume",
                                   {array("y", "float32", {1000}, "out"),
                                    array("budget", "int32", {1}, "inout", {{"constant", 1000}})},
                                   {{"grid", {1}}, {"block", {1}}});
        const auto result = checked.run(setup);
        QVERIFY2(result.execution.find("passes") == std::string::npos, result.execution.c_str());
        QCOMPARE(result.output("budget")->value(0), 500.0); // i and budget meet half way
        QCOMPARE(result.output("y")->value(499), 501.0);
        QCOMPARE(result.output("y")->value(500), 0.0);
        QVERIFY(*result.output("y") == *runner_->run(setup).output("y"));
    }

    void boundsModeChecksSharedMemory() {
        const cpu::CpuRunner checked(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 1, true);
        const auto staticShared =
            setupOf("__global__ void k(int* out) {\n    __shared__ int tile[32];\n"
                    "    tile[threadIdx.x] = 1;\n    __syncthreads();\n    out[threadIdx.x % 32] = "
                    "tile[threadIdx.x % 32];\n}\n",
                    "k", {array("out", "int32", {32}, "out")}, {{"grid", {1}}, {"block", {40}}});
        try {
            (void)checked.run(staticShared);
            QFAIL("8 writes past a 32-element shared array went unnoticed");
        } catch (const launch::KernelFault& e) {
            const std::string text = e.what();
            QVERIFY2(text.find("tile[32] is outside tile, which has 32 elements: thread (32, 0, 0)") !=
                         std::string::npos,
                     e.what());
            QVERIFY2(text.find("at <code>:3") != std::string::npos, e.what());
        }
        const auto dynamicShared =
            setupOf("__global__ void k(float* out) {\n    extern __shared__ float cache[];\n"
                    "    cache[threadIdx.x] = 2.0f;\n    out[0] = cache[0];\n}\n",
                    "k", {array("out", "float32", {1}, "out")},
                    {{"grid", {1}}, {"block", {20}}, {"shared_bytes", 64}});
        try {
            (void)checked.run(dynamicShared);
            QFAIL("writes past 64 bytes of dynamic shared memory went unnoticed");
        } catch (const launch::KernelFault& e) {
            QVERIFY2(std::string(e.what()).find("cache[16] is outside cache, which has 16 elements") !=
                         std::string::npos,
                     e.what());
        }
    }

    void compileErrorsPointAtTheUsersLine() {
        const auto setup =
            setupOf("__global__ void k(float* x) {\n    int i = threadIdx.x;\n    x[i] = y;\n}\n", "k",
                    {array("x", "float32", {4}, "out")}, {{"grid", {1}}, {"block", {4}}});
        try {
            (void)runner_->run(setup);
            QFAIL("an undefined identifier compiled");
        } catch (const launch::CompileError& e) {
            QVERIFY(!e.diagnostics().empty());
            QCOMPARE(e.diagnostics()[0].file, std::string("<code>"));
            QCOMPARE(e.diagnostics()[0].line, 3);
            QCOMPARE(e.diagnostics()[0].column, 12);
        }
    }

    void definesCannotInjectCode() {
        auto setup = setupOf("__global__ void k(float* x) { x[threadIdx.x] = N; }\n", "k",
                             {array("x", "float32", {4}, "out")}, {{"grid", {1}}, {"block", {4}}});
        setup.compile.defines = {{"N", "2"}};
        const auto result = runner_->run(setup);
        QCOMPARE(result.output("x")->value(3), 2.0);
        setup.compile.defines = {{"N", "2\n#include \"/etc/passwd\""}};
        QVERIFY_THROWS_EXCEPTION(launch::SetupError, runner_->run(setup));
    }

    void unsupportedBuiltinsAreNamedOnTheirLine() {
        const auto setup = setupOf("__global__ void k(float* x) {\n    x[0] = 1;\n    x[1] = "
                                   "__shfl_sideways_sync(0xffffffff, x[0], 1);\n}\n",
                                   "k", {array("x", "float32", {4}, "out")}, {{"grid", {1}}, {"block", {1}}});
        try {
            (void)runner_->run(setup);
            QFAIL("an unknown built-in compiled");
        } catch (const launch::CompileError& e) {
            QCOMPARE(e.diagnostics()[0].line, 3);
            QVERIFY2(e.diagnostics()[0].message.starts_with(
                         "__shfl_sideways_sync is not supported by Kernelpad's CPU backend"),
                     e.diagnostics()[0].message.c_str());
        }
    }

    void moreIntrinsics() {
        const auto setup = setupOf(
            "__global__ void k(float* out, const float* in) {\n"
            "    out[0] = __ldg(&in[1]);\n    out[1] = __int_as_float(__float_as_int(2.5f));\n"
            "    out[2] = float(__brev(1u) >> 31);\n    out[3] = float(__umul24(3u, 5u));\n"
            "    float s, c;\n    sincosf(0.0f, &s, &c);\n    out[4] = s + c;\n    out[5] = "
            "float(__clzll(1LL));\n}\n",
            "k", {array("out", "float32", {6}, "out"), array("in", "float32", {2}, "in", {{"constant", 7}})},
            {{"grid", {1}}, {"block", {1}}});
        const auto result = runner_->run(setup);
        const double expected[] = {7, 2.5, 1, 15, 1, 63};
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(result.output("out")->value(i), expected[i]);
    }

    void manyKernelsInOneProcess() {
        // Each run loads a new kernel library. With the built-ins' thread-local state in every library,
        // the process ran out of static TLS after about twenty; now they all share the program's.
        for (int k = 0; k < 30; ++k) {
            const auto setup = setupOf(
                "__global__ void k(int* x) { x[threadIdx.x] = threadIdx.x + " + std::to_string(k) + "; }\n",
                "k", {array("x", "int32", {4}, "out")}, {{"grid", {1}}, {"block", {4}}});
            const auto result = runner_->run(setup);
            QCOMPARE(result.output("x")->value(3), 3.0 + k);
        }
    }

    // With readInputsInPlace (sweeps), every round reads an In array where it is, at the parent's own
    // address in the child's copy-on-write view; a kernel that writes one anyway is run again on copies,
    // so each round still starts from the playground's values.
    void inArraysAreReadInPlaceUnlessTheKernelWritesThem() {
        const auto setupWith = [&](const std::string& body) {
            return setupOf(
                "extern \"C\" __global__ void k(unsigned long long* at, float* out, float* a, int n) {\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i == 0) at[0] = (unsigned long long)a;\n" +
                    body + "}\n",
                "k",
                {array("at", "uint64", {1}, "out"), array("out", "float32", {1000}, "out"),
                 array("a", "float32", {1000}, "in", {{"constant", 1}}), scalar("n", "int32", "size(a)")},
                {{"grid", {8}}, {"block", {128}}});
        };
        const auto address = [](const launch::RunSetup& setup) {
            return static_cast<double>(reinterpret_cast<std::uintptr_t>(setup.find("a")->array.data()));
        };
        launch::RunOptions inPlace{3, 1, nullptr};
        inPlace.readInputsInPlace = true;

        const auto reads = setupWith("    if (i < n) out[i] = 2 * a[i];\n");
        auto result = runner_->run(reads, inPlace);
        QCOMPARE(result.output("at")->value(0), address(reads));
        QCOMPARE(result.output("out")->value(999), 2.0);
        QVERIFY(runner_->run(reads, {3, 1, nullptr}).output("at")->value(0) != address(reads));

        const auto writes = setupWith("    if (i < n) { a[i] += 1; out[i] = a[i]; }\n");
        result = runner_->run(writes, inPlace);
        QVERIFY(result.output("at")->value(0) != address(writes)); // the second run's, on copies
        QCOMPARE(result.kernelMs.size(), std::size_t{3});
        for (std::size_t i = 0; i < 1000; ++i)
            QCOMPARE(result.output("out")->value(i), 2.0); // not 5: every round began at 1
        QCOMPARE(writes.find("a")->array.value(7), 1.0);
    }

    // The build step `kernelpad-worker --precompile-built-ins DIR` fills DIR, whatever the build has
    // prepared already, and keeps what it made there when DIR is relative (it once removed its own
    // headers as "older" ones, comparing a relative path with an absolute one).
    void precompilesTheBuiltInsIntoTheFolderGiven() {
        QTemporaryDir dir;
        const auto here = std::filesystem::current_path();
        std::filesystem::current_path(dir.path().toStdString());
        std::filesystem::create_directories("prepared/prelude/an-older-one");
        std::string why;
        const bool made = cpu::CpuRunner::precompileBuiltIns("prepared", why);
        std::filesystem::current_path(here);
        if (!made && why.find("not GCC") != std::string::npos) QSKIP("the host compiler is not GCC");
        QVERIFY2(made, why.c_str());
        const std::filesystem::path prelude =
            std::filesystem::path(dir.path().toStdString()) / "prepared/prelude";
        std::vector<std::filesystem::path> headers;
        for (const auto& entry : std::filesystem::directory_iterator(prelude))
            headers.push_back(entry.path());
        QVERIFY2(headers.size() == 1 || headers.size() == 2, std::to_string(headers.size()).c_str());
        for (const auto& folder : headers) {
            QVERIFY(folder.filename() != "an-older-one");
            QVERIFY(std::filesystem::file_size(folder / "kernelpad_prelude.h.gch") > 1'000'000);
        }
    }

    void launchesOverTheLimitsAreRefused() {
        const auto setup = setupOf("__global__ void k(float* x) { x[threadIdx.x] = 1; }\n", "k",
                                   {array("x", "float32", {4}, "out")}, {{"grid", {1}}, {"block", {2048}}});
        QVERIFY_THROWS_EXCEPTION(launch::SetupError, runner_->run(setup));
    }

    // One definition of a synchronising call (source::isSynchronisingCall), read from tokens: comments and
    // strings that name one do not need fibers (they used to), macros that call one do.
    void needsFibersOnlyForCode_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<bool>("fibers");
        QTest::newRow("a barrier") << "__global__ void k(int* a) { __syncthreads(); }" << true;
        QTest::newRow("a counting barrier")
            << "__global__ void k(int* a) { a[0] = __syncthreads_count(1); }" << true;
        QTest::newRow("a shuffle") << "__global__ void k(int* a) { a[0] = __shfl_down_sync(~0u, a[0], 1); }"
                                   << true;
        QTest::newRow("a match") << "__global__ void k(unsigned* a) { a[0] = __match_any_sync(~0u, a[1]); }"
                                 << true;
        QTest::newRow("a warp reduction")
            << "__global__ void k(unsigned* a) { a[0] = __reduce_add_sync(~0u, a[1]); }" << true;
        QTest::newRow("the active mask, as the barrier split counts it")
            << "__global__ void k(unsigned* a) { a[0] = __activemask(); }" << true;
        QTest::newRow("a macro") << "#define SYNC __syncthreads()\n__global__ void k(int* a) { SYNC; }"
                                 << true;
        QTest::newRow("a comment") << "__global__ void k(int* a) { a[0] = 1; } // no __syncthreads() needed"
                                   << false;
        QTest::newRow("a block comment")
            << "/* __syncwarp() */ __global__ void k(int* a) { a[0] = 1; }" << false;
        QTest::newRow("a string") << "__global__ void k(const char** s) { s[0] = \"__shfl_sync\"; }" << false;
        QTest::newRow("a longer name")
            << "__global__ void k(int* my__syncthreads) { my__syncthreads[0] = 1; }" << false;
    }
    void needsFibersOnlyForCode() {
        QFETCH(QString, source);
        QFETCH(bool, fibers);
        QCOMPARE(cpu::CpuRunner::needsFibers(source.toStdString()), fibers);
    }

    // The bounds mode finds the parameters by their tokens: commas and parentheses in comments are none
    // (they made "cannot match the parameters to check bounds").
    void boundsModeReadsParametersAsTokens() {
        const auto setup = setupOf("__global__ void k(float* d /* out, scaled */,\n"
                                   "                  const float* a /* in ( */, int n = (1, 2)) {\n"
                                   "    d[threadIdx.x] = a[threadIdx.x] * n;\n}\n",
                                   "k",
                                   {array("d", "float32", {4}, "out"),
                                    array("a", "float32", {4}, "in", "ones"), scalar("n", "int32", 2)},
                                   {{"grid", {1}}, {"block", {4}}});
        const std::string text = cpu::CpuRunner::hostSource(setup, true);
        QVERIFY2(
            text.find(
                "::kernelpad::Checked<float> d, ::kernelpad::Checked<const float> a\n, int n = (1, 2))") !=
                std::string::npos,
            text.substr(text.rfind("__global__")).c_str());
    }
};

QTEST_APPLESS_MAIN(TestCpuRunner)
#include "tst_cpurunner.moc"
