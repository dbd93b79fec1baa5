// The host compiler driver: builds shared libraries without loading them, maps diagnostics to the user's
// files, caches results with a checksum, and runs the compiler confined and under limits. Needs a C++
// compiler (CI has g++).
#include "core/Error.h"
#include "core/cpu/HostCompiler.h"
#include "core/sandbox/Confinement.h"
#include "core/sandbox/Subprocess.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <chrono>
#include <cpuid.h>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace kp::cpu;
using kp::sandbox::runProcess;
using Severity = kp::model::Diagnostic::Severity;

namespace {
// Processes whose command line mentions `text` (not zombies): compilers working below a cache folder.
std::vector<std::string> processesMentioning(const std::string& text) {
    std::vector<std::string> found;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        // A process that ends while it is read fails the read (libstdc++ throws ESRCH from underflow):
        // under a parallel ctest, processes come and go all the time.
        try {
            std::ifstream cmdline(entry.path() / "cmdline"), stat(entry.path() / "stat");
            const std::string command((std::istreambuf_iterator<char>(cmdline)),
                                      std::istreambuf_iterator<char>());
            const std::string state((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
            if (command.find(text) != std::string::npos && state.find(") Z") == std::string::npos)
                found.push_back(pid);
        } catch (const std::ios_base::failure&) {
            continue; // it has ended
        }
    }
    return found;
}
} // namespace

class TestHostCompiler : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::filesystem::path cache() const { return std::filesystem::path(dir_.path().toStdString()) / "cache"; }

private slots:
    void runsProgramsAndCollectsOutput() {
        const auto ok = runProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
        QCOMPARE(ok.exitCode, 3);
        QVERIFY(ok.output.find("out\n") != std::string::npos);
        QVERIFY(ok.output.find("err\n") != std::string::npos);
        const auto killed = runProcess({"sh", "-c", "kill -9 $$"});
        QCOMPARE(killed.signal, 9);
        QCOMPARE(killed.exitCode, -1);
        QVERIFY_THROWS_EXCEPTION(kp::SystemError, runProcess({"kp-no-such-program-xyz"}));
    }

    void compilesAndLoadsAFunction() {
        const HostCompiler compiler({}, cache());
        const auto r = compiler.compile({{"ref.cpp", "extern \"C\" int twice(int x) { return 2 * x; }\n"}});
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY(!r.fromCache);
        const auto library = loadCompiled(r.library);
        auto* twice = reinterpret_cast<int (*)(int)>(library->symbol("twice"));
        QVERIFY(twice != nullptr);
        QCOMPARE(twice(21), 42);
    }

    // Kernels and references are compiled for the processor they run on: where it has AVX2 (and the rest of
    // processorFlags' list), the compiled code sees __AVX2__, __BMI2__ and __F16C__; where it has not, no
    // flag asks for them.
    void compilesForThisProcessor() {
        __builtin_cpu_init();
        unsigned a = 0, b = 0, c = 0, d = 0;
        const bool f16c = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
        const bool lzcnt = __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & bit_LZCNT) != 0;
        const auto flags = processorFlags();
        const bool avx2 = std::find(flags.begin(), flags.end(), "-mavx2") != flags.end();
        QCOMPARE(avx2, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") && f16c &&
                           lzcnt);
        QVERIFY(avx2 || flags.empty());
        HostCompileOptions options;
        options.flags.insert(options.flags.end(), flags.begin(), flags.end());
        const HostCompiler compiler({}, cache());
        const auto r = compiler.compile({{"isa.cpp", "extern \"C\" int features() { int f = 0;\n"
                                                     "#ifdef __AVX2__\n f |= 1;\n#endif\n"
                                                     "#ifdef __BMI2__\n f |= 2;\n#endif\n"
                                                     "#ifdef __F16C__\n f |= 4;\n#endif\n"
                                                     " return f; }\n"}},
                                        options);
        QVERIFY2(r.ok, r.log.c_str());
        const auto library = loadCompiled(r.library);
        auto* features = reinterpret_cast<int (*)()>(library->symbol("features"));
        QVERIFY(features != nullptr);
        QCOMPARE(features(), avx2 ? 7 : 0);
    }

    // A cache folder named relative to the current one (kernelpad-worker --precompile-built-ins
    // build/prepared) works as an absolute one: the compiler runs in a folder below it, where a relative
    // TMPDIR named nothing and GCC, sandboxed, could not fall back to /tmp.
    void aRelativeCacheFolderWorks() {
        const auto here = std::filesystem::current_path();
        std::filesystem::current_path(dir_.path().toStdString());
        const HostCompiler compiler({}, "relative-cache");
        std::filesystem::current_path(here);
        QVERIFY(compiler.cacheDirectory().is_absolute());
        QCOMPARE(compiler.cacheDirectory(),
                 std::filesystem::path(dir_.path().toStdString()) / "relative-cache");
        const auto r = compiler.compile({{"four.cpp", "extern \"C\" int four() { return 4; }\n"}});
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(reinterpret_cast<int (*)()>(loadCompiled(r.library)->symbol("four"))(), 4);
    }

    void reusesTheCacheAcrossCompilerObjects() {
        const std::string code = "extern \"C\" int three() { return 3; }\n";
        QVERIFY(HostCompiler({}, cache()).compile({{"a.cpp", code}}).ok);
        const auto again = HostCompiler({}, cache()).compile({{"a.cpp", code}});
        QVERIFY(again.ok);
        QVERIFY(again.fromCache);
        const auto library = loadCompiled(again.library);
        QCOMPARE(reinterpret_cast<int (*)()>(library->symbol("three"))(), 3);
        HostCompileOptions other;
        other.flags = {"-O0"};
        QVERIFY(!HostCompiler({}, cache()).compile({{"a.cpp", code}}, other).fromCache);
    }

    void rebuildsADamagedCacheEntry() {
        const std::string code = "extern \"C\" int four() { return 4; }\n";
        QVERIFY(HostCompiler({}, cache()).compile({{"b.cpp", code}}).ok);
        for (const auto& entry : std::filesystem::directory_iterator(cache()))
            if (entry.path().extension() == ".so") std::filesystem::resize_file(entry.path(), 100);
        const auto r = HostCompiler({}, cache()).compile({{"b.cpp", code}});
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY(!r.fromCache);
        const auto library = loadCompiled(r.library);
        QCOMPARE(reinterpret_cast<int (*)()>(library->symbol("four"))(), 4);
    }

    void compilingNeverRunsTheCode() {
        // A static constructor runs when a library is loaded: compiling (the editor's diagnostics on a file
        // just opened) must not load it.
        const auto marker = std::filesystem::path(dir_.path().toStdString()) / "constructor-ran";
        const std::string code = "#include <cstdio>\n__attribute__((constructor)) static void hostile() { "
                                 "std::fclose(std::fopen(\"" +
                                 marker.string() +
                                 "\", \"w\")); }\n"
                                 "extern \"C\" int five() { return 5; }\n";
        const auto r = HostCompiler({}, cache()).compile({{"hostile.cu", code}});
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY(!std::filesystem::exists(marker));
        const auto cached = HostCompiler({}, cache()).compile({{"hostile.cu", code}});
        QVERIFY(cached.fromCache);
        QVERIFY(!std::filesystem::exists(marker));
    }

    void rebuildsASwappedCacheEntry() {
        // Another valid library in the entry's place (x*7 for an x*3 kernel) is not used: its checksum
        // differs.
        const std::string three = "extern \"C\" int scale(int x) { return 3 * x; }\n";
        const std::string seven = "extern \"C\" int scale(int x) { return 7 * x; }\n";
        const auto good = HostCompiler({}, cache()).compile({{"s.cpp", three}});
        const auto other = HostCompiler({}, cache()).compile({{"s.cpp", seven}});
        QVERIFY(good.ok && other.ok);
        std::filesystem::copy_file(other.library, good.library,
                                   std::filesystem::copy_options::overwrite_existing);
        const auto again = HostCompiler({}, cache()).compile({{"s.cpp", three}});
        QVERIFY2(again.ok, again.log.c_str());
        QVERIFY(!again.fromCache);
        const auto library = loadCompiled(again.library);
        QCOMPARE(reinterpret_cast<int (*)(int)>(library->symbol("scale"))(2), 6);
    }

    void leavesNoBuildFolderBehind() {
        QVERIFY(!HostCompiler({}, cache()).compile({{"c.cpp", "int broken = ;\n"}}).diagnostics.empty());
        QVERIFY(HostCompiler({}, cache()).compile({{"c.cpp", "int fine = 1;\n"}}).ok);
        for (const auto& entry : std::filesystem::directory_iterator(cache()))
            QVERIFY2(!entry.path().filename().string().starts_with("build-"), entry.path().c_str());
    }

    void removesBuildFoldersOfKilledCompiles() {
        // A compile whose process was killed leaves build-PID-KEY; the next compile in that cache removes it,
        // and leaves a running process's alone.
        const HostCompiler compiler({}, cache() / "abandoned");
        std::filesystem::create_directories(compiler.cacheDirectory() / "build-999999999-0123");
        const auto running = compiler.cacheDirectory() / ("build-" + std::to_string(getppid()) + "-0456");
        std::filesystem::create_directories(running);
        QVERIFY(compiler.compile({{"d.cpp", "int d = 4;\n"}}).ok);
        QVERIFY(!std::filesystem::exists(compiler.cacheDirectory() / "build-999999999-0123"));
        QVERIFY(std::filesystem::exists(running));
    }

    void refusesIncludesOutsideTheToolchainAndThePlaygroundFolder() {
        if (!kp::sandbox::support().available) QSKIP(kp::sandbox::support().reason.c_str());
        const auto secret = std::filesystem::path(dir_.path().toStdString()) / "secret" / "id_rsa";
        std::filesystem::create_directories(secret.parent_path());
        std::ofstream(secret) << "PRIVATE-KEY-TEXT\n";
        const auto r =
            HostCompiler({}, cache()).compile({{"k.cu", "#include \"" + secret.string() + "\"\n"}});
        QVERIFY(!r.ok);
        QVERIFY2(r.log.find("PRIVATE-KEY-TEXT") == std::string::npos, r.log.c_str());
        QVERIFY2(r.log.find("Permission denied") != std::string::npos, r.log.c_str());
        // The playground's own folder is readable, for its headers.
        HostCompileOptions options;
        options.readable = {secret.parent_path()};
        std::ofstream(secret.parent_path() / "common.h") << "inline int common() { return 1; }\n";
        const auto own =
            HostCompiler({}, cache())
                .compile({{"k.cu", "#include \"" + (secret.parent_path() / "common.h").string() + "\"\n"}},
                         options);
        QVERIFY2(own.ok, own.log.c_str());
    }

    void readsNoDeviceFiles() {
        if (!kp::sandbox::support().available) QSKIP(kp::sandbox::support().reason.c_str());
        const auto started = std::chrono::steady_clock::now();
        const auto r = HostCompiler({}, cache()).compile({{"z.cu", "#include </dev/zero>\n"}});
        QVERIFY(!r.ok);
        QVERIFY(!r.diagnostics.empty());
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
    }

    void stopsACompilerOverItsTimeLimit() {
        HostCompiler compiler({}, cache());
        compiler.setLimits({1.0, {std::uint64_t{4} << 30, 60, std::uint64_t{512} << 20}});
        HostCompileOptions slow;
        slow.flags = {"-std=c++20", "-fconstexpr-loop-limit=2000000000",
                      "-fconstexpr-ops-limit=1000000000000"};
        const std::string code = "constexpr long long spin() { long long s = 0; for (long long i = 0; i < "
                                 "1900000000; ++i) s += i % 7; "
                                 "return s; }\nconstexpr long long x = spin();\n";
        const auto started = std::chrono::steady_clock::now();
        const auto r = compiler.compile({{"bomb.cu", code}}, slow);
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(15));
        QVERIFY(!r.ok);
        QVERIFY(!r.diagnostics.empty());
        QVERIFY2(r.diagnostics.back().message.find("time limit of 1 s") != std::string::npos,
                 r.diagnostics.back().message.c_str());
        QCOMPARE(r.diagnostics.back().file, std::string("bomb.cu"));
    }

    void pointsErrorsAtTheUsersFileAndLine() {
        const auto r =
            HostCompiler({}, cache()).compile({{"samples/x/ref.cpp", "int ok = 1;\nint bad = nope;\n"}});
        QVERIFY(!r.ok);
        QVERIFY(r.library.empty());
        QVERIFY(!r.diagnostics.empty());
        const auto& d = r.diagnostics.front();
        QCOMPARE(d.file, std::string("samples/x/ref.cpp"));
        QCOMPARE(d.line, 2);
        QCOMPARE(d.column, 11);
        QCOMPARE(d.severity, Severity::Error);
        QVERIFY2(d.message.find("nope") != std::string::npos, d.message.c_str());
    }

    // The prelude (the CUDA built-ins) is precompiled once into the cache and used by every compile with
    // the same flags; the user's diagnostics keep their file and line; a damaged .gch is built again, never
    // handed to GCC; other flags get a prelude of their own.
    void precompilesThePreludeOnceAndKeepsTheUsersLines() {
        const auto folder = cache() / "prelude-test";
        HostCompiler compiler({}, folder);
        if (!compiler.isGcc()) QSKIP("the prelude is precompiled with GCC only; this compiler inlines it");
        qputenv("KERNELPAD_PRELUDE_DIR", QByteArray()); // only this cache
        HostCompileOptions options;
        options.prelude =
            "#line 1 \"<prelude>\"\n#include <cmath>\ninline double twice(double x) { return 2 * x; }\n";
        const auto first =
            compiler.compile({{"k.cpp", "extern \"C\" double f(double x) { return twice(x); }\n"}}, options);
        QVERIFY2(first.ok, first.log.c_str());
        QVERIFY(first.preludePrecompiled);
        const auto library = loadCompiled(first.library);
        QCOMPARE(reinterpret_cast<double (*)(double)>(library->symbol("f"))(4), 8.0);
        std::vector<std::filesystem::path> gch;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(folder / "prelude"))
            if (entry.path().extension() == ".gch") gch.push_back(entry.path());
        QCOMPARE(gch.size(), std::size_t{1});
        const auto built = std::filesystem::last_write_time(gch[0]);

        options.syntaxOnly = true;
        const auto wrong =
            compiler.compile({{"k.cpp", "double ok = twice(1);\ndouble bad = nope(2);\n"}}, options);
        QVERIFY(!wrong.ok);
        QVERIFY(wrong.library.empty());
        QVERIFY(wrong.preludePrecompiled);
        QCOMPARE(std::filesystem::last_write_time(gch[0]), built); // used, not built again
        QVERIFY(!wrong.diagnostics.empty());
        QCOMPARE(wrong.diagnostics.front().file, std::string("k.cpp"));
        QCOMPARE(wrong.diagnostics.front().line, 2);
        const auto right = compiler.compile({{"k.cpp", "double ok = twice(1);\n"}}, options);
        QVERIFY2(right.ok, right.log.c_str());
        QVERIFY(right.library.empty()); // checked only: nothing built
        QVERIFY(!right.fromCache);
        // The same text checked again (an undo, a typo taken back): the kept answer, the same diagnostics.
        const auto wrongAgain =
            compiler.compile({{"k.cpp", "double ok = twice(1);\ndouble bad = nope(2);\n"}}, options);
        QVERIFY(wrongAgain.fromCache);
        QVERIFY(!wrongAgain.ok);
        QCOMPARE(wrongAgain.diagnostics.size(), wrong.diagnostics.size());
        QCOMPARE(wrongAgain.diagnostics.front().line, 2);
        QCOMPARE(wrongAgain.diagnostics.front().message, wrong.diagnostics.front().message);
        QCOMPARE(wrongAgain.log, wrong.log);
        const auto rightAgain = compiler.compile({{"k.cpp", "double ok = twice(1);\n"}}, options);
        QVERIFY(rightAgain.fromCache);
        QVERIFY(rightAgain.ok);
        QVERIFY(rightAgain.library.empty());
        // A damaged answer is no answer: checked again, and kept again.
        for (const auto& entry : std::filesystem::directory_iterator(folder))
            if (entry.path().extension() == ".check") std::ofstream(entry.path()) << "kernelpad-check 1\n7\n";
        const auto rechecked = compiler.compile({{"k.cpp", "double ok = twice(1);\n"}}, options);
        QVERIFY(!rechecked.fromCache);
        QVERIFY2(rechecked.ok, rechecked.log.c_str());
        QVERIFY(compiler.compile({{"k.cpp", "double ok = twice(1);\n"}}, options).fromCache);

        // Damaged in the cache: the next compile (here by another compiler object) precompiles it again.
        std::filesystem::resize_file(gch[0], 4096);
        const auto rebuilt =
            HostCompiler({}, folder).compile({{"k.cpp", "double ok = twice(3);\n"}}, options);
        QVERIFY2(rebuilt.ok, rebuilt.log.c_str());
        QVERIFY(rebuilt.preludePrecompiled);
        QVERIFY(std::filesystem::file_size(gch[0]) > 4096);

        options.flags = {"-O0"};
        QVERIFY(compiler.compile({{"k.cpp", "double ok = twice(1);\n"}}, options).ok);
        std::size_t now = 0;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(folder / "prelude"))
            now += entry.path().extension() == ".gch";
        QCOMPARE(now, std::size_t{2});
    }

    void parsesCompilerDiagnostics_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("severity");
        QTest::addColumn<QString>("message");
        QTest::newRow("gcc error") << "a.cu:12:5: error: 'x' was not declared in this scope" << 1 << 12 << 5
                                   << int(Severity::Error) << "'x' was not declared in this scope";
        QTest::newRow("warning with flag")
            << "k.cu:3:9: warning: unused variable 'y' [-Wunused-variable]" << 1 << 3 << 9
            << int(Severity::Warning) << "unused variable 'y' [-Wunused-variable]";
        QTest::newRow("fatal") << "k.cu:1:10: fatal error: nope.h: No such file or directory" << 1 << 1 << 10
                               << int(Severity::Error) << "nope.h: No such file or directory";
        QTest::newRow("no column") << "k.cu:7: error: something" << 1 << 7 << 0 << int(Severity::Error)
                                   << "something";
        QTest::newRow("context lines skipped")
            << "k.cu: In function 'void f()':\nk.cu:2:3: note: declared here\n    2 | int x;\n      |   ^"
            << 1 << 2 << 3 << int(Severity::Note) << "declared here";
        QTest::newRow("garbage") << "\x01\x02:::: error:\n\n::1:x: warning" << 0 << 0 << 0 << 0 << "";
    }
    void parsesCompilerDiagnostics() {
        QFETCH(QString, log);
        QFETCH(int, count);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(int, severity);
        QFETCH(QString, message);
        const auto ds = HostCompiler::parseDiagnostics(log.toStdString());
        QCOMPARE(int(ds.size()), count);
        if (count == 0) return;
        QCOMPARE(ds[0].line, line);
        QCOMPARE(ds[0].column, column);
        QCOMPARE(int(ds[0].severity), severity);
        QCOMPARE(QString::fromStdString(ds[0].message), message);
    }

    void saysWhichCompilersItTried() {
        const HostCompiler missing("kp-no-such-compiler++", cache());
        try {
            missing.compilerPath();
            QFAIL("a missing compiler must be reported");
        } catch (const kp::Error& e) {
            QVERIFY2(std::string(e.what()).find("kp-no-such-compiler++") != std::string::npos, e.what());
        }
    }

    void theCompilerDiesWithItsParent() {
        // A process compiling a compile-time bomb is killed (kill -9, as a user ends a stuck CLI): its
        // compiler, and the compiler's own children, end with it.
        const auto folder = cache() / "orphaned-compile";
        const pid_t child = ::fork();
        if (child == 0) {
            HostCompileOptions slow;
            slow.flags = {"-std=c++20", "-fconstexpr-loop-limit=2000000000",
                          "-fconstexpr-ops-limit=1000000000000"};
            (void)HostCompiler({}, folder)
                .compile({{"bomb.cu", "constexpr long long spin() { long long s = 0; "
                                      "for (long long i = 0; i < 1900000000; ++i) s += i % 7; "
                                      "return s; }\nconstexpr long long x = spin();\n"}},
                         slow);
            ::_exit(0);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!processesMentioning(folder.string()).empty(), 20000);
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        QTRY_VERIFY_WITH_TIMEOUT(processesMentioning(folder.string()).empty(), 5000);
    }
};

QTEST_APPLESS_MAIN(TestHostCompiler)
#include "tst_hostcompiler.moc"
