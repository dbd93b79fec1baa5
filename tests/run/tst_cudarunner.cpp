// run::CudaRunner on the GPU machine: PyCUDA's loop (compile, copy in, launch, copy back) with correct
// values, every timing sample, repeats that do not compound, template kernels, launch limits from the
// real device, compile errors, cancellation, and device memory returned on every path.
#include "../TestSupport.h"
#include "../cuda/GpuTestSupport.h"
#include "core/cuda/Device.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/run/CudaRunner.h"
#include "core/run/Reference.h"
#include "core/run/RunReport.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <optional>

using namespace kp;

namespace {
std::filesystem::path data() {
    return std::filesystem::path(KP_SOURCE_DIR) / "tests/run/data";
}
} // namespace

class TestCudaRunner : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    std::optional<cuda::CompileCache> compileCache_;
    std::optional<run::CudaRunner> runner_;

    launch::RunSetup setupOf(const std::string& file) {
        return launch::prepare(io::readPlayground(data() / file), runner_->allocator());
    }
    std::size_t freeDeviceMemory() { return cuda::Device::get(0).memoryInfo().first; }

private slots:
    void initTestCase() {
        KP_REQUIRE_GPU();
        compileCache_.emplace(cache_.path().toStdString());
        runner_.emplace(0, &*compileCache_);
    }
    void cleanupTestCase() { runner_.reset(); }

    // A kernel that syncs its whole grid (cooperative groups' grid group) runs with a cooperative launch:
    // every block writes its partial sum, the grid syncs, and block 0 adds the partials up. A grid larger
    // than the GPU holds at once is refused before it runs, saying how many blocks fit.
    void gridSyncRunsWithACooperativeLaunch() {
        const std::string code = "#include <cooperative_groups.h>\n"
                                 "namespace cg = cooperative_groups;\n"
                                 "__global__ void total(const int* in, int* partial, int* sum) {\n"
                                 "    cg::grid_group grid = cg::this_grid();\n"
                                 "    __shared__ int s;\n"
                                 "    if (threadIdx.x == 0) s = 0;\n"
                                 "    __syncthreads();\n"
                                 "    atomicAdd(&s, in[grid.thread_rank()]);\n"
                                 "    __syncthreads();\n"
                                 "    if (threadIdx.x == 0) partial[blockIdx.x] = s;\n"
                                 "    grid.sync();\n"
                                 "    if (grid.thread_rank() == 0) {\n"
                                 "        int t = 0;\n"
                                 "        for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];\n"
                                 "        sum[0] = t;\n"
                                 "    }\n"
                                 "}\n";
        const auto setupFor = [&](unsigned blocks) {
            return test::setupOf(
                code, "total",
                {{{"name", "in"},
                  {"array", {{"dtype", "int32"}, {"shape", {blocks * 128}}}},
                  {"init", {{"range", {{"start", 1}, {"step", 1}}}}}},
                 {{"name", "partial"},
                  {"array", {{"dtype", "int32"}, {"shape", {blocks}}}},
                  {"direction", "out"}},
                 {{"name", "sum"}, {"array", {{"dtype", "int32"}, {"shape", {1}}}}, {"direction", "out"}}},
                {{"grid", {blocks}}, {"block", {128}}}, cache_.filePath("grid.kpad.json").toStdString());
        };
        const unsigned blocks = 64;
        const auto result = runner_->run(setupFor(blocks));
        const double n = blocks * 128.0;
        QCOMPARE(result.output("sum")->value(0), n * (n + 1) / 2);

        const unsigned tooMany = 20000; // an H100 holds about 2,000 such blocks at once
        const std::string problem = test::inputErrorOf([&] { (void)runner_->run(setupFor(tooMany)); });
        QVERIFY2(problem.find("synchronises its whole grid") != std::string::npos, problem.c_str());
        QVERIFY2(problem.find(":4)") != std::string::npos, problem.c_str()); // the line of this_grid()
        QVERIFY2(problem.find("use at most") != std::string::npos, problem.c_str());
    }

    void multipliesAndMatchesTheReference() {
        const auto setup = setupOf("multiply.kpad.json");
        const auto result = runner_->run(setup, {3, 1, nullptr});
        QVERIFY2(result.backend.starts_with("cuda:0 "), result.backend.c_str());
        QCOMPARE(result.kernelMs.size(), std::size_t{3});
        QCOMPARE(result.h2dMs.size(), std::size_t{3});
        QCOMPARE(result.d2hMs.size(), std::size_t{3});
        for (double ms : result.kernelMs)
            QVERIFY(ms > 0 && ms < 1000);
        QCOMPARE(result.h2dByArgument.size(), std::size_t{2}); // a and b
        QCOMPARE(result.h2dByArgument[0].bytes, std::size_t{4000});
        QCOMPARE(result.d2hByArgument.size(), std::size_t{1});
        const auto* dest = result.output("dest");
        QVERIFY(dest);
        const auto& a = setup.find("a")->array;
        const auto& b = setup.find("b")->array;
        for (std::size_t i = 0; i < 1000; ++i)
            QCOMPARE(dest->value(i),
                     static_cast<double>(static_cast<float>(a.value(i)) * static_cast<float>(b.value(i))));

        const auto reference =
            run::runReference(setup, cpu::HostCompiler(std::string(), cache_.path().toStdString()));
        const auto checks = run::checkAgainst(setup, result, reference);
        QVERIFY2(checks[0].passed, run::describe(checks[0]).c_str());
        // The second run of the same source comes from the compile cache.
        QVERIFY(runner_->run(setup).compileFromCache);
    }

    void repeatsOfAnInOutKernelDoNotCompound() {
        const auto setup = setupOf("scale_template.kpad.json"); // x *= 2, in place, through scale<float>
        const auto result = runner_->run(setup, {5, 2, nullptr});
        QCOMPARE(result.kernelMs.size(), std::size_t{5});
        const auto* x = result.output("x");
        QVERIFY(x);
        for (std::size_t i = 0; i < 300; ++i)
            QCOMPARE(x->value(i), 2.0 * static_cast<double>(i + 1));
        QCOMPARE(setup.find("x")->array.value(7), 8.0); // the input stays as generated
    }

    void launchLimitsComeFromTheDevice() {
        auto setup = setupOf("multiply.kpad.json");
        setup.launch.block = {2048, 1, 1};
        try {
            (void)runner_->run(setup);
            QFAIL("a block of 2048 threads was launched");
        } catch (const launch::SetupError& e) {
            const std::string text = e.what();
            QVERIFY2(text.find("launch.block: x = 2048") != std::string::npos, e.what());
            QVERIFY2(text.find(runner_->properties().name) != std::string::npos, e.what());
        }
        setup.launch.block = {256, 1, 1};
        setup.launch.sharedBytes =
            static_cast<std::uint32_t>(runner_->properties().sharedPerBlockOptin) + 1024;
        QVERIFY_THROWS_EXCEPTION(launch::SetupError, runner_->run(setup));
        // Past 48 KiB but within the opt-in limit is allowed: the runner raises the kernel's limit.
        setup.launch.sharedBytes = 64 * 1024;
        QCOMPARE(runner_->run(setup).kernelMs.size(), std::size_t{1});
    }

    void compileErrorsCarryTheirDiagnostics() {
        const auto setup = setupOf("broken_kernel.kpad.json");
        try {
            (void)runner_->run(setup);
            QFAIL("a broken kernel ran");
        } catch (const launch::CompileError& e) {
            QCOMPARE(e.diagnostics().size(), std::size_t{1});
            QCOMPARE(e.diagnostics()[0].line, 3);
            QVERIFY2(e.diagnostics()[0].message.find("\"bb\" is undefined") != std::string::npos, e.what());
        }
    }

    void aCancelledRunStopsBetweenLaunches() {
        const auto setup = setupOf("multiply.kpad.json");
        const std::atomic<bool> cancel{true};
        const auto result = runner_->run(setup, {10, 0, &cancel});
        QVERIFY(result.cancelled);
        QVERIFY(result.kernelMs.empty());
    }

    void deviceMemoryIsReturnedOnEveryPath() {
        auto setup = setupOf("multiply.kpad.json");
        (void)runner_->run(setup); // warm: module and context allocations settle
        const std::size_t before = freeDeviceMemory();
        for (int i = 0; i < 20; ++i)
            (void)runner_->run(setup);
        setup.launch.block = {4096, 1, 1};
        for (int i = 0; i < 20; ++i)
            QVERIFY_THROWS_EXCEPTION(launch::SetupError, runner_->run(setup));
        const std::size_t after = freeDeviceMemory();
        QVERIFY2(after + (2u << 20) >= before,
                 (std::to_string(before) + " -> " + std::to_string(after)).c_str());
    }
};

QTEST_APPLESS_MAIN(TestCudaRunner)
#include "tst_cudarunner.moc"
