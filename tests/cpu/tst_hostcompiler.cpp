// The host compiler driver: builds and loads shared libraries, maps diagnostics to the user's files,
// caches results and survives a damaged cache entry. Needs a C++ compiler (CI has g++).
#include "core/Error.h"
#include "core/cpu/HostCompiler.h"
#include "core/cpu/Subprocess.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>

using namespace kp::cpu;
using Severity = kp::model::Diagnostic::Severity;

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
        auto* twice = reinterpret_cast<int (*)(int)>(r.library->symbol("twice"));
        QVERIFY(twice != nullptr);
        QCOMPARE(twice(21), 42);
    }

    void reusesTheCacheAcrossCompilerObjects() {
        const std::string code = "extern \"C\" int three() { return 3; }\n";
        QVERIFY(HostCompiler({}, cache()).compile({{"a.cpp", code}}).ok);
        const auto again = HostCompiler({}, cache()).compile({{"a.cpp", code}});
        QVERIFY(again.ok);
        QVERIFY(again.fromCache);
        QCOMPARE(reinterpret_cast<int (*)()>(again.library->symbol("three"))(), 3);
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
        QCOMPARE(reinterpret_cast<int (*)()>(r.library->symbol("four"))(), 4);
    }

    void pointsErrorsAtTheUsersFileAndLine() {
        const auto r = HostCompiler({}, cache()).compile({{"samples/x/ref.cpp", "int ok = 1;\nint bad = nope;\n"}});
        QVERIFY(!r.ok);
        QVERIFY(!r.library);
        QVERIFY(!r.diagnostics.empty());
        const auto& d = r.diagnostics.front();
        QCOMPARE(d.file, std::string("samples/x/ref.cpp"));
        QCOMPARE(d.line, 2);
        QCOMPARE(d.column, 11);
        QCOMPARE(d.severity, Severity::Error);
        QVERIFY2(d.message.find("nope") != std::string::npos, d.message.c_str());
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
        QTest::newRow("warning with flag") << "k.cu:3:9: warning: unused variable 'y' [-Wunused-variable]" << 1 << 3
                                           << 9 << int(Severity::Warning) << "unused variable 'y' [-Wunused-variable]";
        QTest::newRow("fatal") << "k.cu:1:10: fatal error: nope.h: No such file or directory" << 1 << 1 << 10
                               << int(Severity::Error) << "nope.h: No such file or directory";
        QTest::newRow("no column") << "k.cu:7: error: something" << 1 << 7 << 0 << int(Severity::Error) << "something";
        QTest::newRow("context lines skipped")
            << "k.cu: In function 'void f()':\nk.cu:2:3: note: declared here\n    2 | int x;\n      |   ^" << 1 << 2 << 3
            << int(Severity::Note) << "declared here";
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
};

QTEST_APPLESS_MAIN(TestHostCompiler)
#include "tst_hostcompiler.moc"
