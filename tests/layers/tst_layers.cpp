// The core's layers hold (core/CMakeLists.txt): an area's sources see the headers of the areas below it
// and none above, so an include that would make a cycle fails to compile. Each case compiles one
// #include with the include path an area's sources get, as the build gives it.
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// KP_AREA_INCLUDES: "area=dir:dir:...|area=..." from the build (tests/CMakeLists.txt).
QMap<QString, QStringList> areaIncludes() {
    QMap<QString, QStringList> areas;
    for (const QString& entry : QStringLiteral(KP_AREA_INCLUDES).split(u'|', Qt::SkipEmptyParts)) {
        const qsizetype equals = entry.indexOf(u'=');
        areas.insert(entry.left(equals), entry.mid(equals + 1).split(u':', Qt::SkipEmptyParts));
    }
    return areas;
}

struct Compiled {
    bool ok = false;
    QString output;
};

// Preprocesses `#include "header"` as a source of `area` would (no code generated: quick).
Compiled includeFrom(const QString& area, const QString& header) {
    QTemporaryDir folder;
    const QString source = folder.filePath(QStringLiteral("probe.cpp"));
    QFile file(source);
    if (!file.open(QIODevice::WriteOnly)) return {false, QStringLiteral("cannot write ") + source};
    file.write(QStringLiteral("#include \"%1\"\n").arg(header).toUtf8());
    file.close();
    QStringList arguments{QStringLiteral("-std=c++20"), QStringLiteral("-E"), QStringLiteral("-o"),
                          QStringLiteral("/dev/null")};
    for (const QString& dir : areaIncludes().value(area))
        arguments << QStringLiteral("-I") + dir;
    for (const QString& dir : QStringLiteral(KP_SYSTEM_INCLUDES).split(u':', Qt::SkipEmptyParts))
        arguments << QStringLiteral("-isystem") + dir;
    arguments << source;
    QProcess compiler;
    compiler.setProcessChannelMode(QProcess::MergedChannels);
    compiler.start(QStringLiteral(KP_CXX_COMPILER), arguments);
    if (!compiler.waitForFinished(120000)) return {false, QStringLiteral("the compiler did not finish")};
    return {compiler.exitStatus() == QProcess::NormalExit && compiler.exitCode() == 0,
            QString::fromUtf8(compiler.readAll())};
}

} // namespace

class LayersTest : public QObject {
    Q_OBJECT

private slots:
    // The include folders are links the build made in its own tree: a copy of the built programs alone
    // (the GPU machine's) has no build tree to check.
    void initTestCase() {
        const QStringList base = areaIncludes().value(QStringLiteral("base"));
        if (!base.isEmpty() && !QFileInfo::exists(base.first() + QStringLiteral("/core/Error.h")))
            QSKIP("the build tree's area folders are not here (a copy of the built programs only)");
    }

    void everyAreaHasAnIncludePath() {
        const auto areas = areaIncludes();
        for (const char* area :
             {"base", "source", "model", "io", "sandbox", "cuda", "launch", "cpu", "run", "worker"})
            QVERIFY2(!areas.value(QString::fromLatin1(area)).isEmpty(), area);
    }

    void areaSeesTheAreasBelow_data() {
        QTest::addColumn<QString>("area");
        QTest::addColumn<QString>("header");
        QTest::newRow("cuda sees io") << "cuda"
                                      << "core/io/FileBytes.h";
        QTest::newRow("cuda sees sandbox") << "cuda"
                                           << "core/sandbox/Subprocess.h";
        QTest::newRow("cpu sees launch") << "cpu"
                                         << "core/launch/RunSetup.h";
        QTest::newRow("run sees cpu") << "run"
                                      << "core/cpu/CpuRunner.h";
        QTest::newRow("run sees cuda") << "run"
                                       << "core/cuda/Context.h";
        QTest::newRow("worker sees run") << "worker"
                                         << "core/run/Execute.h";
        QTest::newRow("io sees model") << "io"
                                       << "core/model/Array.h";
        QTest::newRow("model sees base") << "model"
                                         << "core/Error.h";
        QTest::newRow("model sees source") << "model"
                                           << "core/source/Lexer.h";
        QTest::newRow("cpu sees source") << "cpu"
                                         << "core/source/Lexer.h";
    }
    void areaSeesTheAreasBelow() {
        QFETCH(QString, area);
        QFETCH(QString, header);
        const Compiled compiled = includeFrom(area, header);
        QVERIFY2(compiled.ok, qPrintable(compiled.output));
    }

    // The cycles the layers removed (cpu <-> run, model <-> io, cuda -> cpu) and the order itself.
    void areaCannotIncludeAnAreaAbove_data() {
        QTest::addColumn<QString>("area");
        QTest::addColumn<QString>("header");
        QTest::newRow("cpu cannot see run") << "cpu"
                                            << "core/run/Check.h";
        QTest::newRow("model cannot see io") << "model"
                                             << "core/io/CsvFile.h";
        QTest::newRow("cuda cannot see cpu") << "cuda"
                                             << "core/cpu/HostCompiler.h";
        QTest::newRow("cuda cannot see launch") << "cuda"
                                                << "core/launch/RunSetup.h";
        QTest::newRow("launch cannot see cpu") << "launch"
                                               << "core/cpu/CpuRunner.h";
        QTest::newRow("run cannot see worker") << "run"
                                               << "core/worker/WorkerClient.h";
        QTest::newRow("sandbox cannot see cuda") << "sandbox"
                                                 << "core/cuda/Driver.h";
        QTest::newRow("base cannot see model") << "base"
                                               << "core/model/Array.h";
        QTest::newRow("source cannot see model") << "source"
                                                 << "core/model/KernelSignature.h";
    }
    void areaCannotIncludeAnAreaAbove() {
        QFETCH(QString, area);
        QFETCH(QString, header);
        const Compiled compiled = includeFrom(area, header);
        QVERIFY2(!compiled.ok, qPrintable(area + QStringLiteral(" could include ") + header));
        QVERIFY2(compiled.output.contains(header) && compiled.output.contains(QStringLiteral("No such file")),
                 qPrintable(compiled.output));
    }
};

QTEST_MAIN(LayersTest)
#include "tst_layers.moc"
