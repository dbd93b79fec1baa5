// kernelpad-cli sweep as a user calls it: the CSV (one row per point and backend, its columns), the JSON
// that the core reads back, options over the playground's stored "sweep" member, and the exit codes and
// messages for bad input, compile errors, rows that cannot run and a missing GPU. The CPU parts run in CI
// in a few seconds; the crossover summary needs the GPU machine.
#include "../TestSupport.h"
#include "../cuda/GpuTestSupport.h"
#include "core/run/SweepResult.h"
#include "core/sandbox/Subprocess.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace kp;

namespace {

const std::string kSample = std::string(KP_SOURCE_DIR) + "/samples/multiply_them/multiply_them.kpad.json";
const std::vector<std::string> kColumns = {
    "parameter",      "value",         "elements",         "block",          "grid",          "backend",
    "repeats",        "kernel_min_ms", "kernel_median_ms", "kernel_max_ms",  "h2d_median_ms", "d2h_median_ms",
    "with_copies_ms", "bytes",         "gb_per_s",         "elements_per_s", "gflop_per_s",   "check",
    "error"};

sandbox::SubprocessResult cli(std::vector<std::string> arguments, const std::string& workingDirectory = {}) {
    arguments.insert(arguments.begin(), std::string(KP_BINARY_DIR) + "/app/kernelpad-cli");
    return sandbox::runProcess(arguments, workingDirectory);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The CSV as the command writes it (RFC 4180: a cell with a comma, quote or line break is quoted).
struct Csv {
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;

    std::vector<const std::map<std::string, std::string>*> rowsOf(const std::string& backend) const {
        std::vector<const std::map<std::string, std::string>*> out;
        for (const auto& row : rows)
            if (row.at("backend") == backend) out.push_back(&row);
        return out;
    }
};

std::vector<std::vector<std::string>> records(const std::string& text) {
    std::vector<std::vector<std::string>> out;
    std::vector<std::string> record;
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record.push_back(std::move(cell));
            cell.clear();
        } else if (c == '\n') {
            record.push_back(std::move(cell));
            cell.clear();
            out.push_back(std::move(record));
            record.clear();
        } else {
            cell += c;
        }
    }
    if (!cell.empty() || !record.empty()) {
        record.push_back(std::move(cell));
        out.push_back(std::move(record));
    }
    return out;
}

// Throws on a row whose cell count differs from the header's, so that a test fails with the line.
Csv parseCsv(const std::string& text) {
    Csv csv;
    auto all = records(text);
    if (all.empty()) throw std::runtime_error("no CSV at all");
    csv.header = all.front();
    for (std::size_t i = 1; i < all.size(); ++i) {
        if (all[i].size() != csv.header.size())
            throw std::runtime_error("CSV line " + std::to_string(i + 1) + " has " +
                                     std::to_string(all[i].size()) + " cells, the header " +
                                     std::to_string(csv.header.size()));
        std::map<std::string, std::string> row;
        for (std::size_t c = 0; c < csv.header.size(); ++c)
            row[csv.header[c]] = all[i][c];
        csv.rows.push_back(std::move(row));
    }
    return csv;
}

// The CSV among what runProcess collected through one pipe for stdout and stderr: the progress lines
// and the summary are around it. Its lines are the header and the rows.
std::string csvLinesOf(const std::string& output) {
    const std::string header = "parameter,value,";
    std::istringstream lines(output);
    std::string text, line;
    while (std::getline(lines, line))
        if (line.starts_with(header) || line.starts_with("size,") || line.starts_with("block,"))
            text += line + "\n";
    return text;
}

// The values of one backend's rows, in file order.
std::vector<long long> valuesOf(const Csv& csv, const std::string& backend, const char* column = "value") {
    std::vector<long long> out;
    for (const auto* row : csv.rowsOf(backend))
        out.push_back(std::stoll(row->at(column)));
    return out;
}

double number(const std::map<std::string, std::string>& row, const char* column) {
    return std::stod(row.at(column));
}

// A playground with inline code in `dir`, so that the tests need no files but their own.
std::string writePlayground(const QTemporaryDir& dir, const std::string& name, const std::string& code) {
    nlohmann::json playground = {
        {"format", "kernelpad/1"},
        {"kernel", "twice"},
        {"code", code},
        {"launch", {{"grid", "auto"}, {"block", {128}}}},
        {"args",
         {{{"name", "d"}, {"array", {{"dtype", "float32"}, {"shape", {1000}}}}, {"direction", "out"}},
          {{"name", "a"}, {"array", {{"dtype", "float32"}, {"shape", {1000}}}}, {"init", "ones"}},
          {{"name", "n"}, {"scalar", {{"dtype", "int32"}}}, {"value", "size(d)"}}}}};
    std::string file = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(file) << playground.dump(2);
    return file;
}

const char* kTwice = "__global__ void twice(float* d, const float* a, int n) {\n"
                     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i < n) d[i] = 2 * a[i];\n"
                     "}\n";

#define EXPECT_EXIT(result, code)                                                                            \
    QVERIFY2((result).exitCode == (code),                                                                    \
             ("exit " + std::to_string((result).exitCode) + ":\n" + (result).output).c_str())

#define EXPECT_OUTPUT(result, fragment)                                                                      \
    QVERIFY2((result).output.find(fragment) != std::string::npos,                                            \
             ("missing \"" + std::string(fragment) + "\" in:\n" + (result).output).c_str())

// Declares `csv` and parses a CSV file or text into it, failing the test with the parser's reason.
#define PARSE_CSV(text)                                                                                      \
    Csv csv;                                                                                                 \
    try {                                                                                                    \
        csv = parseCsv(text);                                                                                \
    } catch (const std::exception& e) {                                                                      \
        QFAIL(e.what());                                                                                     \
    }

} // namespace

class TestSweepCommand : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    QTemporaryDir out_; // CSV and JSON files, one name per test

    std::string outFile(const char* name) const { return out_.filePath(name).toStdString(); }

private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid() && out_.isValid());
        qputenv("KERNELPAD_CACHE_DIR", cache_.path().toUtf8());
        qunsetenv("KERNELPAD_SAMPLES_DIR");
    }

    // CI and GPU alike: the CPU backends and the reference, at most a million elements.
    void cpuSweepWritesOneRowPerPointAndBackend_data() {
        QTest::addColumn<QString>("playground");
        QTest::addColumn<QString>("workingDirectory");
        QTest::newRow("by name") << "multiply_them" << QString();
        QTest::newRow("by absolute path") << QString::fromStdString(kSample) << QString();
        QTest::newRow("by relative path") << "samples/multiply_them/multiply_them.kpad.json" << KP_SOURCE_DIR;
    }
    void cpuSweepWritesOneRowPerPointAndBackend() {
        QFETCH(QString, playground);
        QFETCH(QString, workingDirectory);
        const auto csvFile = outFile("rows.csv");
        const auto r = cli({"sweep", playground.toStdString(), "--backends", "cpu,cpu:1,reference", "--to",
                            "1000000", "--steps", "4", "--repeat", "2", "--csv", csvFile},
                           workingDirectory.toStdString());
        EXPECT_EXIT(r, 0);
        // With --csv the summary is on stdout.
        EXPECT_OUTPUT(r, "multiply_them: 12 rows, elements of dest from 1,000 to 1,000,000");
        PARSE_CSV(test::readText(csvFile));
        QCOMPARE(csv.header, kColumns);
        QCOMPARE(csv.rows.size(), std::size_t{4 * 3});

        // Within a point the reference runs first, then the CPU backends in the order given.
        const std::vector<std::string> order = {"reference", "cpu", "cpu:1"};
        for (std::size_t i = 0; i < csv.rows.size(); ++i)
            QCOMPARE(csv.rows[i].at("backend"), order[i % 3]);
        // The stored sweep's log scale from 1,000, to --to in --steps points.
        const std::vector<long long> values = {1000, 10000, 100000, 1000000};
        for (const auto& backend : order) {
            QCOMPARE(valuesOf(csv, backend), values);
            QCOMPARE(valuesOf(csv, backend, "elements"), values);
        }

        for (const auto& row : csv.rows) {
            const std::string where = row.at("backend") + " at " + row.at("value");
            QCOMPARE(row.at("parameter"), std::string("size"));
            QCOMPARE(row.at("repeats"), std::string("2"));
            QCOMPARE(row.at("block"), std::string("400x1x1"));
            const auto elements = std::stoull(row.at("elements"));
            QCOMPARE(row.at("grid"), std::to_string((elements + 399) / 400) + "x1x1"); // grid "auto"
            const double min = number(row, "kernel_min_ms");
            const double median = number(row, "kernel_median_ms");
            const double max = number(row, "kernel_max_ms");
            QVERIFY2(median > 0, where.c_str());
            QVERIFY2(min <= median && median <= max, where.c_str());
            // Host backends copy nothing: no copy columns, and "with copies" is the kernel alone.
            QVERIFY2(row.at("h2d_median_ms").empty() && row.at("d2h_median_ms").empty(), where.c_str());
            QCOMPARE(number(row, "with_copies_ms"), median);
            // dest out, a and b in: three float arrays moved once.
            QCOMPARE(std::stoull(row.at("bytes")), 12 * elements);
            QVERIFY2(number(row, "gb_per_s") > 0 && number(row, "elements_per_s") > 0, where.c_str());
            // The sample stores flops "n": one operation per element.
            QVERIFY2(!row.at("gflop_per_s").empty(), where.c_str());
            QVERIFY2(std::fabs(number(row, "gflop_per_s") * 1e9 / number(row, "elements_per_s") - 1) < 1e-3,
                     where.c_str());
            QCOMPARE(row.at("check"), std::string(row.at("backend") == "reference" ? "" : "passed"));
            QCOMPARE(row.at("error"), std::string());
        }
    }

    void withoutCsvTheCsvGoesToStandardOutput() {
        const auto r = cli({"sweep", "multiply_them", "--backends", "cpu,reference", "--to", "100000",
                            "--steps", "3", "--repeat", "1"});
        EXPECT_EXIT(r, 0);
        // runProcess reads stdout and stderr through one pipe: progress, summary and CSV are all here.
        EXPECT_OUTPUT(r, "[1/6] reference at 1,000: kernel ");
        EXPECT_OUTPUT(r, "[2/6] cpu at 1,000: kernel ");
        EXPECT_OUTPUT(r, "ms, check passed\n");
        EXPECT_OUTPUT(r, "[6/6] cpu at 100,000: kernel ");
        EXPECT_OUTPUT(r, "multiply_them: 6 rows, elements of dest from 1,000 to 100,000\n");
        // The CSV's lines are whole: the header, then a row per point and backend.
        std::string header;
        for (const auto& column : kColumns)
            header += (header.empty() ? "" : ",") + column;
        EXPECT_OUTPUT(r, header + "\n");
        PARSE_CSV(csvLinesOf(r.output));
        QCOMPARE(csv.rows.size(), std::size_t{6});
        QCOMPARE(valuesOf(csv, "cpu"), (std::vector<long long>{1000, 10000, 100000}));
    }
    void quietLeavesOutTheProgressLines() {
        const auto r = cli({"sweep", "multiply_them", "--backends", "cpu", "--to", "10000", "--steps", "2",
                            "--repeat", "1", "--quiet"});
        EXPECT_EXIT(r, 0);
        QVERIFY2(!contains(r.output, "[1/2]"), r.output.c_str());
        EXPECT_OUTPUT(r, "multiply_them: 2 rows");
    }

    void jsonReadsBackAsASweepResult() {
        const auto csvFile = outFile("json.csv");
        const auto jsonFile = outFile("sweep.json");
        const auto r =
            cli({"sweep", "multiply_them", "--backends", "cpu,reference", "--to", "100000", "--steps", "3",
                 "--repeat", "2", "--quiet", "--csv", csvFile, "--json", jsonFile});
        EXPECT_EXIT(r, 0);
        run::SweepResult result;
        try {
            const auto stored = nlohmann::json::parse(test::readText(jsonFile));
            result = run::SweepResult::fromJson(stored.at("results"));
            result.spec = run::SweepSpec::fromJson(stored);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        PARSE_CSV(test::readText(csvFile));
        QCOMPARE(result.rows.size(), csv.rows.size());
        QCOMPARE(result.rows.size(), std::size_t{6});
        QCOMPARE(result.kernel, std::string("multiply_them"));
        QCOMPARE(result.array, std::string("dest"));
        QCOMPARE(result.backends.size(), std::size_t{2});
        QCOMPARE(result.backends[0].id, std::string("cpu"));
        QCOMPARE(result.backends[1].id, std::string("reference"));
        QVERIFY(!result.cancelled);
        for (const auto& row : result.rows) {
            QCOMPARE(row.kernelMs.size(), std::size_t{2}); // every repeat, where the CSV has min, median, max
            QVERIFY(row.flops.has_value());                // the sample's formula "n"
            QCOMPARE(*row.flops, static_cast<double>(row.elements));
        }
        // What the core writes as CSV from the JSON is the CSV the command wrote.
        QCOMPARE(result.toCsv(), test::readText(csvFile));
    }
    // --json writes the sweep as a playground keeps it: its settings, and the rows under "results", so a
    // block sweep reads back as a block sweep.
    void jsonKeepsWhatWasSwept() {
        const auto csvFile = outFile("block-json.csv");
        const auto jsonFile = outFile("block.json");
        const auto r =
            cli({"sweep", "multiply_them", "--parameter", "block", "--values", "64,128", "--backends",
                 "cpu:1", "--repeat", "1", "--quiet", "--csv", csvFile, "--json", jsonFile});
        EXPECT_EXIT(r, 0);
        run::SweepResult result;
        try {
            const auto stored = nlohmann::json::parse(test::readText(jsonFile));
            result = run::SweepResult::fromJson(stored.at("results"));
            result.spec = run::SweepSpec::fromJson(stored);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QCOMPARE(result.rows.size(), std::size_t{2});
        QCOMPARE(result.spec.parameter, run::SweepParameter::BlockSize);
        QCOMPARE(result.toCsv(), test::readText(csvFile));
    }

    // Options over the playground's stored "sweep" (1,000 to 10 million elements in 9 log steps, repeat 5).
    void optionsOverrideTheStoredSweep_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QList<qlonglong>>("values");
        QTest::newRow("--to --steps")
            << QStringList{"--to", "100000", "--steps", "3"} << QList<qlonglong>{1000, 10000, 100000};
        QTest::newRow("--from --to --steps") << QStringList{"--from", "2000", "--to", "32000", "--steps", "5"}
                                             << QList<qlonglong>{2000, 4000, 8000, 16000, 32000};
        QTest::newRow("--values") << QStringList{"--values", "1000,5000,20000"}
                                  << QList<qlonglong>{1000, 5000, 20000};
        QTest::newRow("--values unsorted")
            << QStringList{"--values", "20000,1000,5000"} << QList<qlonglong>{1000, 5000, 20000};
        QTest::newRow("--scale linear")
            << QStringList{"--from", "1000", "--to", "4000", "--steps", "4", "--scale", "linear"}
            << QList<qlonglong>{1000, 2000, 3000, 4000};
        QTest::newRow("--scale log") << QStringList{"--from",  "1000", "--to",    "8000",
                                                    "--steps", "4",    "--scale", "log"}
                                     << QList<qlonglong>{1000, 2000, 4000, 8000};
    }
    void optionsOverrideTheStoredSweep() {
        QFETCH(QStringList, options);
        QFETCH(QList<qlonglong>, values);
        std::vector<std::string> arguments = {"sweep", "multiply_them", "--backends", "cpu:1", "--repeat",
                                              "1",     "--quiet"};
        for (const auto& option : options)
            arguments.push_back(option.toStdString());
        const auto r = cli(arguments);
        EXPECT_EXIT(r, 0);
        PARSE_CSV(csvLinesOf(r.output));
        QCOMPARE(valuesOf(csv, "cpu:1"), std::vector<long long>(values.begin(), values.end()));
        QCOMPARE(csv.rows.size(), static_cast<std::size_t>(values.size()));
    }

    void blockSweepKeepsTheSizeAndSetsBlockDimX() {
        const auto csvFile = outFile("block.csv");
        const auto r = cli({"sweep", "multiply_them", "--parameter", "block", "--values", "64,128,256",
                            "--backends", "cpu,reference", "--repeat", "1", "--csv", csvFile});
        EXPECT_EXIT(r, 0);
        EXPECT_OUTPUT(r, "multiply_them: 6 rows, threads per block (blockDim.x) from 64 to 256");
        EXPECT_OUTPUT(r, "[1/6] reference at 64: ");
        PARSE_CSV(test::readText(csvFile));
        QCOMPARE(csv.rows.size(), std::size_t{6});
        const std::vector<std::string> blocks = {"64x1x1", "128x1x1", "256x1x1"};
        const std::vector<std::string> grids = {"7x1x1", "4x1x1", "2x1x1"}; // grid "auto" over 400 elements
        for (const auto* backend : {"reference", "cpu"}) {
            const auto rows = csv.rowsOf(backend);
            QCOMPARE(rows.size(), std::size_t{3});
            for (std::size_t i = 0; i < rows.size(); ++i) {
                QCOMPARE(rows[i]->at("parameter"), std::string("block"));
                QCOMPARE(rows[i]->at("block"), blocks[i]);
                QCOMPARE(rows[i]->at("grid"), grids[i]);
                QCOMPARE(rows[i]->at("elements"), std::string("400")); // the playground's own size
                QCOMPARE(rows[i]->at("error"), std::string());
            }
        }
        QCOMPARE(valuesOf(csv, "cpu"), (std::vector<long long>{64, 128, 256}));
        for (const auto* row : csv.rowsOf("cpu"))
            QCOMPARE(row->at("check"), std::string("passed"));
    }
    // The stored range is for sizes (1,000 to 10 million): a block sweep must not take it over.
    void blockSweepWithoutARangeUsesTheBlockDefaults() {
        const auto r = cli({"sweep", "multiply_them", "--parameter", "block", "--backends", "cpu:1",
                            "--repeat", "1", "--quiet"});
        EXPECT_EXIT(r, 0);
        PARSE_CSV(csvLinesOf(r.output));
        QCOMPARE(valuesOf(csv, "cpu:1"), (std::vector<long long>{32, 64, 128, 256, 512, 1024}));
    }

    void repeatSetsTheTimedRunsOfEveryRow() {
        const auto r = cli({"sweep", "multiply_them", "--backends", "cpu,reference", "--to", "10000",
                            "--steps", "2", "--repeat", "3", "--warmup", "0", "--quiet"});
        EXPECT_EXIT(r, 0);
        PARSE_CSV(csvLinesOf(r.output));
        QCOMPARE(csv.rows.size(), std::size_t{4});
        for (const auto& row : csv.rows)
            QCOMPARE(row.at("repeats"), std::string("3"));
    }
    void flopsOverridesTheStoredFormula() {
        const auto r = cli({"sweep", "multiply_them", "--backends", "cpu:1", "--to", "10000", "--steps", "2",
                            "--repeat", "1", "--quiet", "--flops", "2*n"});
        EXPECT_EXIT(r, 0);
        PARSE_CSV(csvLinesOf(r.output));
        QCOMPARE(csv.rows.size(), std::size_t{2});
        for (const auto& row : csv.rows) {
            const double ratio = number(row, "gflop_per_s") * 1e9 / number(row, "elements_per_s");
            QVERIFY2(std::fabs(ratio - 2) < 2e-3, std::to_string(ratio).c_str());
        }
    }
    void aBackendNamedTwiceRunsOnce() {
        const auto r = cli({"sweep", "multiply_them", "--backends", "cpu:1,reference,cpu:1", "--to", "10000",
                            "--steps", "2", "--repeat", "1", "--quiet"});
        EXPECT_EXIT(r, 0);
        PARSE_CSV(csvLinesOf(r.output));
        QCOMPARE(csv.rows.size(), std::size_t{2 * 2});
        QCOMPARE(valuesOf(csv, "cpu:1"), (std::vector<long long>{1000, 10000}));
    }
    void arraySweepsTheNamedArray() {
        const auto r = cli({"sweep", "multiply_them", "--array", "b", "--backends", "cpu:1,reference", "--to",
                            "10000", "--steps", "2", "--repeat", "1", "--quiet"});
        EXPECT_EXIT(r, 0);
        EXPECT_OUTPUT(r, "multiply_them: 4 rows, elements of b from 1,000 to 10,000");
        PARSE_CSV(csvLinesOf(r.output));
        // dest, a and b have the same shape, so all three follow, and the check still passes.
        for (const auto* row : csv.rowsOf("cpu:1")) {
            QCOMPARE(std::stoull(row->at("bytes")), 12 * std::stoull(row->at("elements")));
            QCOMPARE(row->at("check"), std::string("passed"));
        }
    }

    // --values with --from/--to/--steps is refused, naming --values: sweeping one and dropping the other
    // without a word would sweep something the user did not ask for.
    void valuesAreNotDroppedSilentlyBesideARange() {
        const auto r = cli({"sweep", "multiply_them", "--backends", "cpu:1", "--values", "1000,5000,20000",
                            "--to", "20000", "--repeat", "1", "--quiet"});
        const bool refused = r.exitCode == 2 && contains(r.output, "--values");
        bool swept = false;
        if (r.exitCode == 0) {
            PARSE_CSV(csvLinesOf(r.output));
            swept = valuesOf(csv, "cpu:1") == std::vector<long long>{1000, 5000, 20000};
        }
        QVERIFY2(refused && !swept, r.output.c_str());
    }

    void badInputIsExitTwoNamingWhatIsWrong_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("fragments");
        const auto sweep = [](const QStringList& more) {
            return QStringList{"sweep", "multiply_them", "--backends", "cpu", "--quiet"} + more;
        };
        QTest::newRow("--from above --to")
            << sweep({"--from", "10", "--to", "1"}) << QStringList{"--to", "1 is below --from (10)"};
        QTest::newRow("--from 0") << sweep({"--from", "0", "--to", "1000"})
                                  << QStringList{"--from", "must be 1 or more, got 0"};
        QTest::newRow("unknown backend") << QStringList{"sweep", "multiply_them", "--backends", "cpu,gpu"}
                                         << QStringList{"--backends[1]", "\"gpu\" is not a backend", "cpu:N"};
        QTest::newRow("--steps 1") << sweep({"--to", "10000", "--steps", "1"})
                                   << QStringList{"--steps", "got 1"};
        QTest::newRow("--repeat 0") << sweep({"--to", "10000", "--steps", "2", "--repeat", "0"})
                                    << QStringList{"--repeat", "got 0"};
        QTest::newRow("unknown parameter")
            << sweep({"--parameter", "grid"}) << QStringList{"--parameter", "\"grid\" is not a parameter"};
        QTest::newRow("unknown scale")
            << sweep({"--scale", "cubic"}) << QStringList{"--scale", "\"cubic\" is not a scale"};
        QTest::newRow("unknown array")
            << sweep({"--array", "nope"}) << QStringList{"--array", "\"nope\"", "its arrays: dest, a, b"};
        QTest::newRow("bad flops") << sweep({"--flops", "2*m"}) << QStringList{"--flops", "\"2*m\""};
        QTest::newRow("values not numbers") << sweep({"--values", "1000,abc"}) << QStringList{"--values"};
        QTest::newRow("missing file") << QStringList{"sweep", QDir::tempPath() + "/nope/nope.kpad.json"}
                                      << QStringList{"nope.kpad.json"};
        QTest::newRow("unknown sample") << QStringList{"sweep", "no_such_sample"}
                                        << QStringList{"no sample named \"no_such_sample\"", "multiply_them"};
    }
    void badInputIsExitTwoNamingWhatIsWrong() {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, fragments);
        std::vector<std::string> argv;
        for (const auto& a : arguments)
            argv.push_back(a.toStdString());
        const auto r = cli(argv);
        EXPECT_EXIT(r, 2);
        for (const auto& fragment : fragments)
            EXPECT_OUTPUT(r, fragment.toStdString());
        QVERIFY2(!contains(r.output, "[1/"), "nothing runs before the input is found wrong");
    }
    void aCsvThatCannotBeWrittenIsBadInput() {
        const auto csvFile = outFile("no-such-folder/sweep.csv");
        const auto r = cli({"sweep", "multiply_them", "--backends", "cpu:1", "--to", "10000", "--steps", "2",
                            "--repeat", "1", "--quiet", "--csv", csvFile});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "--csv: ");
        EXPECT_OUTPUT(r, "No such file or directory");
        QVERIFY(!std::filesystem::exists(csvFile));
    }
    // A CSV that stops being written part way (a full disk; here a file size limit, with SIGXFSZ ignored so
    // that write() fails) is an input/output error, exit 6, not bad input.
    void aCsvCutShortIsAnInputOutputError() {
        const std::vector<std::string> sweep = {"sweep",   "multiply_them", "--backends", "cpu:1",    "--to",
                                                "100000",  "--steps",       "12",         "--repeat", "1",
                                                "--quiet", "--csv"};
        auto arguments = sweep;
        arguments.push_back(outFile("warm.csv")); // compiles the kernel into the cache, without a limit
        const auto warm = cli(arguments);
        EXPECT_EXIT(warm, 0);
        arguments = sweep;
        arguments.push_back(outFile("cut.csv"));
        arguments.insert(arguments.begin(),
                         {"/bin/bash", "-c", R"(trap '' XFSZ; ulimit -f 1; exec "$0" "$@")",
                          std::string(KP_BINARY_DIR) + "/app/kernelpad-cli"});
        const auto r = sandbox::runProcess(arguments);
        EXPECT_EXIT(r, 6);
        EXPECT_OUTPUT(r, "--csv: writing " + outFile("cut.csv") + " failed");
    }
    void referenceIsBadInputForAPlaygroundWithoutOne() {
        QTemporaryDir dir;
        const auto file = writePlayground(dir, "noref.kpad.json", kTwice);
        const auto r = cli({"sweep", file, "--backends", "cpu,reference", "--to", "10000", "--steps", "2"});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "--backends");
        QVERIFY2(r.output.find("parameter,value") == std::string::npos,
                 r.output.c_str()); // refused before any CSV
        EXPECT_OUTPUT(r, "\"reference\" is named but the playground has no reference");
    }
    // Without --backends: the CPU backend (and any GPU), never a reference the playground lacks; the CPU
    // backend on all cores is then the first, the one the others are checked against.
    void defaultBackendsLeaveOutAMissingReference() {
        QTemporaryDir dir;
        const auto file = writePlayground(dir, "noref.kpad.json", kTwice);
        const auto r = cli({"sweep", file, "--to", "10000", "--steps", "2", "--repeat", "1", "--quiet"});
        EXPECT_EXIT(r, 0);
        EXPECT_OUTPUT(r, "twice: ");
        PARSE_CSV(csvLinesOf(r.output));
        QVERIFY(csv.rowsOf("reference").empty());
        QCOMPARE(valuesOf(csv, "cpu"), (std::vector<long long>{1000, 10000}));
        for (const auto* row : csv.rowsOf("cpu"))
            QCOMPARE(row->at("check"), std::string());
    }

    void aKernelThatDoesNotCompileIsExitThree() {
        QTemporaryDir dir;
        std::string broken = kTwice;
        broken.replace(broken.find("2 * a[i]"), 8, "2 * bb[i]");
        const auto file = writePlayground(dir, "broken.kpad.json", broken);
        const auto r = cli({"sweep", file, "--backends", "cpu", "--to", "10000", "--steps", "2"});
        EXPECT_EXIT(r, 3);
        EXPECT_OUTPUT(r, "<code>:3:");
        EXPECT_OUTPUT(r, "bb");
        QVERIFY2(!contains(r.output, "[1/"), r.output.c_str());
    }

    void aRowThatCannotRunIsExitOneWithItsError() {
        const auto csvFile = outFile("over.csv");
        const auto r = cli({"sweep", "multiply_them", "--parameter", "block", "--values", "64,128,2048",
                            "--backends", "cpu,reference", "--repeat", "1", "--csv", csvFile});
        EXPECT_EXIT(r, 1);
        EXPECT_OUTPUT(r, "[6/6] cpu at 2,048: launch.block");
        EXPECT_OUTPUT(r, "some points failed or did not run");
        PARSE_CSV(test::readText(csvFile));
        QCOMPARE(csv.rows.size(), std::size_t{6});
        const auto cpuRows = csv.rowsOf("cpu");
        QCOMPARE(cpuRows.size(), std::size_t{3});
        const auto& over = *cpuRows.back();
        QCOMPARE(over.at("value"), std::string("2048"));
        QVERIFY2(contains(over.at("error"), "launch.block"), over.at("error").c_str());
        QVERIFY2(contains(over.at("error"), "2048"), over.at("error").c_str());
        QCOMPARE(over.at("kernel_median_ms"), std::string());
        QCOMPARE(over.at("repeats"), std::string("0"));
        QCOMPARE(over.at("check"), std::string());
        // The other rows ran, the reference at 2048 too: it does not launch blocks.
        for (const auto& row : csv.rows) {
            if (&row == &over) continue;
            QCOMPARE(row.at("error"), std::string());
            QVERIFY(number(row, "kernel_median_ms") > 0);
        }
    }

    void noCudaHereIsExitFive() {
        if (!test::gpuSkipReason()) QSKIP("there is a GPU here");
        const auto csvFile = outFile("nocuda.csv");
        const auto r = cli({"sweep", "multiply_them", "--backends", "cuda:0,cpu", "--to", "10000", "--steps",
                            "2", "--csv", csvFile});
        EXPECT_EXIT(r, 5);
        EXPECT_OUTPUT(r, "no CUDA backend here");
        QVERIFY2(!contains(r.output, "[1/"), "nothing runs before the backends are known");
        QVERIFY(!std::filesystem::exists(csvFile));
    }

    // The GPU machine.
    void gpuBeatsTheReferenceFromSomeSize() {
        KP_REQUIRE_GPU();
        const auto csvFile = outFile("gpu.csv");
        const auto r = cli({"sweep", "multiply_them", "--backends", "cuda:0,cpu,reference", "--to",
                            "16777216", "--steps", "8", "--csv", csvFile});
        EXPECT_EXIT(r, 0);
        std::istringstream lines(r.output);
        std::string line;
        bool kernelOnly = false, withCopies = false;
        while (std::getline(lines, line)) {
            if (!contains(line, "cuda:0 beats the C++ reference from about")) continue;
            kernelOnly = kernelOnly || contains(line, "(kernel only)");
            withCopies = withCopies || contains(line, "(with copies)");
        }
        QVERIFY2(kernelOnly, r.output.c_str());
        QVERIFY2(withCopies, r.output.c_str());
        PARSE_CSV(test::readText(csvFile));
        QCOMPARE(csv.rows.size(), std::size_t{8 * 3});
        for (const auto* row : csv.rowsOf("cuda:0")) {
            QCOMPARE(row->at("check"), std::string("passed"));
            QVERIFY(number(*row, "h2d_median_ms") > 0 && number(*row, "d2h_median_ms") > 0);
            QVERIFY(number(*row, "with_copies_ms") > number(*row, "kernel_median_ms"));
        }
    }
};

QTEST_GUILESS_MAIN(TestSweepCommand)
#include "tst_sweepcommand.moc"
