// The samples (samples/index.json and one folder each): every sample the issue names is there and
// complete (kernel, playground, CPU reference, a lesson with its three parts), runs and passes its check
// on the CPU backend with bounds checking in CI, and on CUDA on the GPU machine; `kernelpad-cli samples`
// lists them and `run NAME` runs one by its name.
#include "../TestSupport.h"
#include "../cuda/GpuTestSupport.h"
#include "core/io/FileBytes.h"
#include "core/io/PlaygroundFile.h"
#include "core/io/SampleCatalog.h"
#include "core/sandbox/Subprocess.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace kp;
namespace fs = std::filesystem;

namespace {

const fs::path kSamples = fs::path(KP_SOURCE_DIR) / "samples";

io::SampleCatalog catalog() {
    return io::readSampleCatalog(kSamples);
}

sandbox::SubprocessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), std::string(KP_BINARY_DIR) + "/app/kernelpad-cli");
    return sandbox::runProcess(args);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestSamples : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;

    static void addRows() {
        QTest::addColumn<QString>("name");
        for (const auto& sample : catalog().samples)
            QTest::newRow(sample.name.c_str()) << QString::fromStdString(sample.name);
    }
    static io::Sample sample(const QString& name) {
        const auto all = catalog();
        const auto* found = all.find(name.toStdString());
        return found ? *found : io::Sample{};
    }

private slots:
    void initTestCase() {
        qputenv("KERNELPAD_CACHE_DIR", cache_.path().toUtf8());
        qunsetenv("KERNELPAD_SAMPLES_DIR");
    }

    // Issue 7's list: PyCUDA's tutorial programs, then the classic teaching kernels, in the index's groups.
    void theIndexListsEverySampleInItsGroup() {
        const auto all = catalog();
        QVERIFY2(all.problems.empty(), all.problems.empty() ? "" : all.problems.front().c_str());
        const std::vector<std::string> tutorial = {
            "multiply_them",         "doublify",        "doublify_guarded",
            "doublify_in_out",       "doublify_shared", "elementwise_multiply",
            "sum_and_difference",    "strided_input",   "sum_squares_atomic",
            "sum_squares_reduction", "matmul_naive",    "matmul_tiled"};
        const std::vector<std::string> classic = {"vector_add",
                                                  "saxpy",
                                                  "grid_stride_saxpy", // issue 25: NVIDIA's idiom
                                                  "half_precision_axpy",
                                                  "reduction",
                                                  "warp_shuffle_reduction",
                                                  "warp_aggregated_histogram",
                                                  "cooperative_groups_reduction",
                                                  "prefix_sum",
                                                  "stream_compaction",
                                                  "histogram_global",
                                                  "histogram_shared",
                                                  "transpose_naive",
                                                  "transpose_tiled",
                                                  "blur",
                                                  "mandelbrot"};
        // Issue 24's: what a notebook's host code did around its launches.
        const std::vector<std::string> programs = {"sum_squares_multipass", "large_scan", "heat_diffusion",
                                                   "separable_convolution", "bitonic_sort"};
        QCOMPARE(all.samples.size(), tutorial.size() + classic.size() + programs.size());
        std::vector<std::pair<std::string, std::string>> expected;
        expected.reserve(all.samples.size());
        for (const auto& name : tutorial)
            expected.emplace_back(name, "From the PyCUDA tutorial");
        for (const auto& name : classic)
            expected.emplace_back(name, "Classic teaching kernels");
        for (const auto& name : programs)
            expected.emplace_back(name, "Programs of several launches");
        for (std::size_t i = 0; i < all.samples.size(); ++i) {
            QCOMPARE(all.samples[i].name, expected[i].first);
            QCOMPARE(all.samples[i].group, expected[i].second);
        }
    }

    void everySampleIsComplete_data() { addRows(); }
    void everySampleIsComplete() {
        QFETCH(QString, name);
        const auto s = sample(name);
        QVERIFY2(s.problem.empty(), s.problem.c_str());
        const auto playground = io::readPlayground(s.playground);
        QVERIFY(!playground.title.empty());
        QVERIFY2(playground.source && fs::is_regular_file(playground.folder / *playground.source),
                 "no kernel source file");
        QVERIFY2(playground.reference.has_value(), "no CPU reference");
        QVERIFY(fs::is_regular_file(playground.folder / playground.reference->source));
        QVERIFY2(playground.check && !playground.check->outputs.empty(), "checks no output");
        // The lesson: its title, a first paragraph, then what it shows, what to try and what to look at.
        const std::string lesson = test::readText(s.lesson);
        QVERIFY2(lesson.starts_with("# " + playground.title + "\n"),
                 "the lesson's title is not the playground's");
        QVERIFY(!s.summary.empty());
        std::size_t at = 0;
        for (const char* heading :
             {"\n## What it shows\n", "\n## What to try\n", "\n## What to look at in the timings\n"}) {
            const auto found = lesson.find(heading, at);
            QVERIFY2(found != std::string::npos,
                     (std::string("missing or out of order: ") + heading).c_str());
            at = found + 1;
        }
    }

    void runsOnTheCpuBackendWithBoundsChecking_data() { addRows(); }
    void runsOnTheCpuBackendWithBoundsChecking() {
        QFETCH(QString, name);
        const auto r = cli({"run", sample(name).playground.string(), "--backend", "cpu", "--check-bounds"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        QVERIFY2(contains(r.output, "matches the reference"), r.output.c_str());
    }

    void runsOnCudaAndMatchesTheReference_data() { addRows(); }
    void runsOnCudaAndMatchesTheReference() {
        KP_REQUIRE_GPU();
        QFETCH(QString, name);
        const auto r = cli({"run", sample(name).playground.string(), "--backend", "cuda"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        QVERIFY2(contains(r.output, "matches the reference"), r.output.c_str());
    }

    void theCliListsTheSamplesByGroup() {
        const auto r = cli({"samples"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        const auto all = catalog();
        std::size_t at = 0;
        for (const auto& s : all.samples) {
            const auto found = r.output.find("  " + s.name + " ", at);
            QVERIFY2(found != std::string::npos,
                     ("not listed in order: " + s.name + "\n" + r.output).c_str());
            QVERIFY2(contains(r.output.substr(found, 200), s.title), s.title.c_str());
            at = found;
        }
        QVERIFY(contains(r.output, "From the PyCUDA tutorial\n"));
        QVERIFY(contains(r.output, "Classic teaching kernels\n"));
    }

    void theCliListsTheSamplesAsJson() {
        const auto r = cli({"samples", "--json"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        const auto list = nlohmann::json::parse(r.output);
        const auto all = catalog();
        QCOMPARE(list.size(), all.samples.size());
        QCOMPARE(list[0]["name"].get<std::string>(), all.samples[0].name);
        QCOMPARE(list[0]["playground"].get<std::string>(), all.samples[0].playground.string());
        QCOMPARE(list[0]["group"].get<std::string>(), all.samples[0].group);
        QVERIFY(!list[0]["summary"].get<std::string>().empty());
    }

    void theCliShowsOneLesson() {
        const auto r = cli({"samples", "sum_squares_reduction"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        const auto s = sample(QStringLiteral("sum_squares_reduction"));
        QVERIFY2(r.output.starts_with(test::readText(s.lesson)), r.output.c_str());
        QVERIFY2(contains(r.output, "Playground: " + s.playground.string()), r.output.c_str());
        QVERIFY2(contains(r.output, "kernelpad-cli run sum_squares_reduction"), r.output.c_str());
    }

    void theCliRunsASampleByName() {
        const auto r = cli({"run", "doublify", "--backend", "cpu", "--json"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        QVERIFY2(nlohmann::json::parse(r.output)["check"]["passed"].get<bool>(), r.output.c_str());
    }

    void anUnknownSampleNamesTheOnesThereAre() {
        for (const auto& args : {std::vector<std::string>{"samples", "dublify"},
                                 std::vector<std::string>{"run", "dublify", "--backend", "cpu"}}) {
            const auto r = cli(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(contains(r.output, "no sample named \"dublify\""), r.output.c_str());
            QVERIFY2(contains(r.output, "doublify, doublify_guarded"), r.output.c_str());
        }
        // A path is a path, even when it does not exist: the message is about the file.
        const auto r = cli({"run", "missing/doublify.kpad.json", "--backend", "cpu"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(contains(r.output, "missing/doublify.kpad.json"), r.output.c_str());
        QVERIFY2(!contains(r.output, "no sample named"), r.output.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSamples)
#include "tst_samples.moc"
