// kernelpad-cli run as a user calls it: exit codes, --out (NAME.npy and timings.json), --json, and the
// messages for bad input. The parts that run kernels need the GPU machine; the rest runs in CI.
#include "../TestSupport.h"
#include "../cuda/GpuTestSupport.h"
#include "core/io/NpyFile.h"
#include "core/sandbox/Subprocess.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

using namespace kp;

namespace {

std::string data(const std::string& file) {
    return std::string(KP_SOURCE_DIR) + "/tests/run/data/" + file;
}

std::string cliPath() {
    return std::string(KP_BINARY_DIR) + "/app/kernelpad-cli";
}

sandbox::SubprocessResult cli(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), cliPath());
    return sandbox::runProcess(arguments);
}

// kernelpad-cli under a shell `script` that ends by running it with `arguments` ("$@").
sandbox::SubprocessResult cliUnder(const std::string& script, std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"/bin/bash", "-c", script, cliPath()});
    return sandbox::runProcess(arguments);
}

// A playground whose one output array, `name`, is `n` float32 twos.
std::string writeTwos(const QTemporaryDir& dir, const std::string& name, std::size_t n = 100) {
    std::string file = dir.filePath(QString::fromStdString(name + ".kpad.json")).toStdString();
    nlohmann::json json = nlohmann::json::parse(R"({"format":"kernelpad/1","kernel":"twos",
        "code":"__global__ void twos(float* d, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) d[i] = 2;\n}\n",
        "launch":{"grid":"auto","block":[128]},
        "args":[{"array":{"dtype":"float32"},"direction":"out"},{"name":"n","scalar":{"dtype":"int32"}}]})");
    json["args"][0]["name"] = name;
    json["args"][0]["array"]["shape"] = {n};
    json["args"][1]["value"] = "size(" + name + ")";
    std::ofstream(file) << json.dump(2);
    return file;
}

std::set<std::string> filesIn(const std::filesystem::path& folder) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        names.insert(entry.path().filename().string());
    return names;
}

bool anyStagingLeft(const std::filesystem::path& folder) {
    for (const auto& name : filesIn(folder))
        if (name.find(".kptmp.") != std::string::npos || name.find(".kpold.") != std::string::npos)
            return true;
    return false;
}

#define EXPECT_EXIT(result, code)                                                                            \
    QVERIFY2((result).exitCode == (code),                                                                    \
             ("exit " + std::to_string((result).exitCode) + ":\n" + (result).output).c_str())

#define EXPECT_OUTPUT(result, fragment)                                                                      \
    QVERIFY2((result).output.find(fragment) != std::string::npos,                                            \
             ("missing \"" + std::string(fragment) + "\" in:\n" + (result).output).c_str())

} // namespace

class TestRunCommand : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;

private slots:
    void initTestCase() { qputenv("KERNELPAD_CACHE_DIR", cache_.path().toUtf8()); }

    // CI and GPU alike.
    void missingFileIsBadInput() {
        const auto r = cli({"run", data("nope.kpad.json")});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "nope.kpad.json");
    }
    void badBackendIsBadInput() {
        const auto r = cli({"run", data("multiply.kpad.json"), "--backend", "gpu"});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "\"gpu\" is not a backend");
    }
    void mismatchedArgumentsAreBadInputEvenWithoutAGpu() {
        QTemporaryDir dir;
        std::ifstream in(data("multiply.kpad.json"));
        auto json = nlohmann::json::parse(in);
        json["args"][1]["array"]["dtype"] = "float64";
        std::filesystem::copy_file(data("multiply.cu"), dir.filePath("multiply.cu").toStdString());
        std::filesystem::copy_file(data("multiply.ref.cpp"), dir.filePath("multiply.ref.cpp").toStdString());
        const std::string file = dir.filePath("bad.kpad.json").toStdString();
        std::ofstream(file) << json.dump(2);
        const auto r = cli({"run", file});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "args[1] \"a\"");
        EXPECT_OUTPUT(r, "gives float64");
    }
    void noCudaHereIsExitFive() {
        if (!test::gpuSkipReason()) QSKIP("there is a GPU here");
        const auto r = cli({"run", data("multiply.kpad.json")});
        EXPECT_EXIT(r, 5);
        EXPECT_OUTPUT(r, "no CUDA backend here");
    }

    void cpuBackendRunsAndChecks() {
        QTemporaryDir out;
        const auto r = cli({"run", data("multiply.kpad.json"), "--backend", "cpu", "--repeat", "2", "--out",
                            out.path().toStdString()});
        EXPECT_EXIT(r, 0);
        EXPECT_OUTPUT(r, "on cpu (");
        EXPECT_OUTPUT(r, "dest: matches the reference");
        std::ifstream in(out.filePath("timings.json").toStdString());
        const auto timings = nlohmann::json::parse(in);
        QCOMPARE(timings["kernel_ms"].size(), std::size_t{2});
        QCOMPARE(io::readNpy(out.filePath("dest.npy").toStdString()).size(), std::size_t{1000});
    }
    void cpuBackendReportsACompileErrorOnTheUsersLine() {
        const auto r = cli({"run", data("broken_kernel.kpad.json"), "--backend", "cpu"});
        EXPECT_EXIT(r, 3);
        EXPECT_OUTPUT(r, "<code>:3:");
        EXPECT_OUTPUT(r, "bb");
    }

    void cpuBoundsModeIsAKernelFault() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("oob.kpad.json").toStdString();
        std::ofstream(file) << R"({"format":"kernelpad/1","kernel":"mul",
            "code":"__global__ void mul(float* d, const float* a) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    d[i] = 2 * a[i];\n}\n",
            "launch":{"grid":"auto","block":[128]},
            "args":[{"name":"d","array":{"dtype":"float32","shape":[200]},"direction":"out"},
                    {"name":"a","array":{"dtype":"float32","shape":[200]},"init":"ones"}]})";
        const auto r = cli({"run", file, "--backend", "cpu", "--check-bounds"});
        EXPECT_EXIT(r, 4);
        EXPECT_OUTPUT(r, "out of bounds");
        EXPECT_OUTPUT(r, "which has 200 elements");
        EXPECT_OUTPUT(r, "at <code>:3");
    }

    // The CPU backend runs the kernel in a child process: a failed assert ends that one, and the run is
    // exit 4 with the assert's text, the kernel's name and what to do, not the shell's 134.
    void aFailedAssertOnTheCpuIsAKernelFault() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("assert.kpad.json").toStdString();
        std::ofstream(file) << R"({"format":"kernelpad/1","kernel":"k",
            "code":"__global__ void k(float* a) {\n    assert(a[threadIdx.x] == 1.0f);\n}\n",
            "launch":{"grid":[1],"block":[4]},
            "args":[{"name":"a","array":{"dtype":"float32","shape":[4]},"direction":"inout","init":"zeros"}]})";
        const auto r = cli({"run", file, "--backend", "cpu"});
        EXPECT_EXIT(r, 4);
        EXPECT_OUTPUT(r, "Assertion");
        EXPECT_OUTPUT(r, "the kernel k crashed with SIGABRT");
        EXPECT_OUTPUT(r, "bounds checking");
    }

    // --timeout: nan, inf and 0 once stopped the run at once, negative numbers meant no limit, and 1e10
    // overflowed the watchdog's clock. Each is refused before anything runs, naming the option and value.
    void rejectsATimeoutThatIsNoTimeLimit_data() {
        QTest::addColumn<QString>("value");
        for (const char* value : {"inf", "-inf", "nan", "1e10", "86401", "-1", "0", "-0.5", "2s"})
            QTest::newRow(value) << value;
    }
    void rejectsATimeoutThatIsNoTimeLimit() {
        QFETCH(QString, value);
        const auto r =
            cli({"run", data("multiply.kpad.json"), "--backend", "cpu", "--timeout", value.toStdString()});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "--timeout");
        EXPECT_OUTPUT(r, "\"" + value.toStdString() + "\"");
        EXPECT_OUTPUT(r, "at most 86400");
        QVERIFY2(r.output.find("on cpu") == std::string::npos, r.output.c_str()); // nothing ran
    }
    void aTimeLimitUpToADayLetsTheRunFinish_data() {
        QTest::addColumn<QString>("value");
        for (const char* value : {"86400", "3600.5", "60", "1e4"})
            QTest::newRow(value) << value;
    }
    void aTimeLimitUpToADayLetsTheRunFinish() {
        QFETCH(QString, value);
        const auto r =
            cli({"run", data("multiply.kpad.json"), "--backend", "cpu", "--timeout", value.toStdString()});
        EXPECT_EXIT(r, 0);
        EXPECT_OUTPUT(r, "dest: matches the reference");
    }

    // --out replaces the folder's set as a whole: no file of an earlier run's set stays beside the new one.
    void outReplacesTheEarlierSetWhole() {
        QTemporaryDir dir;
        const std::filesystem::path out = dir.filePath("out").toStdString();
        const auto before = cli({"run", writeTwos(dir, "first"), "--backend", "cpu", "--out", out.string()});
        EXPECT_EXIT(before, 0);
        QCOMPARE(filesIn(out), (std::set<std::string>{"first.npy", "timings.json"}));
        const auto r = cli({"run", writeTwos(dir, "second"), "--backend", "cpu", "--out", out.string()});
        EXPECT_EXIT(r, 0);
        QCOMPARE(filesIn(out), (std::set<std::string>{"second.npy", "timings.json"}));
        QCOMPARE(io::readNpy(out / "second.npy").value(99), 2.0);
        QVERIFY(!anyStagingLeft(dir.path().toStdString()));
    }
    // Arrays larger than the memory the process may have (here a 1 GiB address-space limit and a 2 GiB
    // output): the input's to change, so exit 2 and a message that says so, not a kernel fault's 4.
    void outOfHostMemoryIsBadInput() {
        QTemporaryDir dir;
        const auto r = cliUnder(R"(ulimit -v 1048576; exec "$0" "$@")",
                                {"run", writeTwos(dir, "big", std::size_t{1} << 29), "--backend", "cpu"});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "out of host memory");
    }
    // A run killed while it wrote its set (the --timeout watchdog, kill -9) leaves its hidden folder; the
    // next run into the same folder removes it once its process is gone, and leaves a running one's.
    void outRemovesTheHiddenFolderOfAKilledRun() {
        QTemporaryDir dir;
        const std::filesystem::path out = dir.filePath("out").toStdString();
        pid_t gone = 4'000'000;
        while (::kill(gone, 0) == 0 || errno != ESRCH)
            --gone;
        const std::filesystem::path abandoned =
            dir.filePath(".out.kptmp." + QString::number(gone)).toStdString();
        const std::filesystem::path running =
            dir.filePath(".out.kptmp." + QString::number(::getpid())).toStdString();
        for (const auto& folder : {abandoned, running}) {
            std::filesystem::create_directories(folder);
            std::ofstream(folder / "half.npy") << "partial";
        }
        const auto r = cli({"run", writeTwos(dir, "first"), "--backend", "cpu", "--out", out.string()});
        EXPECT_EXIT(r, 0);
        QCOMPARE(filesIn(out), (std::set<std::string>{"first.npy", "timings.json"}));
        QVERIFY(!std::filesystem::exists(abandoned));
        QVERIFY(std::filesystem::exists(running / "half.npy"));
    }
    // Two runs writing one folder at once: it ends with one run's set, never a mix of both.
    void concurrentRunsLeaveOneWholeSet() {
        QTemporaryDir dir;
        const std::string first = writeTwos(dir, "first"), second = writeTwos(dir, "second");
        const std::filesystem::path out = dir.filePath("out").toStdString();
        for (int round = 0; round < 4; ++round) {
            const auto r = cliUnder(
                R"("$0" run "$1" --backend cpu --out "$3" & "$0" run "$2" --backend cpu --out "$3" & wait)",
                {first, second, out.string()});
            const auto names = filesIn(out);
            QVERIFY2(names == (std::set<std::string>{"first.npy", "timings.json"}) ||
                         names == (std::set<std::string>{"second.npy", "timings.json"}),
                     r.output.c_str());
            QVERIFY(!anyStagingLeft(dir.path().toStdString()));
        }
    }
    // A full disk (here a file size limit) while writing: exit 6, the message says what failed and where,
    // the earlier set is whole and the temporary folder is gone.
    void aFailedWriteKeepsTheEarlierSetWhole() {
        QTemporaryDir dir;
        const std::string playground = writeTwos(dir, "big", 1 << 20); // dest.npy: 4 MiB
        const std::filesystem::path out = dir.filePath("out").toStdString();
        const auto before =
            cli({"run", playground, "--backend", "cpu", "--out", out.string()}); // fills the compile cache
        EXPECT_EXIT(before, 0);
        const std::string npy = test::readText(out / "big.npy"),
                          timings = test::readText(out / "timings.json");
        // Files over 1 MiB cannot be written; SIGXFSZ ignored makes that an error (EFBIG), not a crash.
        const auto r = cliUnder(R"(trap '' XFSZ; ulimit -f 1024; exec "$0" "$@")",
                                {"run", playground, "--backend", "cpu", "--out", out.string()});
        EXPECT_EXIT(r, 6);
        EXPECT_OUTPUT(r, "--out " + out.string() + ": the run's files could not be written");
        EXPECT_OUTPUT(r, "File too large");
        EXPECT_OUTPUT(r, out.string() + " keeps its earlier files");
        QCOMPARE(filesIn(out), (std::set<std::string>{"big.npy", "timings.json"}));
        QVERIFY(test::readText(out / "big.npy") == npy);
        QVERIFY(test::readText(out / "timings.json") == timings);
        QVERIFY(!anyStagingLeft(dir.path().toStdString()));
    }
    void aFailedWriteToANewFolderLeavesNothing() {
        QTemporaryDir dir;
        const std::string playground = writeTwos(dir, "big", 1 << 20);
        const auto before = cli({"run", playground, "--backend", "cpu"}); // fills the compile cache
        EXPECT_EXIT(before, 0);
        const std::filesystem::path out = dir.filePath("new/out").toStdString();
        const auto r = cliUnder(R"(trap '' XFSZ; ulimit -f 1024; exec "$0" "$@")",
                                {"run", playground, "--backend", "cpu", "--out", out.string()});
        EXPECT_EXIT(r, 6);
        EXPECT_OUTPUT(r, "nothing was written to " + out.string());
        QVERIFY(!std::filesystem::exists(out));
        QVERIFY(!anyStagingLeft(out.parent_path()));
    }
    // Replacing a folder deletes what it holds: one with other files (or a file) is refused before the run.
    void outRefusesAFolderWithOtherFiles() {
        QTemporaryDir dir;
        const std::filesystem::path out = dir.filePath("out").toStdString();
        std::filesystem::create_directories(out / "sub");
        test::writeText(out / "notes.txt", "mine");
        const auto r = cli({"run", writeTwos(dir, "first"), "--backend", "cpu", "--out", out.string()});
        EXPECT_EXIT(r, 2);
        EXPECT_OUTPUT(r, "--out " + out.string() + ": the folder holds");
        EXPECT_OUTPUT(r, "\"notes.txt\"");
        EXPECT_OUTPUT(r, "\"sub\"");
        QVERIFY2(r.output.find("on cpu") == std::string::npos, r.output.c_str()); // nothing ran
        QCOMPARE(test::readText(out / "notes.txt"), std::string("mine"));
        const auto file =
            cli({"run", writeTwos(dir, "first"), "--backend", "cpu", "--out", (out / "notes.txt").string()});
        EXPECT_EXIT(file, 2);
        EXPECT_OUTPUT(file, "this is a file, not a folder");
    }
    void helpListsEveryExitCode() {
        for (const auto& arguments :
             {std::vector<std::string>{"--help"}, std::vector<std::string>{"run", "--help"},
              std::vector<std::string>{"sweep", "--help"}}) {
            const auto r = cli(arguments);
            EXPECT_EXIT(r, 0);
            EXPECT_OUTPUT(
                r, "4 the kernel faulted or timed out, 5 no such backend here, 6 an input/output error");
        }
    }

    // The GPU machine.
    void writesOutputsAndTimings() {
        KP_REQUIRE_GPU();
        QTemporaryDir out;
        const auto r = cli({"run", data("multiply.kpad.json"), "--repeat", "4", "--warmup", "1", "--out",
                            out.path().toStdString()});
        EXPECT_EXIT(r, 0);
        EXPECT_OUTPUT(r, "dest: matches the reference");
        const auto dest = io::readNpy(out.filePath("dest.npy").toStdString());
        QCOMPARE(dest.shape(), model::Shape{1000});
        QCOMPARE(dest.dtype(), model::DType::Float32);
        QVERIFY(dest.value(2) != 0.0);
        std::ifstream in(out.filePath("timings.json").toStdString());
        const auto timings = nlohmann::json::parse(in);
        QVERIFY(timings["backend"].get<std::string>().starts_with("cuda:0 "));
        QCOMPARE(timings["kernel_ms"].size(), std::size_t{4});
        QCOMPARE(timings["h2d_ms"].size(), std::size_t{4});
        QCOMPARE(timings["d2h_ms"].size(), std::size_t{4});
        QVERIFY(timings["reference_ms"].is_number());
        QCOMPARE(timings["check"]["passed"].get<bool>(), true);
        QCOMPARE(timings["check"]["mismatches"].get<int>(), 0);
    }
    void jsonGoesToStandardOutput() {
        KP_REQUIRE_GPU();
        const auto r = cli({"run", data("scale_template.kpad.json"), "--json"});
        EXPECT_EXIT(r, 0);
        const auto json = nlohmann::json::parse(r.output);
        QCOMPARE(json["kernel_ms"].size(), std::size_t{1});
        // No reference: the GPU is checked against the CPU backend.
        QVERIFY(json.contains("cpu_backend_ms"));
        QCOMPARE(json["check"]["passed"].get<bool>(), true);
    }
    void aKernelTheCpuCannotBuildStillRunsUnchecked() {
        KP_REQUIRE_GPU();
        const auto r = cli({"run", data("gpu_only.kpad.json"), "--json"});
        EXPECT_EXIT(r, 0);
        const auto json = nlohmann::json::parse(r.output);
        QVERIFY(!json.contains("check"));
        QVERIFY2(json["unchecked_because"].get<std::string>().find("__funnelshift_l is not supported") !=
                     std::string::npos,
                 r.output.c_str());
    }
    void failedCheckIsExitOne() {
        KP_REQUIRE_GPU();
        const auto r = cli({"run", data("wrong_reference.kpad.json")});
        EXPECT_EXIT(r, 1);
        EXPECT_OUTPUT(r, "dest: 1000 values differ");
    }
    void compileErrorIsExitThree() {
        KP_REQUIRE_GPU();
        const auto r = cli({"run", data("broken_kernel.kpad.json")});
        EXPECT_EXIT(r, 3);
        EXPECT_OUTPUT(r, "<code>:3:");
        EXPECT_OUTPUT(r, "error: identifier \"bb\" is undefined");
    }
    void faultIsExitFour() {
        KP_REQUIRE_GPU();
        const auto r = cli({"run", data("fault.kpad.json")});
        EXPECT_EXIT(r, 4);
        EXPECT_OUTPUT(r, "the kernel multiply crashed the GPU");
    }
    void timeoutIsExitFour() {
        KP_REQUIRE_GPU();
        const auto r = cli({"run", data("endless.kpad.json"), "--timeout", "2"});
        EXPECT_EXIT(r, 4);
        EXPECT_OUTPUT(r, "stopped after 2 s");
    }
};

QTEST_APPLESS_MAIN(TestRunCommand)
#include "tst_runcommand.moc"
