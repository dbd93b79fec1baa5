// Sweeps (core/run/Sweep*.h): the values a spec gives, backend ids, what a problem-size or block-size
// plan resizes and says, the spec and results as JSON and CSV, the crossover, and real sweeps of the
// multiply_them sample on the CPU backends here and on CUDA on the GPU machine.
#include "../TestSupport.h"
#include "../cuda/GpuTestSupport.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/run/SweepRunner.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <fstream>

using namespace kp;
using json = nlohmann::json;

namespace {

const std::filesystem::path kMultiply =
    std::filesystem::path(KP_SOURCE_DIR) / "samples/multiply_them/multiply_them.kpad.json";

model::Playground
playgroundOf(const json& args, const json& launch = {{"grid", "auto"}, {"block", {256, 1, 1}}},
             const std::string& code = "extern \"C\" __global__ void k(float* y, const float* x, int n) {}") {
    json p = {{"format", "kernelpad/1"}, {"code", code}, {"kernel", "k"}, {"launch", launch}, {"args", args}};
    return io::parsePlayground(p.dump(), "/tmp/sweep.kpad.json");
}

json array(const std::string& name, const std::vector<std::size_t>& shape,
           const std::string& direction = "in") {
    return {{"name", name}, {"array", {{"dtype", "float32"}, {"shape", shape}}}, {"direction", direction}};
}

json scalar(const std::string& name, const json& value) {
    return {{"name", name}, {"scalar", {{"dtype", "int32"}}}, {"value", value}};
}

model::Shape shapeOf(const model::Playground& p, const std::string& name) {
    return p.find(name)->array().shape;
}

// A result built by hand: one GPU and one CPU backend, the GPU's kernel flat at `gpuMs`, its copies
// growing with n, the CPU linear in n.
run::SweepResult handMade(const std::vector<std::int64_t>& sizes, double gpuMs, double copyMsPerElement,
                          double cpuMsPerElement) {
    run::SweepResult r;
    r.array = "y";
    r.backends = {{"cuda:0", "cuda:0 Test GPU", {1000, 10000}},
                  {"reference", "C++ reference (one thread)", {}}};
    for (const auto n : sizes) {
        run::SweepRow g;
        g.value = n;
        g.elements = static_cast<std::uint64_t>(n);
        g.backend = "cuda:0";
        g.kernelMs = {gpuMs, gpuMs * 1.1, gpuMs * 0.9};
        g.h2dMs = {copyMsPerElement * static_cast<double>(n)};
        g.d2hMs = {copyMsPerElement * static_cast<double>(n)};
        g.bytes = 12 * static_cast<std::uint64_t>(n);
        run::SweepRow c = g;
        c.backend = "reference";
        c.h2dMs.clear();
        c.d2hMs.clear();
        c.kernelMs = {cpuMsPerElement * static_cast<double>(n)};
        r.rows.push_back(g);
        r.rows.push_back(c);
    }
    return r;
}

} // namespace

namespace {
// Heap memory that a forked child would not inherit, as the CUDA driver's pinned memory: counts blocks.
class NotInheritedAllocator final : public model::HostAllocator {
public:
    std::byte* allocate(std::size_t bytes) override {
        ++allocations;
        return model::heapAllocator()->allocate(bytes);
    }
    void deallocate(std::byte* data, std::size_t bytes) noexcept override {
        model::heapAllocator()->deallocate(data, bytes);
    }
    bool inheritedByChildren() const noexcept override { return false; }
    int allocations = 0;
};
} // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    void valuesFromASpec_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("values");
        QTest::newRow("log decades") << R"({"from": 1000, "to": 1000000, "steps": 4})"
                                     << "1000 10000 100000 1000000";
        QTest::newRow("log powers of two") << R"({"parameter": "block", "from": 32, "to": 1024, "steps": 6})"
                                           << "32 64 128 256 512 1024";
        QTest::newRow("linear") << R"({"scale": "linear", "from": 100, "to": 500, "steps": 5})"
                                << "100 200 300 400 500";
        QTest::newRow("rounding repeats are dropped") << R"({"from": 1, "to": 4, "steps": 8})"
                                                      << "1 2 3 4";
        QTest::newRow("values sorted, repeats dropped") << R"({"values": [300, 100, 100.4, 200]})"
                                                        << "100 200 300";
        QTest::newRow("block defaults") << R"({"parameter": "block"})"
                                        << "32 64 128 256 512 1024";
    }
    void valuesFromASpec() {
        QFETCH(QString, spec);
        QFETCH(QString, values);
        const auto parsed = run::SweepSpec::fromJson(json::parse(spec.toStdString()));
        QStringList got;
        for (const auto v : run::sweepValues(parsed))
            got << QString::number(v);
        QCOMPARE(got.join(' '), values);
    }

    void badSpecsSayWhere_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("backwards") << R"({"from": 1000, "to": 10})"
                                   << "sweep.to: 10 is below sweep.from (1000)";
        QTest::newRow("zero") << R"({"from": 0, "to": 10})"
                              << "sweep.from: must be 1 or more, got 0";
        QTest::newRow("one step") << R"({"steps": 1})"
                                  << "sweep.steps: must be from 2 to 1000 points, got 1";
        QTest::newRow("parameter") << R"({"parameter": "grid"})"
                                   << "sweep.parameter: \"grid\" is not a parameter";
        QTest::newRow("scale") << R"({"scale": "exp"})"
                               << "sweep.scale: \"exp\" is not a scale";
        QTest::newRow("text for a number") << R"({"from": "1k"})"
                                           << "sweep.from: expected a number, found \"1k\"";
        QTest::newRow("a value") << R"({"values": [10, -1]})"
                                 << "sweep.values[1]: must be 1 or more, got -1";
        QTest::newRow("a backend") << R"({"backends": ["cpu", "gpu"]})"
                                   << "sweep.backends[1]: \"gpu\" is not a backend";
        QTest::newRow("repeat") << R"({"repeat": 0})"
                                << "sweep.repeat: must be at least 1, got 0";
        QTest::newRow("too large") << R"({"to": 1e15})"
                                   << "sweep.to: 1e+15 is more than this sweep can hold";
        QTest::newRow("not an object") << R"([1, 2])"
                                       << "sweep: expected an object";
    }
    void badSpecsSayWhere() {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        const auto error =
            test::inputErrorOf([&] { (void)run::SweepSpec::fromJson(json::parse(spec.toStdString())); });
        QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
    }

    void specRoundTripsThroughJson() {
        run::SweepSpec spec;
        spec.parameter = run::SweepParameter::BlockSize;
        spec.scale = run::SweepScale::Linear;
        spec.from = 64;
        spec.to = 512;
        spec.steps = 8;
        spec.backends = {"cuda:0", "cpu:1", "reference"};
        spec.array = "a";
        spec.repeat = 3;
        spec.warmup = 0;
        spec.flops = "2*n";
        QCOMPARE(run::SweepSpec::fromJson(spec.toJson()), spec);
    }

    void backendIds() {
        QCOMPARE(run::parseBackend("cuda").id(), std::string("cuda:0"));
        QCOMPARE(run::parseBackend("cuda:1").ordinal, 1);
        QVERIFY(run::parseBackend("cpu").kind == run::Backend::Kind::Cpu);
        QCOMPARE(run::parseBackend("cpu").threads, 0u);
        QCOMPARE(run::parseBackend("cpu:1").threads, 1u);
        QVERIFY(run::parseBackend("reference").kind == run::Backend::Kind::Reference);
        for (const char* bad : {"cpu:0", "cuda:-1", "cuda:x", "gpu", "cpu:", ""})
            QVERIFY2(test::inputErrorOf([&] { (void)run::parseBackend(bad); }).find("cpu:1 for one core") !=
                         std::string::npos,
                     bad);
    }

    void flopsFormula() {
        QCOMPARE(run::evaluateFlops("n", 1000), 1000.0);
        QCOMPARE(run::evaluateFlops("2*n^1.5", 10000), 2e6);
        QVERIFY(test::inputErrorOf([] {
                    (void)run::evaluateFlops("2*m", 10);
                }).starts_with("sweep.flops: the formula \"2*m\" is not valid"));
        QVERIFY(test::inputErrorOf([] { (void)run::evaluateFlops("-n", 10); }).find("0 or more") !=
                std::string::npos);
    }

    // The swept array and every array made of its dimensions follow; a histogram's bins do not.
    void problemSizeResizesTheBoundArrays() {
        const auto p = playgroundOf(
            {array("y", {400}, "out"), array("x", {400}), array("bins", {16}, "out"), scalar("n", "size(y)")},
            json{{"grid", "auto"}, {"block", {256, 1, 1}}},
            "extern \"C\" __global__ void k(float* y, const float* x, float* bins, int n) {}");
        run::SweepSpec spec;
        spec.from = 1000;
        spec.to = 100000;
        spec.steps = 3;
        const auto plan = run::planSweep(p, spec);
        QCOMPARE(plan.array, std::string("y"));
        QCOMPARE(plan.resized, (std::vector<std::string>{"y", "x"}));
        QCOMPARE(plan.points.size(), std::size_t{3});
        QVERIFY(plan.notes.empty());
        for (std::size_t i = 0; i < 3; ++i) {
            const auto& point = plan.points[i];
            QCOMPARE(point.elements, std::uint64_t(std::pow(10, 3 + i)));
            QCOMPARE(shapeOf(point.playground, "x"), (model::Shape{point.elements}));
            QCOMPARE(shapeOf(point.playground, "bins"), (model::Shape{16}));
            // size(y) follows, as prepare() evaluates it from the new shape.
            QCOMPARE(launch::prepare(point.playground).find("n")->scalarValue, double(point.elements));
        }
    }

    // A sweep generates its inputs once, at the largest size: every point's arrays are exactly what
    // generating them at that point gives, for each init that allows it (normal, uniform, ranges, constants,
    // an inout array), while a formula (which may read n) and a fixed-size array are made per point.
    void inputsMadeOnceAreThoseEachPointWouldMake() {
        json args = {array("y", {400}, "out"),   array("x", {400}), array("u", {400}),
                     array("r", {400}, "inout"), array("f", {400}), array("fixed", {7}),
                     scalar("n", "size(y)")};
        args[1]["init"] = {{"random", "normal"}, {"mean", 1}, {"stddev", 2}, {"seed", 5}};
        args[2]["init"] = {{"random", "uniform"}, {"low", -1}, {"high", 1}, {"seed", 6}};
        args[3]["init"] = {{"range", {{"start", 3}, {"step", 0.5}}}};
        args[4]["init"] = {{"formula", "i / n"}};
        args[5]["init"] = {{"random", "normal"}, {"seed", 7}};
        const auto p =
            playgroundOf(args, json{{"grid", "auto"}, {"block", {256, 1, 1}}},
                         "extern \"C\" __global__ void k(float* y, const float* x, const float* u, "
                         "float* r, const float* f, const float* fixed, int n) {}");
        for (const std::string parameter : {"size", "block"}) {
            run::SweepSpec spec;
            spec.parameter =
                parameter == "size" ? run::SweepParameter::ProblemSize : run::SweepParameter::BlockSize;
            spec.from = parameter == "size" ? 1001 : 32;
            spec.to = parameter == "size" ? 77777 : 256;
            spec.steps = 4;
            const auto plan = run::planSweep(p, spec);
            run::SweepInputs inputs(plan);
            {
                run::SweepInputs probe(plan);
                const auto first = probe.forPoint(0);
                QVERIFY(first(1, model::heapAllocator()).has_value()); // made once, its leading part given
                QVERIFY(first(3, model::heapAllocator()).has_value());
                QVERIFY(!first(4, model::heapAllocator()).has_value()); // a formula: made by the point
                QVERIFY(first(0, model::heapAllocator()).has_value());  // an out array: zeros, made once
                // Memory a child does not inherit (a GPU's pinned memory) gets views of one copy in it.
                const auto pinned = std::make_shared<NotInheritedAllocator>();
                const auto x = first(1, pinned);
                const auto y = first(0, pinned);
                QVERIFY(x && y);
                QVERIFY(!x->allocator()->inheritedByChildren());
                QVERIFY(*x == *first(1, model::heapAllocator()));
                QVERIFY(x->data() != first(1, model::heapAllocator())->data());
                // An out array is a placeholder for a GPU (nothing copies it there): the host's zeros.
                QVERIFY(y->data() == first(0, model::heapAllocator())->data());
                QCOMPARE(pinned->allocations, 1); // once per copied argument, whatever the points
                QVERIFY(*probe.forPoint(plan.points.size() - 1)(1, pinned) ==
                        *probe.forPoint(plan.points.size() - 1)(1, model::heapAllocator()));
                QCOMPARE(pinned->allocations, 1);
            }
            inputs.prepare(); // made ahead (runSweep does it while the runners start), the same arrays
            for (std::size_t i = 0; i < plan.points.size(); ++i) {
                const auto made =
                    launch::prepare(plan.points[i].playground, model::heapAllocator(), inputs.forPoint(i));
                const auto fresh = launch::prepare(plan.points[i].playground);
                for (const auto& arg : fresh.args) {
                    if (!arg.isArray) continue;
                    QVERIFY2(made.find(arg.name)->array == arg.array,
                             qPrintable(QString::fromStdString(parameter + " sweep, point " +
                                                               std::to_string(i) + ", " + arg.name)));
                }
            }
        }
    }

    void aSquareStaysASquareAndAnImageKeepsItsShape() {
        const auto square = playgroundOf({array("y", {512, 512}, "out"), array("x", {512, 512})});
        run::SweepSpec spec;
        spec.values = {1024 * 1024};
        QCOMPARE(shapeOf(run::planSweep(square, spec).points[0].playground, "x"), (model::Shape{1024, 1024}));
        const auto image = playgroundOf({array("y", {768, 1024}, "out"), array("x", {1024})});
        spec.values = {768 * 1024 * 4};
        const auto plan = run::planSweep(image, spec);
        QCOMPARE(shapeOf(plan.points[0].playground, "y"), (model::Shape{1536, 2048}));
        QCOMPARE(shapeOf(plan.points[0].playground, "x"), (model::Shape{2048})); // a row follows the columns
        QCOMPARE(plan.points[0].elements, std::uint64_t{1536 * 2048});
        // Small 2-D sizes round to the same shape: merged, and said.
        spec.values = {4, 5, 9}; // 2x2, 2x2 again, 3x3
        const auto merged = run::planSweep(square, spec);
        QCOMPARE(merged.points.size(), std::size_t{2});
        QVERIFY(!merged.notes.empty() && merged.notes.back().find("left out") != std::string::npos);
    }

    void whatThePlanSaysAboutTheLaunchAndScalars() {
        // A fixed grid over a kernel that does not stride: grid "auto" so every point is covered.
        const auto fixed = playgroundOf({array("y", {400}, "out"), array("x", {400}), scalar("n", 400)},
                                        json{{"grid", {1, 1, 1}}, {"block", {400, 1, 1}}});
        run::SweepSpec spec;
        const auto plan = run::planSweep(fixed, spec);
        QVERIFY(plan.points.back().playground.launch.autoGrid);
        QCOMPARE(plan.notes.size(), std::size_t{2});
        QVERIFY2(plan.notes[0].starts_with("args[2] n is the number 400, a size of y: it stays 400"),
                 plan.notes[0].c_str());
        QVERIFY2(plan.notes[1].find("the sweep uses grid \"auto\"") != std::string::npos,
                 plan.notes[1].c_str());
        // A grid-stride loop keeps its grid.
        const auto strided =
            playgroundOf({array("y", {400}, "out"), array("x", {400}), scalar("n", "size(y)")},
                         json{{"grid", {8, 1, 1}}, {"block", {256, 1, 1}}},
                         "extern \"C\" __global__ void k(float* y, const float* x, int n) {\n"
                         "  for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i];\n}");
        const auto kept = run::planSweep(strided, spec);
        QVERIFY(kept.notes.empty());
        QVERIFY(!kept.points.back().playground.launch.autoGrid);
    }

    void blockSizeSetsBlockDimX() {
        const auto p = playgroundOf({array("y", {5000}, "out"), array("x", {5000}), scalar("n", "size(y)")});
        const auto spec =
            run::SweepSpec::fromJson({{"parameter", "block"}, {"from", 32}, {"to", 256}, {"steps", 4}});
        const auto plan = run::planSweep(p, spec);
        QCOMPARE(plan.points.size(), std::size_t{4});
        for (const auto& point : plan.points) {
            QCOMPARE(std::int64_t(point.playground.launch.block[0]), point.value);
            QCOMPARE(point.elements, std::uint64_t{5000});
            QCOMPARE(shapeOf(point.playground, "x"), (model::Shape{5000}));
        }
        QCOMPARE(launch::prepare(plan.points[0].playground).launch.grid[0],
                 157u); // auto follows: ceil(5000 / 32)
    }

    // Smaller blocks on a fixed grid would leave elements out: the block sweep covers with grid "auto" too.
    void blockSweepOverAFixedGridCoversEveryElement() {
        const auto p = playgroundOf({array("y", {1024}, "out"), array("x", {1024}), scalar("n", "size(y)")},
                                    json{{"grid", {8, 1, 1}}, {"block", {128, 1, 1}}});
        const auto plan =
            run::planSweep(p, run::SweepSpec::fromJson({{"parameter", "block"}, {"values", {64, 128}}}));
        QCOMPARE(plan.notes.size(), std::size_t{1});
        QVERIFY2(plan.notes[0].find("the sweep uses grid \"auto\"") != std::string::npos,
                 plan.notes[0].c_str());
        QCOMPARE(launch::prepare(plan.points[0].playground).launch.grid[0], 16u);
    }

    void plansThatCannotWork() {
        run::SweepSpec spec;
        spec.array = "z";
        QVERIFY(test::inputErrorOf([&] {
                    (void)run::planSweep(
                        playgroundOf({array("y", {4}, "out"), array("x", {4}), scalar("n", 4)}), spec);
                })
                    .starts_with(
                        "sweep.array: \"z\" is not an array argument of the playground (its arrays: y, x)"));
        auto file = array("x", {4});
        file["init"] = {{"file", "x.npy"}};
        spec.array.clear();
        QVERIFY(test::inputErrorOf([&] {
                    (void)run::planSweep(playgroundOf({array("y", {4}, "out"), file, scalar("n", 4)}), spec);
                }).starts_with("args[1].init.file: \"x.npy\" has a fixed shape"));
    }

    void resultsRoundTripThroughJsonAndThePlaygroundFile() {
        auto result = handMade({1000, 10000}, 0.01, 1e-6, 1e-5);
        result.title = "t";
        result.kernel = "k";
        result.notes = {"a note"};
        result.rows[1].check = "passed";
        result.rows[2].error = "launch.block: too many threads";
        result.rows[2].kernelMs.clear();
        result.rows[0].flops = 1000;
        QCOMPARE(run::SweepResult::fromJson(result.toJson()), result);

        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("m.kpad.json").toStdString();
        auto playground = io::readPlayground(kMultiply);
        playground.folder = path.parent_path();
        result.spec = *run::storedSweepSpec(playground);
        run::storeSweep(playground, result.spec, &result);
        std::filesystem::copy_file(kMultiply.parent_path() / "multiply_them.cu",
                                   path.parent_path() / "multiply_them.cu");
        io::writePlayground(playground, path);
        const auto reread = io::readPlayground(path);
        QCOMPARE(run::storedSweepResult(reread).value(), result);
        QCOMPARE(run::storedSweepSpec(reread).value().flops, std::string("n"));

        json broken = result.toJson();
        broken["rows"][1]["kernel_ms"][0] = "fast";
        QCOMPARE(test::inputErrorOf([&] { (void)run::SweepResult::fromJson(broken); }),
                 std::string("sweep.results.rows[1].kernel_ms[0]: expected a time in ms, 0 or more"));
        broken = result.toJson();
        broken["rows"][0]["backend"] = "cuda:7";
        QVERIFY(test::inputErrorOf([&] {
                    (void)run::SweepResult::fromJson(broken);
                }).find("not one of the sweep's backends") != std::string::npos);
    }

    void csvHasOneLinePerRowAndEmptyCellsWhereNothingApplies() {
        auto result = handMade({1000, 10000}, 0.01, 1e-6, 1e-5);
        result.rows[3].error = "out of memory, \"really\"";
        result.rows[3].kernelMs.clear();
        const auto csv = QString::fromStdString(result.toCsv());
        const auto lines = csv.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[0].startsWith(
            "parameter,value,elements,block,grid,backend,repeats,kernel_min_ms,kernel_median_ms"));
        const auto columns = lines[0].split(',').size();
        QCOMPARE(lines[1].split(',').size(), columns);
        QVERIFY2(
            lines[1].startsWith(
                "size,1000,1000,1x1x1,1x1x1,cuda:0,3,0.009,0.01,0.011,0.001,0.001,0.012,12000,1.2,1e+08"),
            qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(",reference,1,0.01,0.01,0.01,,,0.01,"),
                 qPrintable(lines[2])); // no copies on the host
        QVERIFY2(lines[4].endsWith(",\"out of memory, \"\"really\"\"\""), qPrintable(lines[4]));
        QVERIFY2(lines[4].contains(",reference,0,,,,,,,"), qPrintable(lines[4]));
    }

    void crossover_data() {
        QTest::addColumn<double>("gpuMs");
        QTest::addColumn<double>("cpuMsPerElement");
        QTest::addColumn<bool>("withTransfers");
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("x");
        // GPU flat at 0.02 ms, CPU 1e-6 ms per element: equal at 20,000.
        QTest::newRow("found") << 0.02 << 1e-6 << false << int(run::Crossover::Kind::Found) << 20000.0;
        // With copies of 4e-7 ms per element each way: 0.02 + 8e-7 n = 1e-6 n at n = 100,000.
        QTest::newRow("found with copies")
            << 0.02 << 1e-6 << true << int(run::Crossover::Kind::Found) << 100000.0;
        QTest::newRow("throughout") << 1e-6 << 1e-6 << false << int(run::Crossover::Kind::GpuFasterThroughout)
                                    << 1000.0;
        QTest::newRow("never") << 100.0 << 1e-6 << false << int(run::Crossover::Kind::GpuNeverFaster)
                               << -1.0; // the last point
    }
    void crossover() {
        QFETCH(double, gpuMs);
        QFETCH(double, cpuMsPerElement);
        QFETCH(bool, withTransfers);
        QFETCH(int, kind);
        QFETCH(double, x);
        std::vector<std::int64_t> sizes;
        for (double n = 1000; n <= 1e7; n *= std::sqrt(10.0))
            sizes.push_back(std::llround(n));
        const auto result = handMade(sizes, gpuMs, 4e-7, cpuMsPerElement);
        const auto c = run::crossover(result, "cuda:0", "reference", withTransfers);
        QCOMPARE(int(c.kind), kind);
        if (x < 0) x = double(sizes.back());
        // Interpolated on log-log axes between two points a half-decade apart: within 15%.
        QVERIFY2(std::abs(c.x / x - 1) < 0.15, std::to_string(c.x).c_str());
        const auto words = run::describe(c, result);
        QVERIFY2(words.starts_with("cuda:0 ") && words.find("the C++ reference") != std::string::npos &&
                     words.find(withTransfers ? "(with copies)" : "(kernel only)") != std::string::npos,
                 words.c_str());
        if (c.kind == run::Crossover::Kind::Found)
            QVERIFY2(words.find("from about ") != std::string::npos, words.c_str());
    }

    void crossoverNeedsTwoPointsOnBoth() {
        auto result = handMade({1000, 10000}, 0.01, 1e-6, 1e-5);
        result.rows[1].error = "x";
        result.rows[1].kernelMs.clear();
        QVERIFY(run::crossover(result, "cuda:0", "reference", false).kind ==
                run::Crossover::Kind::TooFewPoints);
        // Every GPU against every CPU, reference first, both ways.
        result.backends.push_back({"cpu", "cpu (2 threads)", {}});
        result.backends.push_back({"cpu:1", "cpu (1 thread)", {}});
        const auto all = run::crossovers(result);
        QCOMPARE(all.size(), std::size_t{6});
        QCOMPARE(all[0].cpu, std::string("reference"));
        QCOMPARE(all[2].cpu, std::string("cpu"));
        QCOMPARE(all[4].cpu, std::string("cpu:1"));
        QVERIFY(all[1].withTransfers && !all[0].withTransfers);
        QCOMPARE(run::preferredCpu(result), std::string("reference"));
    }

    void formatsCounts() {
        QCOMPARE(run::formatCount(0), std::string("0"));
        QCOMPARE(run::formatCount(999), std::string("999"));
        QCOMPARE(run::formatCount(12345), std::string("12,345"));
        QCOMPARE(run::formatCount(1234567), std::string("1,234,567"));
        QCOMPARE(run::formatCount(67108864), std::string("67.1 million"));
    }

    void throughputAndRoofline() {
        run::SweepRow row;
        row.elements = 1000000;
        row.kernelMs = {1.0};
        row.bytes = 12000000;
        row.flops = 1e6;
        QCOMPARE(row.elementsPerSecond().value(), 1e9);
        QCOMPARE(row.gigabytesPerSecond().value(), 12.0);
        QCOMPARE(row.gflops().value(), 1.0);
        QCOMPARE(row.intensity().value(), 1.0 / 12);
        QCOMPARE(run::roofGflops({3000, 60000}, 1.0 / 12), 250.0);
        QCOMPARE(run::roofGflops({3000, 60000}, 100), 60000.0);
        QCOMPARE(run::roofGflops({}, 1), 0.0);
        row.error = "x";
        QVERIFY(!row.gflops() && !row.elementsPerSecond());
    }

    // The roof of the roofline: FP32 lanes x 2 (a fused multiply-add) x SMs x clock.
    void devicePeakGflops() {
        auto p = test::h100();
        p.clockKHz = 1980000;
        QCOMPARE(p.fp32LanesPerMultiprocessor(), 128);
        QCOMPARE(std::round(p.peakGflops()), 66908.0); // NVIDIA's datasheet: 67 TFLOPS FP32 (SXM)
        p.ccMajor = 7;
        QCOMPARE(p.fp32LanesPerMultiprocessor(), 64);
        p.ccMajor = 3; // not known here: no roof rather than a wrong one
        QCOMPARE(p.peakGflops(), 0.0);
    }

    // What CI checks on the CPU: sizes go up, one row per point and backend, every check passes.
    void sweepsMultiplyThemOnTheCpuBackends() {
        auto spec = *run::storedSweepSpec(io::readPlayground(kMultiply));
        spec.to = 1000000;
        spec.steps = 4;
        spec.repeat = 3;
        spec.backends = {"cpu", "cpu:1", "reference"};
        std::vector<std::size_t> progress;
        run::SweepOptions options;
        options.progress = [&](const run::SweepRow&, std::size_t done, std::size_t total) {
            progress.push_back(done);
            QCOMPARE(total, std::size_t{12});
        };
        const auto result = run::runSweep(io::readPlayground(kMultiply), spec, options);
        QCOMPARE(result.rows.size(), std::size_t{12});
        QCOMPARE(progress.size(), std::size_t{12});
        QCOMPARE(progress.back(), std::size_t{12});
        QCOMPARE(result.backends.size(), std::size_t{3});
        QCOMPARE(result.backends[0].id, std::string("cpu")); // the spec's order
        QVERIFY2(result.backends[1].name.find("1 thread") != std::string::npos,
                 result.backends[1].name.c_str());
        QVERIFY(result.notes.empty());
        for (const auto& id : {"cpu", "cpu:1", "reference"}) {
            const auto rows = result.rowsOf(id);
            QCOMPARE(rows.size(), std::size_t{4});
            for (std::size_t i = 0; i < rows.size(); ++i) {
                QVERIFY2(rows[i]->ran(), rows[i]->error.c_str());
                QCOMPARE(rows[i]->kernelMs.size(), std::size_t{3});
                QVERIFY(rows[i]->h2dMs.empty());
                QCOMPARE(rows[i]->bytes, 12 * rows[i]->elements);
                QCOMPARE(rows[i]->flops.value(), double(rows[i]->elements));
                if (i > 0) QVERIFY(rows[i]->elements > rows[i - 1]->elements);
                QCOMPARE(rows[i]->check, std::string(id == std::string("reference") ? "" : "passed"));
            }
        }
        QCOMPARE(result.rowsOf("cpu").back()->elements, std::uint64_t{1000000});
        QCOMPARE(result.rowsOf("cpu").back()->grid[0], 2500u); // grid "auto" followed: 1,000,000 / 400
        QVERIFY(run::crossovers(result).empty());              // no GPU, nothing to cross
    }

    // A program sweeps whole: its scratch buffers follow the swept array's size through their
    // expressions, and a block sweep sets its variable "block" (a program without one is told so).
    void sweepsAProgram() {
        const auto playground =
            io::readPlayground(std::filesystem::path(KP_SOURCE_DIR) /
                               "samples/sum_squares_multipass/sum_squares_multipass.kpad.json");
        run::SweepSpec sizes;
        sizes.values = {1000, 300000};
        sizes.repeat = 1;
        sizes.warmup = 0;
        sizes.backends = {"cpu", "reference"};
        const auto bySize = run::runSweep(playground, sizes, {});
        QCOMPARE(bySize.rows.size(), std::size_t{4});
        for (const auto* row : bySize.rowsOf("cpu")) {
            QVERIFY2(row->ran(), row->error.c_str());
            QCOMPARE(row->check, std::string("passed"));
        }
        run::SweepSpec blocks = sizes;
        blocks.parameter = run::SweepParameter::BlockSize;
        blocks.values = {64, 512};
        const auto plan = run::planSweep(playground, blocks);
        QCOMPARE(plan.points.size(), std::size_t{2});
        QCOMPARE(plan.points[1].playground.variables.front(),
                 (std::pair<std::string, std::string>{"block", "512"}));
        const auto byBlock = run::runSweep(playground, blocks, {});
        for (const auto* row : byBlock.rowsOf("cpu")) {
            QVERIFY2(row->ran(), row->error.c_str());
            QCOMPARE(row->check, std::string("passed"));
        }
        const auto bitonic = io::readPlayground(std::filesystem::path(KP_SOURCE_DIR) /
                                                "samples/bitonic_sort/bitonic_sort.kpad.json");
        try {
            (void)run::planSweep(bitonic, blocks);
            QFAIL("a program without a block variable was swept by block");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find(
                         "sweep.parameter: a block-size sweep of a program sets its variable "
                         "\"block\"") != std::string::npos,
                     e.what());
        }
    }

    void aRowThatCannotRunSaysWhyAndTheSweepGoesOn() {
        // blockDim.x 2048 is over any backend's limit: that row has an error, the others run.
        const auto spec = run::SweepSpec::fromJson(
            {{"parameter", "block"}, {"values", {256, 2048}}, {"backends", {"cpu"}}, {"repeat", 1}});
        const auto result = run::runSweep(io::readPlayground(kMultiply), spec);
        QCOMPARE(result.rows.size(), std::size_t{2});
        QVERIFY(result.rows[0].ran());
        QCOMPARE(result.rows[0].check, std::string("passed"));
        QVERIFY(!result.rows[1].ran());
        QVERIFY2(result.rows[1].error.find("launch.block") != std::string::npos,
                 result.rows[1].error.c_str());
    }

    void cancelStopsBetweenRows() {
        std::atomic<bool> cancel{false};
        run::SweepOptions options;
        options.cancel = &cancel;
        options.progress = [&](const run::SweepRow&, std::size_t done, std::size_t) {
            if (done == 2) cancel = true;
        };
        auto spec = *run::storedSweepSpec(io::readPlayground(kMultiply));
        spec.backends = {"cpu:1"};
        spec.to = 10000;
        const auto result = run::runSweep(io::readPlayground(kMultiply), spec, options);
        QVERIFY(result.cancelled);
        QCOMPARE(result.rows.size(), std::size_t{2});
    }

    // The CPU backend's kernel and the reference compile while the inputs are made, into the cache where
    // the runs find them: with an empty cache, one library each, not a second one that the warm-up's
    // different setup would have made. A reference that does not compile still stops the sweep, saying why.
    void compilesOnceWhileTheInputsAreMade() {
        QTemporaryDir cache;
        QVERIFY(cache.isValid());
        const QByteArray before = qgetenv("KERNELPAD_CACHE_DIR");
        qputenv("KERNELPAD_CACHE_DIR", cache.path().toUtf8());
        struct Restore {
            QByteArray value;
            ~Restore() {
                if (value.isEmpty())
                    qunsetenv("KERNELPAD_CACHE_DIR");
                else
                    qputenv("KERNELPAD_CACHE_DIR", value);
            }
        } restore{before};
        run::SweepSpec spec;
        spec.backends = {"cpu", "reference"};
        spec.values = {1000, 200000};
        const auto result = run::runSweep(io::readPlayground(kMultiply), spec);
        for (const auto& row : result.rows)
            QVERIFY2(row.ran(), row.error.c_str());
        int libraries = 0;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(cache.path().toStdString()))
            libraries += entry.path().extension() == ".so";
        QCOMPARE(libraries, 2);

        const QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const std::filesystem::path copy = folder.path().toStdString();
        for (const auto& entry : std::filesystem::directory_iterator(kMultiply.parent_path()))
            std::filesystem::copy(entry.path(), copy / entry.path().filename());
        {
            std::ofstream(copy / "multiply_them.ref.cpp")
                << "void multiply_them_ref(float* d) { d[0] = x; }\n";
        }
        try {
            (void)run::runSweep(io::readPlayground(copy / kMultiply.filename()), spec);
            QFAIL("no CompileError");
        } catch (const launch::CompileError& e) {
            QVERIFY2(std::string(e.what()).find("multiply_them.ref.cpp:1:43: error:") != std::string::npos,
                     e.what());
        }
    }

    void aKernelThatDoesNotCompileStopsTheSweep() {
        auto playground = io::readPlayground(kMultiply);
        playground.source.reset();
        playground.code = "extern \"C\" __global__ void multiply_them(float *dest, const float *a, const "
                          "float *b, int n)\n{ dest[i] = 0; }\n";
        run::SweepSpec spec;
        spec.backends = {"cpu"};
        spec.values = {100};
        try {
            (void)run::runSweep(playground, spec);
            QFAIL("no CompileError");
        } catch (const launch::CompileError& e) {
            QVERIFY2(std::string(e.what()).find("was not declared in this scope") != std::string::npos,
                     e.what());
        }
        spec.backends = {"reference"};
        playground.reference.reset();
        QVERIFY(test::inputErrorOf([&] {
                    (void)run::runSweep(playground, spec);
                }).starts_with("sweep.backends: \"reference\" is named"));
    }

    // On the GPU machine: multiply_them's crossover against the reference, kernel only and with copies.
    void findsMultiplyThemsCrossoverOnCuda() {
        KP_REQUIRE_GPU();
        auto spec = *run::storedSweepSpec(io::readPlayground(kMultiply));
        spec.backends = {"cuda:0", "cpu", "reference"};
        spec.to = 16777216;
        spec.steps = 15;
        const auto result = run::runSweep(io::readPlayground(kMultiply), spec);
        QCOMPARE(result.rows.size(), std::size_t{45});
        for (const auto& row : result.rows) {
            QVERIFY2(row.ran(), row.error.c_str());
            if (row.backend != "reference") QCOMPARE(row.check, std::string("passed"));
        }
        QVERIFY(result.backends[0].peak.bandwidthGBs > 100 && result.backends[0].peak.gflops > 1000);
        const auto kernelOnly = run::crossover(result, "cuda:0", "reference", false);
        const auto withCopies = run::crossover(result, "cuda:0", "reference", true);
        qInfo("%s", run::describe(kernelOnly, result).c_str());
        qInfo("%s", run::describe(withCopies, result).c_str());
        for (const auto& c : run::crossovers(result))
            qInfo("%s", run::describe(c, result).c_str());
        QVERIFY(kernelOnly.kind == run::Crossover::Kind::Found);
        QVERIFY(withCopies.kind == run::Crossover::Kind::Found);
        // Copies cost more than the multiply they replace until the arrays are large.
        QVERIFY2(withCopies.x > kernelOnly.x,
                 (std::to_string(withCopies.x) + " vs " + std::to_string(kernelOnly.x)).c_str());
        // The GPU's largest point moves data at a good part of the device's bandwidth.
        const auto* last = result.rowsOf("cuda:0").back();
        qInfo("largest point: %.4f ms, %.0f GB/s of %.0f", last->kernel().median, *last->gigabytesPerSecond(),
              result.backends[0].peak.bandwidthGBs);
        QVERIFY(*last->gigabytesPerSecond() > 0.3 * result.backends[0].peak.bandwidthGBs);
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
