// launch::planProgram: a playground's steps unrolled into the operations a backend replays, every
// expression evaluated, and every mistake found before anything runs, with the JSON path of the field to
// fix. No GPU and no compiler needed: planning reads the source's kernels and the arguments' shapes.
#include "core/io/PlaygroundFile.h"
#include "core/launch/Program.h"
#include "core/launch/ProgramExpressions.h"
#include "core/launch/RunSetup.h"
#include "core/source/DeviceVariables.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace kp;
using nlohmann::json;

namespace {

// Kernels in the style of NVIDIA's samples: a reduction pass with its block size as a template argument,
// a bitonic merge step, a stencil step, a scan's uniform add, and a separable filter's constant taps.
constexpr const char* kSource = R"(
__constant__ float c_taps[17];
__device__ unsigned int retirementCount = 0;
template <unsigned blockSize, bool nIsPow2>
__global__ void reduce(const float* in, float* out, unsigned n) { }
__global__ void merge(unsigned* keys, unsigned j, unsigned k) { }
__global__ void step(const float* u, float* next, int width, int height) { }
__global__ void uniform_add(float* data, const float* sums, int n) { }
__global__ void count(const int* in, int* bins, int n) { }
)";

json program(const json& args, const json& buffers, const json& steps) {
    json p = {{"format", "kernelpad/1"}, {"code", kSource}, {"args", args}, {"steps", steps}};
    if (!buffers.empty()) p["buffers"] = buffers;
    return p;
}

json floats(const std::string& name, std::size_t n, const std::string& direction = "inout") {
    return {{"name", name}, {"array", {{"dtype", "float32"}, {"shape", {n}}}}, {"direction", direction}};
}

json launchOf(const std::string& kernel, const json& grid, const json& block, const json& args) {
    return {{"launch", {{"kernel", kernel}, {"grid", grid}, {"block", block}, {"args", args}}}};
}

launch::Program plan(const json& file) {
    const auto playground = io::parsePlayground(file.dump(), "/tmp/program.kpad.json");
    return launch::prepareKernel(playground).program;
}

// The problems planning reports, one per line; "(none)" when it plans.
QString problemsOf(const json& file) {
    try {
        (void)plan(file);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(none)");
}

std::vector<const launch::LaunchOperation*> launchesOf(const launch::Program& program) {
    std::vector<const launch::LaunchOperation*> launches;
    for (const auto& operation : program.operations)
        if (const auto* l = std::get_if<launch::LaunchOperation>(&operation.what)) launches.push_back(l);
    return launches;
}

std::uint32_t scalarOf(const launch::LaunchArgument& arg) {
    std::uint32_t value = 0;
    std::memcpy(&value, arg.bytes.data(), sizeof value);
    return value;
}

// The multi-pass reduction: a first pass into `partial`, then passes between `partial` and `spare` until one
// value is left, then a copy of it into `total`.
json multipass(std::size_t n) {
    return program(
        json::array({floats("a", n, "in"), floats("total", 1, "out")}),
        json::array(
            {{{"name", "partial"}, {"array", {{"dtype", "float32"}, {"shape", {"divup(size(a), 512)"}}}}},
             {{"name", "spare"}, {"array", {{"dtype", "float32"}, {"shape", {"divup(size(a), 512)"}}}}}}),
        json::array({{{"launch",
                       {{"kernel", "reduce"},
                        {"template", {256, "size(a) % 512 == 0"}},
                        {"grid", {"divup(size(a), 512)"}},
                        {"block", {256}},
                        {"args", {"a", "partial", "size(a)"}}}}},
                     {{"set", {{"m", "divup(size(a), 512)"}}}},
                     {{"repeat", {{"while", "m > 1"}}},
                      {"steps",
                       {{{"launch",
                          {{"kernel", "reduce"},
                           {"template", {256, "m % 512 == 0"}},
                           {"grid", {"divup(m, 512)"}},
                           {"block", {256}},
                           {"args", {"partial", "spare", "m"}}}}},
                        {{"swap", {"partial", "spare"}}},
                        {{"set", {{"m", "divup(m, 512)"}}}}}}},
                     {{"copy", {{"from", "partial"}, {"to", "total"}, {"count", 1}}}}}));
}

} // namespace

class TestProgramPlan : public QObject {
    Q_OBJECT

private slots:
    // 2^20 + 3 values: passes of 2049, 5 and 1 blocks; the names swap after each later pass, the instance
    // follows whether the count is a multiple of 512, and the total comes from where `partial` ends.
    void unrollsAMultipassReduction() {
        const auto p = plan(multipass((1u << 20) + 3));
        const auto launches = launchesOf(p);
        QCOMPARE(launches.size(), std::size_t{3});
        QCOMPARE(launches[0]->geometry.grid[0], 2049u);
        QCOMPARE(launches[1]->geometry.grid[0], 5u);
        QCOMPARE(launches[2]->geometry.grid[0], 1u);
        QCOMPARE(scalarOf(launches[1]->args[2]), 2049u);
        QCOMPARE(scalarOf(launches[2]->args[2]), 5u);
        QCOMPARE(p.kernels.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(p.kernels[0].name), QStringLiteral("reduce<256, false>"));
        // partial and spare are buffers 2 and 3: pass 2 reads 2 and writes 3, pass 3 reads 3 and writes 2.
        QCOMPARE(launches[1]->args[0].place.buffer, 2u);
        QCOMPARE(launches[1]->args[1].place.buffer, 3u);
        QCOMPARE(launches[2]->args[0].place.buffer, 3u);
        QCOMPARE(launches[2]->args[1].place.buffer, 2u);
        const auto& copy = std::get<launch::CopyOperation>(p.operations.back().what);
        QCOMPARE(copy.from.buffer, 2u);
        QCOMPARE(copy.to.buffer, 1u);
        QCOMPARE(copy.elements, std::uint64_t{1});
        // The loop ran two passes; each of its steps twice.
        QCOMPARE(p.steps[2].kind, std::string("repeat"));
        QCOMPARE(p.steps[2].calls, std::uint64_t{2});
        QCOMPARE(p.steps[3].calls, std::uint64_t{2});
        QCOMPARE(p.steps[3].parent, 2);
        QVERIFY(!p.argumentsMoved());
    }

    // A bool template parameter takes true or false, a number the value: one instance per distinct set.
    // 2^20 values: passes over 2^20 and 2048 values (multiples of 512), then over 4.
    void namesAnInstanceForEachSetOfTemplateArguments() {
        const auto p = plan(multipass(1u << 20));
        QCOMPARE(p.kernels.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(p.kernels[0].name), QStringLiteral("reduce<256, true>"));
        QCOMPARE(QString::fromStdString(p.kernels[1].name), QStringLiteral("reduce<256, false>"));
        const auto launches = launchesOf(p);
        QCOMPARE(launches.size(), std::size_t{3});
        QCOMPARE(launches[1]->kernel, 0u);
        QCOMPARE(launches[2]->kernel, 1u);
    }

    // Bitonic sort's host loop: k doubles up to n, j halves from k / 2 down to 1.
    void unrollsNestedCountedLoops() {
        const json file = program(
            json::array({{{"name", "keys"},
                          {"array", {{"dtype", "uint32"}, {"shape", {64}}}},
                          {"direction", "inout"}}}),
            json::array(),
            json::array(
                {{{"repeat",
                   {{"counter", "k"}, {"from", 2}, {"while", "k <= size(keys)"}, {"next", "k * 2"}}},
                  {"steps",
                   {{{"repeat",
                      {{"counter", "j"}, {"from", "k / 2"}, {"while", "j >= 1"}, {"next", "floor(j / 2)"}}},
                     {"steps", {launchOf("merge", {1}, {32}, {"keys", "j", "k"})}}}}}}}));
        const auto p = plan(file);
        const auto launches = launchesOf(p);
        QCOMPARE(launches.size(), std::size_t{21}); // 1 + 2 + ... + 6
        std::vector<std::pair<unsigned, unsigned>> jk;
        jk.reserve(launches.size());
        for (const auto* l : launches)
            jk.emplace_back(scalarOf(l->args[1]), scalarOf(l->args[2]));
        QCOMPARE(jk.front(), std::make_pair(1u, 2u));
        QCOMPARE(jk[1], std::make_pair(2u, 4u));
        QCOMPARE(jk[2], std::make_pair(1u, 4u));
        QCOMPARE(jk.back(), std::make_pair(1u, 64u));
    }

    // An iterative stencil swaps its two buffers; after an odd number of passes the output's name stands for
    // the scratch buffer, which is where it is read back from.
    void aSwapMovesWhereAnOutputIsReadBack() {
        const json file = program(
            json::array({floats("u", 64), {{"name", "w"}, {"scalar", {{"dtype", "int32"}}}, {"value", 8}}}),
            json::array({{{"name", "next"}, {"array", {{"dtype", "float32"}, {"shape", {8, 8}}}}}}),
            json::array(
                {{{"repeat", {{"times", "iterations"}}},
                  {"steps",
                   {launchOf("step", {1}, {8, 8}, {"u", "next", "w", "w"}), {{"swap", {"u", "next"}}}}}}}));
        json odd = file;
        odd["variables"] = {{"iterations", 5}};
        const auto p = plan(odd);
        QCOMPARE(p.launchCount(), std::uint64_t{5});
        QVERIFY(p.argumentsMoved());
        QCOMPARE(p.finalPlace[0].buffer, 1u);
        json even = file;
        even["variables"] = {{"iterations", 4}};
        QVERIFY(!plan(even).argumentsMoved());
    }

    // shfl_scan's uniform_add(d_data + blockSize, ...): an offset into a buffer, counted in elements.
    void anArgumentMayPointIntoABuffer() {
        const json file =
            program(json::array({floats("data", 1024),
                                 floats("sums", 4, "in"),
                                 {{"name", "n"}, {"scalar", {{"dtype", "int32"}}}, {"value", "size(data)"}}}),
                    json::array({{{"name", "tail"}, {"view", {{"of", "data"}, {"offset", 1000}}}}}),
                    json::array({launchOf("uniform_add", {3}, {256}, {"data + 256", "sums", "n - 256"}),
                                 {{"fill", {{"buffer", "tail"}, {"value", 7}}}}}));
        const auto p = plan(file);
        const auto* add = launchesOf(p).front();
        QCOMPARE(add->args[0].place.offset, std::uint64_t{256});
        QCOMPARE(add->args[0].elements, std::uint64_t{768});
        QCOMPARE(scalarOf(add->args[2]), 768u);
        const auto& fill = std::get<launch::FillOperation>(p.operations.back().what);
        QCOMPARE(fill.to.offset, std::uint64_t{1000});
        QCOMPARE(fill.elements, std::uint64_t{24});
        float seven = 0;
        std::memcpy(&seven, fill.value.data(), sizeof seven);
        QCOMPARE(seven, 7.0f);
    }

    // A set step works out every value before it assigns any, so {"a": "b", "b": "a"} exchanges them.
    void aSetStepAssignsAllAtOnce() {
        const json file = program(json::array({floats("x", 4)}), json::array(),
                                  json::array({{{"set", {{"a", 1}, {"b", 2}}}},
                                               {{"set", {{"a", "b"}, {"b", "a"}}}},
                                               launchOf("step", {"a"}, {"b"}, {"x", "x", "a", "b"})}));
        const auto p = plan(file);
        const auto* l = launchesOf(p).front();
        QCOMPARE(l->geometry.grid[0], 2u);
        QCOMPARE(l->geometry.block[0], 1u);
    }

    // cudaMemcpyToSymbol: numbers of the symbol's type, or a buffer's elements.
    void writesASymbolFromValuesOrABuffer() {
        const json file =
            program(json::array({floats("taps", 17, "in"), floats("x", 4)}), json::array(),
                    json::array({{{"symbol", {{"name", "c_taps"}, {"values", {0.25, 0.5, 0.25}}}}},
                                 {{"symbol", {{"name", "c_taps"}, {"from", "taps"}}}},
                                 {{"symbol", {{"name", "retirementCount"}, {"values", {0}}}}},
                                 launchOf("step", {1}, {4}, {"x", "x", 4, 1})}));
        const auto p = plan(file);
        QCOMPARE(p.symbols.size(), std::size_t{2});
        QCOMPARE(p.symbols[0].dtype, std::optional(model::DType::Float32));
        QCOMPARE(p.symbols[1].dtype, std::optional(model::DType::UInt32));
        const auto& values = std::get<launch::SymbolOperation>(p.operations[0].what);
        QCOMPARE(values.bytes, std::uint64_t{12});
        const auto& fromBuffer = std::get<launch::SymbolOperation>(p.operations[1].what);
        QCOMPARE(fromBuffer.bytes, std::uint64_t{68});
        QVERIFY(fromBuffer.from.has_value());
    }

    void refusesWhatCannotRun_data() {
        QTest::addColumn<QString>("edit"); // a JSON patch applied to a good program
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing buffer")
            << R"([{"op":"replace","path":"/steps/0/launch/args/1","value":"nowhere"}])"
            << "steps[0].launch.args[1]: there is no buffer or array argument \"nowhere\"";
        QTest::newRow("missing kernel")
            << R"([{"op":"replace","path":"/steps/0/launch/kernel","value":"reduse"}])"
            << "steps[0].launch.kernel: there is no __global__ function \"reduse\"";
        QTest::newRow("argument count")
            << R"([{"op":"remove","path":"/steps/0/launch/args/2"}])"
            << "steps[0].launch.args: the kernel step(const float* u, float* next, int "
               "width, int height) takes 4 arguments but the step gives 3";
        QTest::newRow("dtype")
            << R"([{"op":"replace","path":"/args/0/array/dtype","value":"int32"}])"
            << "steps[0].launch.args[0]: the kernel's parameter 0 is \"const float* u\" (float32) "
               "but \"u\" holds int32";
        QTest::newRow("buffer for a scalar")
            << R"([{"op":"replace","path":"/steps/0/launch/args/2","value":"u"}])"
            << "steps[0].launch.args[2]: the kernel's parameter width is the scalar";
        QTest::newRow("view outside")
            << R"([{"op":"add","path":"/buffers/-","value":{"name":"v","view":{"of":"u","offset":60,"length":8}}}])"
            << "buffers[1].view: elements 60 to 67 are outside u, which has 64 elements";
        QTest::newRow("offset outside")
            << R"([{"op":"replace","path":"/steps/0/launch/args/0","value":"u + 65"}])"
            << "steps[0].launch.args[0]: \"65\" is 65; an offset into u is from 0 to 64";
        QTest::newRow("endless loop")
            << R"([{"op":"add","path":"/steps/-","value":{"repeat":{"while":"1 > 0","limit":50},"steps":[{"set":{"m":1}}]}}])"
            << "steps[1].repeat: the loop has run 50 passes and \"1 > 0\" still holds";
        QTest::newRow("symbol")
            << R"([{"op":"add","path":"/steps/0","value":{"symbol":{"name":"c_tapz","values":[1]}}}])"
            << "steps[0].symbol.name: <code> declares no __constant__ or __device__ variable "
               "\"c_tapz\" (it declares: c_taps, retirementCount)";
        QTest::newRow("unknown name")
            << R"([{"op":"replace","path":"/steps/0/launch/grid/0","value":"blocks"}])"
            << "steps[0].launch.grid[0]: \"blocks\": \"blocks\" is not a variable here";
        QTest::newRow("not whole")
            << R"([{"op":"replace","path":"/steps/0/launch/grid/0","value":"size(u) / 3"}])"
            << "steps[0].launch.grid[0]: \"size(u) / 3\" is 21.3333333333333, not a whole number";
        QTest::newRow("a buffer as a number")
            << R"([{"op":"replace","path":"/steps/0/launch/grid/0","value":"u / 64"}])"
            << "u is a buffer, and an expression needs a number: its size is size(u)";
        QTest::newRow("copy types")
            << R"([{"op":"add","path":"/steps/-","value":{"copy":{"from":"u","to":"flags"}}}])"
            << "steps[1].copy: \"u\" holds float32 and \"flags\" int32";
        QTest::newRow("swap sizes") << R"([{"op":"add","path":"/steps/-","value":{"swap":["u","flags"]}}])"
                                    << "steps[1].swap: \"u\" (64 float32) and \"flags\" (4 int32) differ";
        QTest::newRow("no end")
            << R"([{"op":"add","path":"/steps/-","value":{"repeat":{},"steps":[{"set":{"m":1}}]}}])"
            << "steps[1].repeat: needs \"times\" (a number of passes) or \"while\"";
        QTest::newRow("before it is set")
            << R"([{"op":"replace","path":"/steps/0/launch/grid/0","value":"m"},{"op":"add","path":"/steps/-","value":{"set":{"m":1}}}])"
            << "steps[0].launch.grid[0]: \"m\" uses m, which has no value yet";
        QTest::newRow("no launch")
            << R"([{"op":"replace","path":"/steps/0","value":{"fill":{"buffer":"u"}}}])"
            << "steps: no step launches a kernel";
        QTest::newRow("too many operations")
            << R"([{"op":"add","path":"/steps/-","value":{"repeat":{"times":2000000,"limit":3000000},"steps":[{"fill":{"buffer":"u"}}]}}])"
            << "Kernelpad's limit for one run: does a loop end?";
        QTest::newRow("block too big")
            << R"([{"op":"replace","path":"/steps/0/launch/block/0","value":2048}])"
            << "steps[0].launch.block";
    }
    void refusesWhatCannotRun() {
        QFETCH(QString, edit);
        QFETCH(QString, expected);
        json good =
            program(json::array({floats("u", 64),
                                 {{"name", "flags"}, {"array", {{"dtype", "int32"}, {"shape", {4}}}}}}),
                    json::array({{{"name", "next"}, {"array", {{"dtype", "float32"}, {"shape", {64}}}}}}),
                    json::array({launchOf("step", {1}, {64}, {"u", "next", 8, 8})}));
        QCOMPARE(problemsOf(good), QStringLiteral("(none)"));
        const json bad = good.patch(json::parse(edit.toStdString()));
        const QString problems = problemsOf(bad);
        QVERIFY2(problems.contains(expected), qPrintable(problems));
    }

    // Every structural problem is listed at once, each with its path.
    void listsEveryProblemAtOnce() {
        const json file = program(json::array({floats("u", 64)}), json::array(),
                                  json::array({launchOf("stepp", {1}, {64}, {"u"}),
                                               launchOf("step", {1}, {64}, {"u", "v", 1, 1}),
                                               {{"swap", {"u", "u"}}}}));
        const QString problems = problemsOf(file);
        QVERIFY2(problems.contains(QStringLiteral("steps[0].launch.kernel:")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("steps[1].launch.args[1]:")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("steps[2].swap: \"u\" is swapped with itself")),
                 qPrintable(problems));
    }

    // The scanner finds __constant__ and __device__ variables, not __device__ functions or comments.
    void findsTheSourcesDeviceVariables() {
        const auto found = source::deviceVariables("// __constant__ float nope[3];\n"
                                                   "__constant__ float c_Kernel[KERNEL_LENGTH];\n"
                                                   "static __device__ unsigned int retirementCount = 0;\n"
                                                   "__device__ float helper(float x) { return x; }\n"
                                                   "__device__ __align__(16) int2 pairs[4];\n");
        QCOMPARE(found.size(), std::size_t{3});
        QCOMPARE(found[0], (source::DeviceVariable{"c_Kernel", true, "float", true, 2}));
        QCOMPARE(found[1], (source::DeviceVariable{"retirementCount", false, "unsigned int", false, 3}));
        QCOMPARE(found[2].name, std::string("pairs"));
        QCOMPARE(found[2].type, std::string("int2"));
    }

    // Expressions: the integer helpers host code uses, and sizes of buffers.
    void evaluatesExpressions() {
        launch::ProgramExpressions e({"m", "k"}, {"a"});
        e.setShape("a", {3, 5});
        e.set("m", 1000);
        QCOMPARE(e.evaluate("divup(m, 256)", "x"), 4.0);
        QCOMPARE(e.evaluate("m % 256", "x"), 232.0);
        QCOMPARE(e.evaluate("size(a) + rows(a) * 10 + cols(a) * 100 + depth(a) * 1000", "x"),
                 15.0 + 30 + 500 + 1000);
        QCOMPARE(e.evaluate("m > 1 && m <= 1000 ? 1 : 0", "x"), 1.0);
        QCOMPARE(e.whole("2^10", "x", 1, 2048, "a block"), std::uint64_t{1024});
        QVERIFY_THROWS_EXCEPTION(InputError, e.evaluate("k + 1", "x"));
        QVERIFY_THROWS_EXCEPTION(InputError, e.evaluate("m / 0", "x"));
    }
};

QTEST_APPLESS_MAIN(TestProgramPlan)
#include "tst_programplan.moc"
