// Programs of several launches, written the way NVIDIA's CUDA samples write these algorithms (their host
// loops become steps), run on the CPU backend and, where there is a GPU, on CUDA, and compared with what
// the test computes itself: a templated multi-pass reduction, a warp-shuffle scan with a second scan of
// the partial sums and an add into an offset pointer, a histogram then a merge, a single-pass reduction
// with __threadfence and a __device__ counter, a Jacobi stencil of swapped buffers, and a separable filter
// with __constant__ taps. Also: each step's time, a fault that names its step, and buffers that stay on the
// device (the outputs are right only if they did).
#include "../TestSupport.h"
#include "../cuda/GpuTestSupport.h"
#include "core/cpu/CpuRunner.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/KernelFault.h"
#include "core/run/CudaRunner.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>

using namespace kp;
using nlohmann::json;

namespace {

// The kernels, each in NVIDIA's style, are test data: tests/run/data/programs/NAME.cu.
std::string kernels(const char* name) {
    return test::readText(std::filesystem::path(KP_SOURCE_DIR) / "tests/run/data/programs" / name);
}

json array(const std::string& name, const std::string& dtype, const json& shape, const std::string& direction,
           const json& init = nullptr) {
    json a = {{"name", name}, {"array", {{"dtype", dtype}, {"shape", shape}}}, {"direction", direction}};
    if (!init.is_null()) a["init"] = init;
    return a;
}

json scalar(const std::string& name, const std::string& dtype, const json& value) {
    return {{"name", name}, {"scalar", {{"dtype", dtype}}}, {"value", value}};
}

json launchStep(const std::string& kernel, const json& grid, const json& block, const json& args,
                const json& extra = json::object()) {
    json l = {{"kernel", kernel}, {"grid", grid}, {"block", block}, {"args", args}};
    l.update(extra);
    return {{"launch", l}};
}

json randomUniform(double low, double high, int seed) {
    return {{"random", "uniform"}, {"low", low}, {"high", high}, {"seed", seed}};
}

template <typename T> std::vector<T> valuesOf(const model::Array& array) {
    const auto span = array.as<T>();
    return {span.begin(), span.end()};
}

} // namespace

class TestProgram : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::optional<cuda::CompileCache> cache_;
    std::unique_ptr<run::CudaRunner> cuda_;
    std::optional<cpu::CpuRunner> cpu_;

    // The runner of the row's backend; skips the row where it has no GPU.
    const launch::Runner* runner() {
        QFETCH_GLOBAL(QString, backend);
        if (backend == QLatin1String("cpu")) return &*cpu_;
        if (const char* why = test::gpuSkipReason()) {
            QTest::qSkip(why, __FILE__, __LINE__);
            return nullptr;
        }
        if (!cuda_) cuda_ = std::make_unique<run::CudaRunner>(0, &*cache_);
        return cuda_.get();
    }

    struct Ran {
        launch::RunSetup setup;
        launch::RunResult result;
    };
    Ran run(const json& file, const launch::Runner& runner, int repeat = 1) {
        const auto playground =
            io::parsePlayground(file.dump(), dir_.filePath(QStringLiteral("p.kpad.json")).toStdString());
        Ran ran{launch::prepare(playground, runner.allocator()), {}};
        ran.result = runner.run(ran.setup, {repeat, 0});
        return ran;
    }

    // The input `name` as prepare() made it.
    template <typename T> static std::vector<T> input(const Ran& ran, const std::string& name) {
        return valuesOf<T>(ran.setup.find(name)->array);
    }

private slots:
    void initTestCase_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cpu") << QStringLiteral("cpu");
        QTest::newRow("cuda") << QStringLiteral("cuda");
    }
    void initTestCase() {
        QVERIFY(dir_.isValid());
        cache_.emplace(dir_.filePath(QStringLiteral("cache")).toStdString());
        cpu_.emplace(
            cpu::HostCompiler(std::string(), dir_.filePath(QStringLiteral("cpu-cache")).toStdString()), 2);
    }
    void cleanupTestCase() { cuda_.reset(); }

    // NVIDIA's reduction host loop: a first pass of 128 blocks over 1,000,003 floats, then passes of 32
    // threads over the partial sums until one is left. nIsPow2 says every thread's second read is inside
    // the array: the count is a multiple of two blocks.
    void templatedMultipassReduction() {
        const auto* backend = runner();
        if (!backend) return;
        const json file = {
            {"format", "kernelpad/1"},
            {"code", kernels("reduce6.cu")},
            {"args",
             {array("in", "float32", {1000003}, "in", randomUniform(0, 1, 7)),
              array("sum", "float32", {1}, "out")}},
            {"variables", {{"threads", 256}}},
            {"buffers",
             {{{"name", "partial"}, {"array", {{"dtype", "float32"}, {"shape", {128}}}}},
              {{"name", "spare"}, {"array", {{"dtype", "float32"}, {"shape", {128}}}}}}},
            {"steps",
             {launchStep("reduce6", {128}, {"threads"}, {"in", "partial", "size(in)"},
                         {{"template", {"float", "threads", "size(in) % (2 * threads) == 0"}},
                          {"shared_bytes", "threads * 4"}}),
              {{"set", {{"m", 128}}}},
              {{"repeat", {{"while", "m > 1"}}},
               {"steps",
                {launchStep("reduce6", {"divup(m, 2 * 32)"}, {32}, {"partial", "spare", "m"},
                            {{"template", {"float", 32, "m % 64 == 0"}}, {"shared_bytes", 128}}),
                 {{"swap", {"partial", "spare"}}},
                 {{"set", {{"m", "divup(m, 2 * 32)"}}}}}}},
              {{"copy", {{"from", "partial"}, {"to", "sum"}, {"count", 1}}}}}}};
        const auto ran = run(file, *backend);
        QCOMPARE(ran.setup.program.launchCount(), std::uint64_t{3}); // 128 -> 2 -> 1
        QCOMPARE(ran.setup.program.kernels.size(),
                 std::size_t{3}); // <float, 256, false>, <.., 32, true>, <.., 32, false>
        const auto in = input<float>(ran, "in");
        const double expected = std::accumulate(in.begin(), in.end(), 0.0);
        const float sum = ran.result.output("sum")->as<float>()[0];
        QVERIFY2(std::abs(sum - expected) <= 1e-5 * expected,
                 qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(expected)));
    }

    // shfl_scan's host code: scan the blocks, scan their totals in one block, then uniform_add on
    // d_data + blockSize with one block fewer.
    void warpShuffleScanOfScans() {
        const auto* backend = runner();
        if (!backend) return;
        const int n = 65536, block = 256;
        const json file = {
            {"format", "kernelpad/1"},
            {"code", kernels("shfl_scan.cu")},
            {"args",
             {array("data", "int32", {n}, "inout", randomUniform(0, 10, 3)),
              scalar("n", "int32", "size(data)")}},
            {"variables", {{"block", block}}},
            // The second scan's one block writes its total too: into a buffer of its own, not over the sums.
            {"buffers",
             {{{"name", "partial_sums"}, {"array", {{"dtype", "int32"}, {"shape", {"n / block"}}}}},
              {{"name", "total"}, {"array", {{"dtype", "int32"}, {"shape", {1}}}}}}},
            {"steps",
             {launchStep("shfl_scan_test", {"n / block"}, {"block"}, {"data", 32, "partial_sums"},
                         {{"shared_bytes", "block / 32 * 4"}}),
              launchStep("shfl_scan_test", {1}, {"n / block"}, {"partial_sums", 32, "total"},
                         {{"shared_bytes", "n / block / 32 * 4"}}),
              launchStep("uniform_add", {"n / block - 1"}, {"block"},
                         {"data + block", "partial_sums", "n"})}}};
        const auto ran = run(file, *backend);
        auto expected = input<int>(ran, "data");
        std::partial_sum(expected.begin(), expected.end(), expected.begin());
        QCOMPARE(valuesOf<int>(*ran.result.output("data")), expected);
    }

    // A histogram in two launches: per-block partial histograms into a scratch buffer, then a merge.
    void histogramThenMerge() {
        const auto* backend = runner();
        if (!backend) return;
        const json file = {
            {"format", "kernelpad/1"},
            {"code", kernels("histogram256.cu")},
            {"args",
             {array("data", "uint32", {100000}, "in", randomUniform(0, 256, 11)),
              array("histogram", "uint32", {256}, "out")}},
            {"variables", {{"blocks", 40}}},
            {"buffers",
             {{{"name", "partial"}, {"array", {{"dtype", "uint32"}, {"shape", {"blocks", 256}}}}}}},
            {"steps",
             {launchStep("partial_histograms", {"blocks"}, {192}, {"data", "partial", "size(data)"}),
              launchStep("merge_histograms", {256}, {256}, {"histogram", "partial", "blocks"})}}};
        const auto ran = run(file, *backend);
        std::vector<unsigned> expected(256, 0);
        for (const unsigned v : input<unsigned>(ran, "data"))
            ++expected[v & 255];
        QCOMPARE(valuesOf<unsigned>(*ran.result.output("histogram")), expected);
    }

    // The last block to retire adds the partial sums; its reset of the __device__ counter is what lets the
    // next repeat work, and a symbol step sets it first, as cudaMemcpyToSymbol would.
    void threadFenceReductionWithADeviceCounter() {
        const auto* backend = runner();
        if (!backend) return;
        const json file = {
            {"format", "kernelpad/1"},
            {"code", kernels("thread_fence_reduction.cu")},
            {"args",
             {array("in", "int32", {200000}, "in", randomUniform(-50, 50, 5)),
              array("total", "int32", {1}, "out")}},
            {"buffers", {{{"name", "partials"}, {"array", {{"dtype", "int32"}, {"shape", {96}}}}}}},
            {"steps",
             {{{"symbol", {{"name", "retirementCount"}, {"values", {0}}}}},
              launchStep("reduceSinglePass", {96}, {128}, {"in", "total", "partials", "size(in)"})}}};
        const auto ran = run(file, *backend, 3);
        const auto in = input<int>(ran, "in");
        QCOMPARE(ran.result.output("total")->as<int>()[0], std::accumulate(in.begin(), in.end(), 0));
        QCOMPARE(ran.result.kernelMs.size(), std::size_t{3});
    }

    // A kernel that syncs its grid beside a block reduction: on the CPU backend the first runs every block at
    // once on threads of its own, the second on the workers. Integer values keep the sums exact in any order.
    void gridSyncBesideABlockReduction() {
        const auto* backend = runner();
        if (!backend) return;
        const int n = 4000, blocks = 16;
        const json file = {
            {"format", "kernelpad/1"},
            {"code", kernels("grid_normalize.cu")},
            {"args",
             {array("data", "float32", {n}, "inout", {{"formula", "1 + i % 4"}}),
              array("total", "float32", {1}, "out")}},
            {"buffers", {{{"name", "sums"}, {"array", {{"dtype", "float32"}, {"shape", {blocks}}}}}}},
            {"steps",
             {launchStep("blockSums", {blocks}, {256}, {"data", "sums", "size(data)"}),
              launchStep("normalize", {blocks}, {256}, {"data", "sums", blocks, "total", "size(data)"})}}};
        const auto ran = run(file, *backend, 2);
        const auto data = input<float>(ran, "data");
        const float total = std::accumulate(data.begin(), data.end(), 0.0f);
        QCOMPARE(ran.result.output("total")->as<float>()[0], total);
        const auto out = valuesOf<float>(*ran.result.output("data"));
        for (std::size_t i = 0; i < out.size(); i += 997)
            QCOMPARE(out[i], data[i] / total);
    }

    // 101 Jacobi sweeps between two grids: the output is read back from wherever its name ended.
    void jacobiSweepsSwapTwoGrids() {
        const auto* backend = runner();
        if (!backend) return;
        const int nx = 48, ny = 40, sweeps = 101;
        const json file = {
            {"format", "kernelpad/1"},
            {"code", kernels("jacobi.cu")},
            {"args",
             {array("u", "float32", {ny, nx}, "inout", {{"formula", "i == 0 ? 100 : (j == 0 ? 50 : 0)"}})}},
            {"variables", {{"sweeps", sweeps}}},
            {"buffers", {{{"name", "next"}, {"array", {{"dtype", "float32"}, {"shape", {ny, nx}}}}}}},
            {"steps",
             {{{"repeat", {{"times", "sweeps"}}},
               {"steps",
                {launchStep("jacobi", {"divup(cols(u), 16)", "divup(rows(u), 16)"}, {16, 16},
                            {"u", "next", "cols(u)", "rows(u)"}),
                 {{"swap", {"u", "next"}}}}}}}}};
        const auto ran = run(file, *backend);
        QVERIFY(ran.setup.program.argumentsMoved());
        std::vector<float> u = input<float>(ran, "u"), next(u.size());
        const auto row = static_cast<std::size_t>(nx);
        for (int s = 0; s < sweeps; ++s) {
            for (int y = 0; y < ny; ++y)
                for (int x = 0; x < nx; ++x) {
                    const auto i = static_cast<std::size_t>(y) * row + static_cast<std::size_t>(x);
                    next[i] = (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
                                  ? u[i]
                                  : (u[i - 1] + u[i + 1] + u[i - row] + u[i + row]) * 0.25f;
                }
            std::swap(u, next);
        }
        QCOMPARE(valuesOf<float>(*ran.result.output("u")), u); // sums of four, then * 0.25: exact everywhere
        QCOMPARE(ran.result.steps.size(), std::size_t{3});
        QCOMPARE(ran.result.steps[1].calls, std::uint64_t{sweeps});
        QCOMPARE(ran.result.steps[0].ms.size(), std::size_t{1});
        QVERIFY(ran.result.steps[0].ms[0] >= ran.result.steps[1].ms[0]); // the loop holds its launches
    }

    // The separable filter: taps written into __constant__ memory, rows into a scratch image, then columns.
    void separableFilterWithConstantTaps() {
        const auto* backend = runner();
        if (!backend) return;
        const int w = 70, h = 50;
        const std::vector<double> taps{0.02, 0.05, 0.1, 0.15, 0.36, 0.15, 0.1, 0.05, 0.02};
        const json file = {
            {"format", "kernelpad/1"},
            {"code", kernels("convolution_separable.cu")},
            {"args",
             {array("src", "float32", {h, w}, "in", randomUniform(0, 1, 9)),
              array("dst", "float32", {h, w}, "out")}},
            {"buffers",
             {{{"name", "rows"}, {"array", {{"dtype", "float32"}, {"shape", {"rows(src)", "cols(src)"}}}}}}},
            {"steps",
             {{{"symbol", {{"name", "c_Kernel"}, {"values", taps}}}},
              launchStep("convolutionRows", "auto", {16, 16}, {"rows", "src", "cols(src)", "rows(src)"}),
              launchStep("convolutionColumns", "auto", {16, 16},
                         {"dst", "rows", "cols(src)", "rows(src)"})}}};
        const auto ran = run(file, *backend);
        const auto src = input<float>(ran, "src");
        std::vector<double> rows(src.size()), expected(src.size());
        const auto at = [&](int x, int y) {
            return static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
        };
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int k = -4; k <= 4; ++k)
                    rows[at(x, y)] += src[at(std::clamp(x + k, 0, w - 1), y)] *
                                      static_cast<float>(taps[std::size_t(4 - k)]);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int k = -4; k <= 4; ++k)
                    expected[at(x, y)] += static_cast<float>(rows[at(x, std::clamp(y + k, 0, h - 1))]) *
                                          static_cast<float>(taps[std::size_t(4 - k)]);
        const auto dst = valuesOf<float>(*ran.result.output("dst"));
        for (std::size_t i = 0; i < dst.size(); ++i)
            QVERIFY2(std::abs(dst[i] - expected[i]) <= 1e-5 * std::abs(expected[i]) + 1e-6,
                     qPrintable(QStringLiteral("dst[%1]: %2 vs %3").arg(i).arg(dst[i]).arg(expected[i])));
    }

    // A write into a __constant__ array larger than the array is refused before anything runs, with its
    // step, on both backends (each reads the symbol's size from what it compiled).
    void aSymbolWriteThatDoesNotFitIsRefused() {
        const auto* backend = runner();
        if (!backend) return;
        const json file = {{"format", "kernelpad/1"},
                           {"code",
                            "__constant__ float taps[4];\n"
                            "__global__ void scale(float* x) { x[threadIdx.x] *= taps[threadIdx.x % 4]; }\n"},
                           {"args", {array("x", "float32", {8}, "inout", "ones")}},
                           {"steps",
                            {{{"symbol", {{"name", "taps"}, {"values", {1, 2, 3, 4, 5, 6, 7, 8}}}}},
                             launchStep("scale", {1}, {8}, {"x"})}}};
        try {
            (void)run(file, *backend);
            QFAIL("8 floats were written into a symbol of 4");
        } catch (const launch::SetupError& e) {
            QVERIFY2(std::string(e.what()).find(
                         "steps[0].symbol: 32 bytes do not fit taps, which holds 16") != std::string::npos,
                     e.what());
        }
    }

    // A step's kernel that writes past its buffer is named with its step and pass (bounds checking on the
    // CPU backend).
    void aFaultNamesItsStep() {
        QFETCH_GLOBAL(QString, backend);
        if (backend != QLatin1String("cpu")) QSKIP("bounds checking is the CPU backend's");
        const cpu::CpuRunner checked(
            cpu::HostCompiler(std::string(), dir_.filePath(QStringLiteral("cpu-cache")).toStdString()), 2,
            true);
        const json file = {
            {"format", "kernelpad/1"},
            {"code", "__global__ void poke(int* a, int at) { if (threadIdx.x == 0) a[at] = 1; }\n"},
            {"args", {array("a", "int32", {8}, "inout")}},
            {"steps",
             {{{"repeat", {{"times", 3}, {"counter", "p"}}},
               {"steps", {launchStep("poke", {1}, {32}, {"a", "p * 4"})}}}}}};
        try {
            (void)run(file, checked);
            QFAIL("the out-of-bounds write was not reported");
        } catch (const launch::KernelFault& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(QStringLiteral("steps[0].steps[0]")) &&
                         message.contains(QStringLiteral("pass 3")) &&
                         message.contains(QStringLiteral("a[8] is outside a")),
                     qPrintable(message));
        }
    }

    // Without bounds checking, a step whose kernel crashes its process: the message still names the step,
    // which the child noted where this process reads it after the crash.
    void aCrashNamesItsStep() {
        QFETCH_GLOBAL(QString, backend);
        if (backend != QLatin1String("cpu")) QSKIP("a crash of the CPU backend's child process");
        const json file = {
            {"format", "kernelpad/1"},
            {"code", "__global__ void fill(int* a) { a[threadIdx.x] = 1; }\n"
                     "__global__ void poke(int* a, int at) { if (threadIdx.x == 0) a[at] = 1; }\n"},
            {"args", {array("a", "int32", {8}, "inout")}},
            {"steps", {launchStep("fill", {1}, {8}, {"a"}), launchStep("poke", {1}, {32}, {"a", 1 << 30})}}};
        try {
            (void)run(file, *cpu_);
            QFAIL("the crash was not reported");
        } catch (const launch::KernelFault& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.startsWith(
                         QStringLiteral("the program, at steps[1] (poke<<<1, 32>>>(a, 1073741824)), "
                                        "crashed with SIGSEGV")),
                     qPrintable(message));
        }
    }
};

QTEST_GUILESS_MAIN(TestProgram)
#include "tst_program.moc"
