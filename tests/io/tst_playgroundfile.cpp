// Reading and writing *.kpad.json: the format document's example, round trips that keep unknown members,
// and every kind of broken file reported with its JSON path.
#include "../TestSupport.h"
#include "core/io/InitialArray.h"
#include "core/io/NpyFile.h"
#include "core/io/PlaygroundFile.h"

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/resource.h>

using namespace kp;
namespace fs = std::filesystem;

using kp::test::readText;
using kp::test::writeText;

namespace {

fs::path fixtures() {
    return fs::path(KP_SOURCE_DIR) / "tests/io/data/playgrounds";
}

std::string problemsOf(const std::string& text, const fs::path& file) {
    try {
        io::parsePlayground(text, file);
    } catch (const io::PlaygroundError& error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestPlaygroundFile : public QObject {
    Q_OBJECT

private slots:
    void loadsTheFormatDocumentsExample() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        fs::copy_file(fixtures() / "multiply_them.kpad.json", folder / "multiply_them.kpad.json");
        model::Array b(model::DType::Float32, {400});
        for (std::size_t i = 0; i < b.size(); ++i)
            b.setValue(i, 0.5 * static_cast<double>(i));
        io::writeNpy(folder / "b.npy", b);

        const model::Playground p = io::readPlayground(folder / "multiply_them.kpad.json");
        QCOMPARE(p.title, std::string("Multiply two vectors"));
        QCOMPARE(p.source.value_or(""), std::string("multiply_them.cu"));
        QVERIFY(!p.code);
        QCOMPARE(p.kernel, std::string("multiply_them"));
        QCOMPARE(p.compile.options, std::vector<std::string>{"-use_fast_math"});
        QCOMPARE(p.compile.defines.size(), std::size_t{1});
        QCOMPARE(p.compile.defines[0].second, std::string("400"));
        QVERIFY(!p.launch.autoGrid);
        QCOMPARE(p.launch.block[0], 400u);
        QCOMPARE(p.args.size(), std::size_t{4});
        QCOMPARE(*p.args[0].direction, model::Direction::Out);
        QCOMPARE(p.args[1].init->kind, model::InitSpec::Kind::Normal);
        QCOMPARE(p.args[1].init->seed, std::uint64_t{1});
        QCOMPARE(p.args[3].value->kind, model::ScalarValue::Kind::Size);
        QCOMPARE(p.args[3].value->array, std::string("a"));
        QCOMPARE(p.reference->function, std::string("multiply_them_ref"));
        QCOMPARE(p.check->atol, std::optional<double>(1e-6));
        QCOMPARE(fs::weakly_canonical(p.folder), fs::weakly_canonical(folder));
        QCOMPARE(p.resolve("multiply_them.cu"),
                 (fs::weakly_canonical(folder) / "multiply_them.cu").lexically_normal());

        const model::Array loaded =
            io::initialArray(p.args[2].array(), *p.args[2].init, p.folder, "args[2].init");
        QCOMPARE(loaded, b);
    }

    void roundTripKeepsEverything_data() {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("format example") << "multiply_them.kpad.json";
        QTest::newRow("unknown members at every level") << "unknown_keys.kpad.json";
        QTest::newRow("a program with every kind of step") << "program.kpad.json";
    }
    void roundTripKeepsEverything() {
        QFETCH(QString, fixture);
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        fs::copy_file(fixtures() / fixture.toStdString(), folder / "original.kpad.json");
        const model::Playground original = io::readPlayground(folder / "original.kpad.json");
        io::writePlayground(original, folder / "saved.kpad.json");
        const model::Playground saved = io::readPlayground(folder / "saved.kpad.json");
        QVERIFY(saved == original);

        // Every member of the original is in the saved file with the same value (numbers compared as
        // numbers).
        const auto before = nlohmann::json::parse(readText(folder / "original.kpad.json")).flatten();
        const auto after = nlohmann::json::parse(readText(folder / "saved.kpad.json")).flatten();
        for (const auto& [pointer, value] : before.items()) {
            QVERIFY2(after.contains(pointer), pointer.c_str());
            if (pointer ==
                "/compile/defines/BLOCK") // a define's value is text to the compiler: 128 saves as "128"
                QCOMPARE(after[pointer].dump(), std::string("\"128\""));
            else if (value.is_number())
                QCOMPARE(after[pointer].get<double>(), value.get<double>());
            else
                QVERIFY2(after[pointer] == value, pointer.c_str());
        }
        // Saving is stable: the same playground gives the same text.
        QCOMPARE(io::serializePlayground(saved), readText(folder / "saved.kpad.json"));
    }

    // Outputs whose order the kernel does not define: read, kept, written back as they were given.
    void readsAndWritesUnorderedOutputs() {
        auto root = nlohmann::json::parse(readText(fixtures() / "multiply_them.kpad.json"));
        root["args"][1]["direction"] = "inout";
        root["args"][2]["direction"] = "inout";
        root["check"]["outputs"] = {"dest", "a", "b"};
        root["check"]["unordered"] = {
            {"dest", "multiset"}, {"a", "multiset_per_row"}, {"b", {{"min", -1.5}, {"max", 255}}}};
        const model::Playground p = io::parsePlayground(root.dump(2), fixtures() / "unordered.kpad.json");
        using Kind = model::UnorderedSpec::Kind;
        QCOMPARE(p.check->unordered.size(), std::size_t{3});
        QCOMPARE(p.check->unordered.at("dest"), (model::UnorderedSpec{Kind::Multiset}));
        QCOMPARE(p.check->unordered.at("a"), (model::UnorderedSpec{Kind::MultisetPerRow}));
        QCOMPARE(p.check->unordered.at("b"), (model::UnorderedSpec{Kind::Range, -1.5, 255}));
        QVERIFY(p.check->extra.empty());

        const std::string text = io::serializePlayground(p);
        const auto saved = nlohmann::json::parse(text);
        QCOMPARE(saved["check"]["unordered"], root["check"]["unordered"]);
        QVERIFY(io::parsePlayground(text, fixtures() / "unordered.kpad.json") == p);
    }

    void savesPrettyJsonInTheDocumentsOrder() {
        const model::Playground p = io::readPlayground(fixtures() / "multiply_them.kpad.json");
        const std::string text = io::serializePlayground(p);
        QVERIFY(text.starts_with("{\n  \"format\": \"kernelpad/1\",\n  \"title\""));
        QVERIFY(text.find("\"kernel\"") < text.find("\"args\""));
        QVERIFY(text.find("\"args\"") < text.find("\"check\""));
        QVERIFY(text.ends_with("}\n"));
    }

    void failedSaveLeavesTheOldFile() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path file = folder / "p.kpad.json";
        writeText(file, "old contents");
        model::Playground p = io::readPlayground(fixtures() / "multiply_them.kpad.json");
        // A disk that fills up mid-write: files may not grow past 16 bytes (works as root too).
        struct rlimit previous {};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &previous) == 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit tiny = previous;
        tiny.rlim_cur = 16;
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &tiny) == 0);
        bool threw = false;
        try {
            io::writePlayground(p, file);
        } catch (const kp::Error&) {
            threw = true;
        }
        ::setrlimit(RLIMIT_FSIZE, &previous);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY2(threw, "a save that could not write the whole file must fail");
        QCOMPARE(readText(file), std::string("old contents"));
        QCOMPARE(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 1);
    }

    // A playground and its source are one save: when the second file cannot be written, the first is not
    // replaced either (before, the source was and the message said the file was unchanged).
    void failedSaveOfThePairLeavesBothOldFiles() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path file = folder / "p.kpad.json", source = folder / "multiply_them.cu";
        writeText(file, "old playground");
        writeText(source, "old source");
        model::Playground p = io::readPlayground(fixtures() / "multiply_them.kpad.json");
        p.source = "multiply_them.cu";
        p.code.reset();
        struct rlimit previous {};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &previous) == 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = previous;
        small.rlim_cur = 64; // the new source fits, the playground's JSON does not
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        std::string message;
        try {
            io::writePlayground(p, file, source, "__global__ void multiply_them() {}\n");
        } catch (const kp::Error& e) {
            message = e.what();
        }
        ::setrlimit(RLIMIT_FSIZE, &previous);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY2(message.find("p.kpad.json") != std::string::npos, message.c_str());
        QCOMPARE(readText(source), std::string("old source"));
        QCOMPARE(readText(file), std::string("old playground"));
        QCOMPARE(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 2);

        io::writePlayground(p, file, source, "__global__ void multiply_them() {}\n");
        QCOMPARE(readText(source), std::string("__global__ void multiply_them() {}\n"));
        QCOMPARE(io::readPlayground(file).source.value_or(""), std::string("multiply_them.cu"));
    }

    // Found by fuzz_playgroundfile (a number beyond double escaped as nlohmann's out_of_range) and by
    // reading the code (deep nesting overflowed the stack).
    void refusesHugeNumbersAndDeepNesting() {
        const fs::path file = "/tmp/p/x.kpad.json";
        const std::string overflow =
            readText(fs::path(KP_SOURCE_DIR) / "tests/io/data/playground-crashes/number-overflow.kpad.json");
        const std::string overflowProblems = problemsOf(overflow, file);
        QVERIFY2(overflowProblems.find("x.kpad.json:2:22: invalid JSON: the number 1e3080 is too large") !=
                     std::string::npos,
                 overflowProblems.c_str());
        const std::string deep = R"({"format":"kernelpad/1","kernel":"k","code":"","x":)" +
                                 std::string(100000, '[') + std::string(100000, ']') + "}";
        const std::string deepProblems = problemsOf(deep, file);
        QVERIFY2(deepProblems.find("nests more than 256 levels") != std::string::npos, deepProblems.c_str());
    }

    void listsEveryProblemOfAFile() {
        auto root = nlohmann::json::parse(readText(fixtures() / "multiply_them.kpad.json"));
        root["args"][0]["array"]["dtype"] = "float33";
        root["args"][1]["array"]["shape"][0] = -3;
        root["launch"]["block"] = "big";
        try {
            io::parsePlayground(root.dump(), "/tmp/p/many.kpad.json");
            QFAIL("the file was accepted");
        } catch (const io::PlaygroundError& error) {
            QCOMPARE(error.problems().size(), std::size_t{3});
            QCOMPARE(error.file(), std::string("/tmp/p/many.kpad.json"));
            const std::string text = error.what();
            QCOMPARE(std::count(text.begin(), text.end(), '\n'), 2);
            QVERIFY(text.find("/tmp/p/many.kpad.json: args[0].array.dtype: unknown dtype \"float33\"") !=
                    std::string::npos);
            QVERIFY(
                text.find("args[1].array.shape[0]: expected a positive integer of at most 2^36, found -3") !=
                std::string::npos);
            QVERIFY(text.find("launch.block:") != std::string::npos);
        }
    }

    // Each row patches the valid example (RFC 6902) and names what the message must say.
    void rejectsBadField_data() {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QStringList>("fragments");
        auto row = [](const char* name, const char* patch, const QStringList& fragments) {
            QTest::newRow(name) << QString(patch) << fragments;
        };
        row("unknown dtype", R"p([{"op":"replace","path":"/args/1/array/dtype","value":"float33"}])p",
            {"args[1].array.dtype", "\"float33\"", "int8, uint8", "float16, float32, float64, bool, bfloat16",
             "a CUDA vector type (char1 .. double4"});
        row("shape with 4 dims", R"p([{"op":"replace","path":"/args/1/array/shape","value":[2,2,2,2]}])p",
            {"args[1].array.shape:", "1 to 3 positive integers", "of 4"});
        row("negative dim", R"p([{"op":"replace","path":"/args/2/array/shape","value":[4,-3]}])p",
            {"args[2].array.shape[1]: expected a positive integer of at most 2^36, found -3"});
        row("zero dim", R"p([{"op":"replace","path":"/args/2/array/shape","value":[0]}])p",
            {"args[2].array.shape[0]: expected a positive integer of at most 2^36, found 0"});
        row("huge array", R"p([{"op":"replace","path":"/args/2/array/shape","value":[65536,65536,65536]}])p",
            {"args[2].array.shape:", "64 GiB"});
        row("missing kernel", R"p([{"op":"remove","path":"/kernel"}])p", {"kernel: missing", "__global__"});
        row("both source and code", R"p([{"op":"add","path":"/code","value":"__global__ void k() {}"}])p",
            {"code:", "both \"source\" and \"code\""});
        row("neither source nor code", R"p([{"op":"remove","path":"/source"}])p",
            {"source: missing", "\"code\""});
        row("unknown direction", R"p([{"op":"replace","path":"/args/0/direction","value":"sideways"}])p",
            {"args[0].direction", "\"in\", \"out\" or \"inout\"", "\"sideways\""});
        row("size of unknown argument", R"p([{"op":"replace","path":"/args/3/value","value":"size(nope)"}])p",
            {"args[3].value", "size(nope)", "\"nope\"", "dest, a, b"});
        row("size of a scalar", R"p([{"op":"replace","path":"/args/3/value","value":"rows(n)"}])p",
            {"args[3].value", "scalar argument \"n\""});
        row("value not a dimension", R"p([{"op":"replace","path":"/args/3/value","value":"length(a)"}])p",
            {"args[3].value", "size(x), rows(x), cols(x), depth(x)", "\"length(a)\""});
        row("scalar value out of range", R"p([{"op":"replace","path":"/args/3/value","value":3000000000}])p",
            {"args[3].value", "3000000000", "int32", "out of range"});
        row("check names an in argument", R"p([{"op":"replace","path":"/check/outputs/0","value":"a"}])p",
            {"check.outputs[0]", "\"a\" is an in argument", "inout"});
        row("check names nothing", R"p([{"op":"replace","path":"/check/outputs/0","value":"zz"}])p",
            {"check.outputs[0]", "\"zz\"", "dest"});
        row("grid autox", R"p([{"op":"replace","path":"/launch/grid","value":"autox"}])p",
            {"launch.grid", "\"auto\" or [x, y, z]", "\"autox\""});
        row("grid of 4", R"p([{"op":"replace","path":"/launch/grid","value":[1,1,1,1]}])p",
            {"launch.grid", "1 to 3"});
        row("negative shared bytes", R"p([{"op":"replace","path":"/launch/shared_bytes","value":-1}])p",
            {"launch.shared_bytes", "found -1"});
        row("source escapes with ..", R"p([{"op":"replace","path":"/source","value":"../../etc/passwd"}])p",
            {"source:", "\"../../etc/passwd\"", "leaves the playground's folder"});
        row("init file escapes",
            R"p([{"op":"replace","path":"/args/2/init/file","value":"data/../../b.npy"}])p",
            {"args[2].init.file", "leaves the playground's folder"});
        row("absolute reference", R"p([{"op":"replace","path":"/reference/source","value":"/etc/passwd"}])p",
            {"reference.source", "is absolute"});
        row("absolute lesson", R"p([{"op":"replace","path":"/lesson","value":"/home/x/README.md"}])p",
            {"lesson:", "is absolute"});
        row("format kernelpad/2", R"p([{"op":"replace","path":"/format","value":"kernelpad/2"}])p",
            {"format:", "\"kernelpad/2\"", "newer Kernelpad"});
        row("format missing", R"p([{"op":"remove","path":"/format"}])p", {"format: missing", "kernelpad/1"});
        row("format foreign", R"p([{"op":"replace","path":"/format","value":"notebook"}])p",
            {"format: expected \"kernelpad/1\", found \"notebook\""});
        row("init on an out argument", R"p([{"op":"add","path":"/args/0/init","value":"ones"}])p",
            {"args[0].init", "out argument", "inout"});
        row("unknown init kind", R"p([{"op":"replace","path":"/args/1/init","value":{"poisson":3}}])p",
            {"args[1].init", "constant, range, random, formula, file"});
        row("two init kinds",
            R"p([{"op":"replace","path":"/args/1/init","value":{"constant":3,"formula":"i"}}])p",
            {"args[1].init", "both"});
        row("unknown distribution", R"p([{"op":"replace","path":"/args/1/init/random","value":"cauchy"}])p",
            {"args[1].init.random", "\"uniform\" or \"normal\"", "\"cauchy\""});
        row("negative seed", R"p([{"op":"replace","path":"/args/1/init/seed","value":-4}])p",
            {"args[1].init.seed", "found -4"});
        row("negative stddev", R"p([{"op":"replace","path":"/args/1/init/stddev","value":-1}])p",
            {"args[1].init.stddev"});
        row("bad formula",
            R"p([{"op":"replace","path":"/args/1/init","value":{"formula":"sin(i*0.1) + x"}}])p",
            {"args[1].init.formula", "sin(i*0.1) + x", "character 14", "\"x\""});
        row("init file not npy or csv", R"p([{"op":"replace","path":"/args/2/init/file","value":"b.txt"}])p",
            {"args[2].init.file", ".npy nor a .csv"});
        row("argument name not an identifier",
            R"p([{"op":"replace","path":"/args/0/name","value":"../out"}])p",
            {"args[0].name", "C identifier", "\"../out\""});
        row("duplicate argument names", R"p([{"op":"replace","path":"/args/1/name","value":"dest"}])p",
            {"args[1].name", "args[0]"});
        row("array and scalar", R"p([{"op":"add","path":"/args/0/scalar","value":{"dtype":"int32"}}])p",
            {"args[0]:", "both \"array\" and \"scalar\""});
        row("scalar without value", R"p([{"op":"remove","path":"/args/3/value"}])p",
            {"args[3].value: missing"});
        row("scalar with direction", R"p([{"op":"add","path":"/args/3/direction","value":"in"}])p",
            {"args[3].direction", "by value"});
        row("define with bad name", R"p([{"op":"add","path":"/compile/defines/2X","value":"1"}])p",
            {"compile.defines.2X"});
        row("define not text", R"p([{"op":"add","path":"/compile/defines/X","value":[1]}])p",
            {"compile.defines.X", "a string or a number"});
        row("negative rtol", R"p([{"op":"replace","path":"/check/rtol","value":-0.1}])p", {"check.rtol"});
        row("unordered not an object", R"p([{"op":"add","path":"/check/unordered","value":"multiset"}])p",
            {"check.unordered: expected an object"});
        row("unordered unknown kind",
            R"p([{"op":"add","path":"/check/unordered","value":{"dest":"shuffled"}}])p",
            {"check.unordered.dest:", R"("multiset", "multiset_per_row" or {"min": a, "max": b})",
             "\"shuffled\""});
        row("range upside down",
            R"p([{"op":"add","path":"/check/unordered","value":{"dest":{"min":5,"max":1}}}])p",
            {"check.unordered.dest:", "min 5 is above max 1"});
        row("range without max", R"p([{"op":"add","path":"/check/unordered","value":{"dest":{"min":5}}}])p",
            {"check.unordered.dest:", "found an object"});
        row("range with a step",
            R"p([{"op":"add","path":"/check/unordered","value":{"dest":{"min":0,"max":1,"step":1}}}])p",
            {"check.unordered.dest.step: unknown member"});
        row("unordered in argument", R"p([{"op":"add","path":"/check/unordered","value":{"a":"multiset"}}])p",
            {"check.unordered.a:", "\"a\" is not an out or inout array", "dest"});
        row("unordered output not checked",
            R"p([{"op":"add","path":"/args/1/direction","value":"inout"},
                 {"op":"add","path":"/check/unordered","value":{"a":"multiset"}}])p",
            {"check.unordered.a:", "not among check.outputs"});
        row("args not an array", R"p([{"op":"replace","path":"/args","value":{"a":1}}])p",
            {"args: expected an array"});
        row("argument not an object", R"p([{"op":"replace","path":"/args/2","value":7}])p",
            {"args[2]: expected an object"});
    }
    void rejectsBadField() {
        QFETCH(QString, patch);
        QFETCH(QStringList, fragments);
        const auto root = nlohmann::json::parse(readText(fixtures() / "multiply_them.kpad.json"));
        const auto bad = root.patch(nlohmann::json::parse(patch.toStdString()));
        const std::string message = problemsOf(bad.dump(2), fixtures() / "bad.kpad.json");
        QVERIFY2(!message.empty(), "the file was accepted");
        QVERIFY2(message.find("bad.kpad.json: ") != std::string::npos, message.c_str());
        for (const QString& fragment : fragments)
            QVERIFY2(message.find(fragment.toStdString()) != std::string::npos,
                     (message + "\n  lacks: " + fragment.toStdString()).c_str());
    }

    // A program's fields, each wrong in its own way, with the path of the field to fix.
    void rejectsBadProgramField_data() {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("fragment");
        const auto row = [](const char* name, const char* patch, const char* fragment) {
            QTest::newRow(name) << QString(patch) << QString(fragment);
        };
        row("a kernel beside steps", R"p([{"op":"add","path":"/kernel","value":"k"}])p",
            "kernel: a playground with steps launches its kernels in its \"launch\" steps; remove "
            "\"kernel\"");
        row("buffers without steps",
            R"p([{"op":"remove","path":"/steps"},{"op":"add","path":"/kernel","value":"k"}])p",
            "buffers: belongs to a program: add \"steps\" that use it, or remove it");
        row("no kind of step", R"p([{"op":"replace","path":"/steps/1","value":{"title":"x"}}])p",
            "steps[1]: names no step; expected one of \"launch\", \"copy\"");
        row("two kinds", R"p([{"op":"add","path":"/steps/1/copy","value":{"from":"a","to":"scratch"}}])p",
            "steps[1]: names 2 kinds of step; a step is one of them");
        row("launch without args", R"p([{"op":"remove","path":"/steps/1/launch/args"}])p",
            "steps[1].launch.args: missing; expected one entry per kernel parameter");
        row("grid of four", R"p([{"op":"replace","path":"/steps/1/launch/grid","value":[1,1,1,1]}])p",
            "steps[1].launch.grid: expected \"auto\" or [x, y, z]");
        row("an expression that is an object",
            R"p([{"op":"replace","path":"/steps/1/launch/block/0","value":{}}])p",
            "steps[1].launch.block[0]: expected a number or an expression");
        row("swap of three", R"p([{"op":"replace","path":"/steps/2/steps/3/swap","value":["a","b","c"]}])p",
            "steps[2].steps[3].swap: expected the two buffers to swap");
        row("a loop without an end", R"p([{"op":"replace","path":"/steps/3/repeat","value":{}}])p",
            "steps[3].repeat: needs \"times\" (a number of passes) or \"while\"");
        row("a loop without steps", R"p([{"op":"remove","path":"/steps/3/steps"}])p",
            "steps[3].steps: missing; a repeat runs the steps listed here");
        row("steps in a copy", R"p([{"op":"add","path":"/steps/2/steps/1/steps","value":[]}])p",
            "steps[2].steps[1].steps: only a repeat holds steps");
        row("symbol with both", R"p([{"op":"add","path":"/steps/0/symbol/from","value":"a"}])p",
            "steps[0].symbol: give either \"from\" (a buffer to copy) or \"values\" (numbers), one of them");
        row("buffer both kinds", R"p([{"op":"add","path":"/buffers/0/view","value":{"of":"a"}}])p",
            "buffers[0]: needs one of \"array\"");
        row("view of nothing", R"p([{"op":"remove","path":"/buffers/1/view/of"}])p",
            "buffers[1].view.of: missing; expected the buffer the view is part of");
        row("bad set name", R"p([{"op":"replace","path":"/steps/3/steps/0/set","value":{"2x":1}}])p",
            "steps[3].steps[0].set.2x: a variable's name is letters, digits and _");
        row("empty steps", R"p([{"op":"replace","path":"/steps","value":[]}])p",
            "steps: is empty; expected at least one step");
    }
    void rejectsBadProgramField() {
        QFETCH(QString, patch);
        QFETCH(QString, fragment);
        const auto root = nlohmann::json::parse(readText(fixtures() / "program.kpad.json"));
        QCOMPARE(problemsOf(root.dump(), fixtures() / "program.kpad.json"), std::string());
        const auto bad = root.patch(nlohmann::json::parse(patch.toStdString()));
        const std::string message = problemsOf(bad.dump(2), fixtures() / "bad.kpad.json");
        QVERIFY2(message.find(fragment.toStdString()) != std::string::npos,
                 (message + "\n  lacks: " + fragment.toStdString()).c_str());
    }

    void rejectsUnreadableFile_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("fragments");
        QTest::newRow("invalid JSON with line and column")
            << QByteArray("{\n  \"format\": \"kernelpad/1\",\n  \"kernel\" \"k\"\n}")
            << QStringList{"bad.kpad.json:3:", "invalid JSON", "syntax error", "expected ':'"};
        QTest::newRow("truncated file") << QByteArray("{\n  \"format\": \"kernelpad/1\",\n  \"args\": [")
                                        << QStringList{"bad.kpad.json:3:", "invalid JSON", "cut short"};
        QTest::newRow("empty file") << QByteArray("") << QStringList{"bad.kpad.json: the file is empty"};
        QTest::newRow("blank file") << QByteArray(" \n\t\n") << QStringList{"the file is empty"};
        QTest::newRow("binary garbage")
            << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
            << QStringList{"bad.kpad.json:3:1:", "not a text file"}; // \r\n and \n end lines 1 and 2
        QTest::newRow("invalid bytes")
            << QByteArray("\xff\xfe{}") << QStringList{"bad.kpad.json:1:1: invalid JSON"};
        QTest::newRow("array at top level")
            << QByteArray("[1, 2]") << QStringList{"holds an array, not a playground"};
    }
    void rejectsUnreadableFile() {
        QFETCH(QByteArray, content);
        QFETCH(QStringList, fragments);
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "bad.kpad.json";
        writeText(file, content.toStdString());
        std::string message;
        try {
            io::readPlayground(file);
        } catch (const io::PlaygroundError& error) {
            message = error.what();
            QCOMPARE(error.problems().size(), std::size_t{1});
        }
        QVERIFY2(!message.empty(), "the file was accepted");
        for (const QString& fragment : fragments)
            QVERIFY2(message.find(fragment.toStdString()) != std::string::npos,
                     (message + "\n  lacks: " + fragment.toStdString()).c_str());
    }

    void rejectsMissingFile() {
        QVERIFY_THROWS_EXCEPTION(kp::InputError, io::readPlayground("/nonexistent/p.kpad.json"));
    }
};

QTEST_APPLESS_MAIN(TestPlaygroundFile)
#include "tst_playgroundfile.moc"
