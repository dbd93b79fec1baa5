// launch::prepare and launch::validate: a playground matched against its kernel before anything runs, and a
// launch checked against a backend's limits, each mistake with its own message. No GPU needed.
#include "core/Bytes.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/LaunchGeometry.h"
#include "core/launch/RunSetup.h"

#include <QtTest>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

using namespace kp;

namespace {

std::filesystem::path data() {
    return std::filesystem::path(KP_SOURCE_DIR) / "tests/run/data";
}

// The multiply fixture, changed by `edit`, parsed as if it lived in tests/run/data.
model::Playground fixture(const std::function<void(nlohmann::json&)>& edit = {}) {
    std::ifstream in(data() / "multiply.kpad.json");
    auto json = nlohmann::json::parse(in);
    if (edit) edit(json);
    return io::parsePlayground(json.dump(), data() / "edited.kpad.json");
}

// The problems prepare() reports for `playground`; fails the test if it reports none.
std::string problemsOf(const model::Playground& playground) {
    try {
        (void)launch::prepare(playground);
    } catch (const launch::SetupError& e) {
        return e.what();
    }
    return "(no problem reported)";
}

// A playground of inline `code` whose kernel `kernel` takes `float* d` (4 floats, out) and the scalar `s`
// of `dtype`.
model::Playground withScalar(const std::string& code, const std::string& kernel, const std::string& dtype) {
    nlohmann::json json = {
        {"format", "kernelpad/1"},
        {"code", code},
        {"kernel", kernel},
        {"launch", {{"grid", {1, 1, 1}}, {"block", {4, 1, 1}}}},
        {"args",
         {{{"name", "d"}, {"array", {{"dtype", "float32"}, {"shape", {4}}}}, {"direction", "out"}},
          {{"name", "s"}, {"scalar", {{"dtype", dtype}}}, {"value", 1}}}}};
    return io::parsePlayground(json.dump(), data() / "inline.kpad.json");
}

} // namespace

class TestRunSetup : public QObject {
    Q_OBJECT

private slots:
    // The fixture's arrays (float32 x 1000 = 4000 bytes each) with dest `direction` and with or without its
    // reference, refused or not when `available` bytes are free. A run holds every array twice and its
    // outputs once more, or twice more without a reference (a GPU run is then checked against the CPU
    // backend); the old check assumed twice the arrays, which runs were measured to exceed.
    void checksHostMemoryForEveryCopyARunHolds_data() {
        QTest::addColumn<QString>("direction");
        QTest::addColumn<bool>("reference");
        QTest::addColumn<double>("available");
        QTest::addColumn<bool>("refused");
        // out, with a reference: 2 x 12000 + 4000 = 28000 bytes.
        QTest::newRow("out, reference, fits") << "out" << true << 28000.0 << false;
        QTest::newRow("out, reference, short") << "out" << true << 27000.0 << true;
        // out, without a reference: 2 x 12000 + 2 x 4000 = 32000 bytes.
        QTest::newRow("out, no reference, fits") << "out" << false << 32000.0 << false;
        QTest::newRow("out, no reference, short") << "out" << false << 31000.0 << true;
        // inout counts as an output too.
        QTest::newRow("inout, reference, short") << "inout" << true << 27000.0 << true;
        // Twice the arrays (24000 bytes), what the check once asked for, is not enough.
        QTest::newRow("twice the arrays is short") << "out" << true << 24500.0 << true;
    }
    void checksHostMemoryForEveryCopyARunHolds() {
        QFETCH(QString, direction);
        QFETCH(bool, reference);
        QFETCH(double, available);
        QFETCH(bool, refused);
        const auto playground = fixture([&](nlohmann::json& json) {
            json["args"][0]["direction"] = direction.toStdString();
            if (!reference) json.erase("reference");
        });
        const auto parameters = launch::prepareKernel(playground).signature.parameters;
        std::string message;
        try {
            launch::checkHostMemory(playground, parameters, static_cast<std::uint64_t>(available));
        } catch (const launch::SetupError& e) {
            message = e.what();
        }
        QCOMPARE(!message.empty(), refused);
        if (!refused) return;
        const std::string needed = humanBytes(reference ? 28000 : 32000);
        QVERIFY2(message.starts_with("args[0] \"dest\": a run needs about " + needed + " of memory, but " +
                                     humanBytes(available) + " is available"),
                 message.c_str());
        QVERIFY2(message.find("Make the arrays smaller") != std::string::npos, message.c_str());
    }
    // Through prepare(), with the memory this machine has: refused before anything is allocated.
    void refusesArraysLargerThanMemoryBeforeAllocating() {
        const auto playground = fixture([](nlohmann::json& json) {
            for (auto& arg : json["args"]) // three arrays of 64 GiB (the most an array may hold): 448 GiB
                if (arg.contains("array")) arg["array"]["shape"] = {std::uint64_t{1} << 34};
        });
        if (availableMemoryBytes() > (std::uint64_t{448} << 30))
            QSKIP("this machine has more than 448 GiB free");
        const std::string message = problemsOf(playground);
        QVERIFY2(message.starts_with("args[0] \"dest\": a run needs about 448.0 GiB of memory, but "),
                 message.c_str());
        QVERIFY2(message.find(" is available") != std::string::npos, message.c_str());
    }

    void preparesTheFixture() {
        const auto setup = launch::prepare(fixture());
        QCOMPARE(setup.signature.name, std::string("multiply"));
        QCOMPARE(setup.args.size(), std::size_t{4});
        QCOMPARE(setup.args[0].direction, model::Direction::Out);
        QCOMPARE(setup.args[1].direction, model::Direction::In); // const float*: inferred
        QVERIFY(!setup.args[0].copiedIn());
        QVERIFY(setup.args[0].copiedOut());
        QCOMPARE(setup.args[2].array.value(3), 1.5); // range 0, 0.5, 1, 1.5
        QCOMPARE(setup.args[0].array.value(999), 0.0);
        QCOMPARE(setup.args[3].scalarValue, 1000.0); // size(a)
        QCOMPARE(setup.args[3].scalarBytes.size(), sizeof(std::int32_t));
        std::int32_t n = 0;
        std::memcpy(&n, setup.args[3].scalarBytes.data(), sizeof n);
        QCOMPARE(n, 1000);
        // "auto": ceil(1000 / 256) blocks.
        QCOMPARE(setup.launch.grid, (std::array<std::uint32_t, 3>{4, 1, 1}));
        QCOMPARE(setup.outputs(), std::vector<std::string>{"dest"});
        QCOMPARE(setup.checkedOutputs(), std::vector<std::string>{"dest"});
    }

    void nonConstPointerWithoutDirectionIsInOut() {
        const auto setup = launch::prepare(fixture([](auto& j) { j["args"][0].erase("direction"); }));
        QCOMPARE(setup.args[0].direction, model::Direction::InOut);
        QCOMPARE(setup.outputs(), std::vector<std::string>{"dest"});
    }

    void autoGridCoversEveryDimension() {
        QCOMPARE(launch::autoGrid({1000}, {256, 1, 1}), (std::array<std::uint32_t, 3>{4, 1, 1}));
        QCOMPARE(launch::autoGrid({256}, {256, 1, 1}), (std::array<std::uint32_t, 3>{1, 1, 1}));
        QCOMPARE(launch::autoGrid({100, 33}, {16, 16, 1}), (std::array<std::uint32_t, 3>{3, 7, 1}));
        QCOMPARE(launch::autoGrid({5, 100, 33}, {8, 8, 2}), (std::array<std::uint32_t, 3>{5, 13, 3}));
        QCOMPARE(launch::autoGrid({1u << 26}, {256, 1, 1}), (std::array<std::uint32_t, 3>{1u << 18, 1, 1}));
    }

    void mismatchesAreNamedPerArgument_data() {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QStringList>("fragments");
        QTest::newRow("too few") << R"([{"op":"remove","path":"/args/3"}])"
                                 << QStringList{"args:", "takes 4 arguments", "gives 3", "(dest, a, b)",
                                                "int n"};
        QTest::newRow("scalar for a pointer")
            << R"([{"op":"replace","path":"/args/2","value":{"name":"b","scalar":{"dtype":"float32"},"value":1}}])"
            << QStringList{"args[2] \"b\"", "pointer", "const float* b", "needs an array"};
        QTest::newRow("array for a scalar")
            << R"([{"op":"replace","path":"/args/3","value":{"name":"n","array":{"dtype":"int32","shape":[4]}}}])"
            << QStringList{"args[3] \"n\"", "scalar", "int n", "needs a value"};
        QTest::newRow("wrong dtype") << R"([{"op":"replace","path":"/args/2/array/dtype","value":"float64"}])"
                                     << QStringList{"args[2] \"b\"", "(float32)", "gives float64",
                                                    "never converted"};
        QTest::newRow("inout on a const pointer")
            << R"([{"op":"add","path":"/args/1/direction","value":"inout"}])"
            << QStringList{"args[1] \"a\"", "direction \"inout\"", "const"};
        QTest::newRow("missing kernel")
            << R"([{"op":"replace","path":"/kernel","value":"multiplY"}])"
            << QStringList{"kernel:", "\"multiplY\"", "multiply.cu", "declares: multiply"};
    }
    void mismatchesAreNamedPerArgument() {
        QFETCH(QString, patch);
        QFETCH(QStringList, fragments);
        const auto problems =
            problemsOf(fixture([&](auto& j) { j = j.patch(nlohmann::json::parse(patch.toStdString())); }));
        for (const auto& fragment : fragments)
            QVERIFY2(problems.find(fragment.toStdString()) != std::string::npos,
                     (problems + "\n  lacks: " + fragment.toStdString()).c_str());
    }

    void everyMismatchIsReportedAtOnce() {
        const auto problems = problemsOf(fixture([](auto& j) {
            j["args"][1]["array"]["dtype"] = "int32";
            j["args"][2]["array"]["dtype"] = "int8";
        }));
        QVERIFY2(problems.find("args[1]") != std::string::npos &&
                     problems.find("args[2]") != std::string::npos,
                 problems.c_str());
    }

    void templateKernelsAreFoundByTheirBaseName() {
        const auto playground = io::readPlayground(data() / "scale_template.kpad.json");
        const auto setup = launch::prepare(playground);
        QCOMPARE(setup.signature.name, std::string("scale"));
        QVERIFY(setup.signature.isTemplate);
        QCOMPARE(setup.kernelName, std::string("scale<float>"));
        QCOMPARE(setup.args[0].direction, model::Direction::InOut);
        QCOMPARE(setup.args[1].scalarValue, 2.0);
    }

    // A parameter declared through a typedef, a using alias, a macro or a template parameter is matched
    // like one written with the built-in type; one whose type Kernelpad cannot name is refused, never run
    // on bytes of another type (a float64 value read as float gave all-NaN results).
    void parameterTypesResolveThroughAliases_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QStringList>("fragments"); // empty: accepted
        const QString typedefReal = "typedef float real;\n__global__ void k(float* d, const real s) {}\n";
        QTest::newRow("typedef, same") << typedefReal << "k"
                                       << "float32" << QStringList{};
        QTest::newRow("typedef, other")
            << typedefReal << "k"
            << "float64" << QStringList{"args[1] \"s\"", "const real s", "(float32)", "gives float64"};
        const QString usingReal = "using real = double;\n__global__ void k(float* d, real s) {}\n";
        QTest::newRow("using, same") << usingReal << "k"
                                     << "float64" << QStringList{};
        QTest::newRow("using, other") << usingReal << "k"
                                      << "float32" << QStringList{"(float64)", "gives float32"};
        const QString chained = "typedef unsigned int word;\ntypedef word count_t;\n"
                                "__global__ void k(float* d, count_t s) {}\n";
        QTest::newRow("typedef of a typedef") << chained << "k"
                                              << "uint32" << QStringList{};
        QTest::newRow("typedef of a typedef, other") << chained << "k"
                                                     << "int32" << QStringList{"(uint32)"};
        const QString macro = "#define REAL float\n__global__ void k(float* d, REAL s) {}\n";
        QTest::newRow("macro") << macro << "k"
                               << "float64" << QStringList{"REAL s", "(float32)"};
        QTest::newRow("struct")
            << "struct Params { float scale; };\n__global__ void k(float* d, Params s) {}\n"
            << "k"
            << "float32" << QStringList{"\"Params s\"", "cannot tell which dtype \"Params\" is"};
        const QString templated = "template <typename T>\n__global__ void k(float* d, T s) {}\n";
        QTest::newRow("template, bound") << templated << "k<double>"
                                         << "float64" << QStringList{};
        QTest::newRow("template, bound, other") << templated << "k<double>"
                                                << "float32" << QStringList{"(float64)", "gives float32"};
        QTest::newRow("template, unbound") << templated << "k"
                                           << "float32" << QStringList{"cannot tell", "\"T\"", "k<float>"};
        QTest::newRow("template, default")
            << "template <typename T = int, int N = 4>\n__global__ void k(float* d, T s) {}\n"
            << "k"
            << "float32" << QStringList{"(int32)", "gives float32"};
    }
    void parameterTypesResolveThroughAliases() {
        QFETCH(QString, code);
        QFETCH(QString, kernel);
        QFETCH(QString, dtype);
        QFETCH(QStringList, fragments);
        const auto playground = withScalar(code.toStdString(), kernel.toStdString(), dtype.toStdString());
        const auto problems = problemsOf(playground);
        if (fragments.isEmpty()) QCOMPARE(problems, std::string("(no problem reported)"));
        for (const auto& fragment : fragments)
            QVERIFY2(problems.find(fragment.toStdString()) != std::string::npos,
                     (problems + "\n  lacks: " + fragment.toStdString()).c_str());
    }

    void launchProblemsEachHaveTheirMessage_data() {
        QTest::addColumn<QList<uint>>("grid");
        QTest::addColumn<QList<uint>>("block");
        QTest::addColumn<uint>("shared");
        QTest::addColumn<QString>("expected");
        QTest::newRow("2048 threads") << QList<uint>{1, 1, 1} << QList<uint>{2048, 1, 1} << 0u
                                      << "launch.block: x = 2048 is over H100's limit of 1024";
        QTest::newRow("32x64 threads")
            << QList<uint>{1, 1, 1} << QList<uint>{32, 64, 1} << 0u
            << "launch.block: (32, 64, 1) is 2048 threads per block; H100 allows at most 1024";
        QTest::newRow("block z 65") << QList<uint>{1, 1, 1} << QList<uint>{1, 1, 65} << 0u
                                    << "launch.block: z = 65 is over H100's limit of 64";
        QTest::newRow("zero block") << QList<uint>{1, 1, 1} << QList<uint>{0, 1, 1} << 0u
                                    << "launch.block: the x dimension is 0";
        QTest::newRow("zero grid") << QList<uint>{1, 0, 1} << QList<uint>{32, 1, 1} << 0u
                                   << "launch.grid: the y dimension is 0";
        QTest::newRow("grid y over") << QList<uint>{1, 65536, 1} << QList<uint>{32, 1, 1} << 0u
                                     << "launch.grid: y = 65536 is over H100's limit of 65535 blocks";
        QTest::newRow("shared over")
            << QList<uint>{1, 1, 1} << QList<uint>{32, 1, 1} << 300u * 1024
            << "launch.shared_bytes: 300 KiB dynamic shared memory per block is over H100's limit of 227 KiB";
    }
    void launchProblemsEachHaveTheirMessage() {
        QFETCH(QList<uint>, grid);
        QFETCH(QList<uint>, block);
        QFETCH(uint, shared);
        QFETCH(QString, expected);
        launch::LaunchLimits h100;
        h100.backend = "H100";
        h100.maxSharedBytesPerBlock = 227 * 1024;
        launch::LaunchGeometry g{{grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, shared};
        const auto problems = launch::validate(g, h100);
        QCOMPARE(problems.size(), std::size_t{1});
        QVERIFY2(problems[0].starts_with(expected.toStdString()), problems[0].c_str());
    }

    void kernelLimitsAreChecked() {
        launch::LaunchGeometry g{{1, 1, 1}, {1024, 1, 1}, 40 * 1024};
        const auto problems = launch::validate(g, launch::LaunchLimits::cpu(), 16 * 1024, 512, 128);
        QCOMPARE(problems.size(), std::size_t{2});
        QVERIFY2(problems[0].find("at most 512 because it uses 128 registers per thread") !=
                     std::string::npos,
                 problems[0].c_str());
        QVERIFY2(problems[1].find("40 KiB dynamic + 16 KiB static") != std::string::npos,
                 problems[1].c_str());
        QVERIFY(launch::validate({{4, 1, 1}, {256, 1, 1}, 0}, launch::LaunchLimits::cpu()).empty());
    }

    void unreadableSourceIsAnInputError() {
        auto playground = fixture();
        playground.source = "missing.cu";
        try {
            (void)launch::prepare(playground);
            QFAIL("a missing source was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("missing.cu") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestRunSetup)
#include "tst_runsetup.moc"
