// Every playground in samples/ runs and passes its check: on the CPU backend in CI, and on CUDA on the
// GPU machine, where a sample without a reference is checked against the CPU backend, so the two
// backends are shown to agree on every sample.
#include "../cuda/GpuTestSupport.h"

#include "core/cpu/Subprocess.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

using namespace kp;

class TestSamples : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;

    static QStringList samples() {
        QStringList files;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(KP_SOURCE_DIR) + "/samples"))
            if (entry.path().string().ends_with(".kpad.json")) files << QString::fromStdString(entry.path().string());
        files.sort();
        return files;
    }
    static void addRows() {
        QTest::addColumn<QString>("file");
        for (const auto& file : samples()) QTest::newRow(QFileInfo(file).fileName().toUtf8().constData()) << file;
    }
    static cpu::SubprocessResult run(const QString& file, const std::string& backend) {
        return cpu::runProcess({std::string(KP_BINARY_DIR) + "/app/kernelpad-cli", "run", file.toStdString(), "--backend", backend});
    }

private slots:
    void initTestCase() {
        qputenv("KERNELPAD_CACHE_DIR", cache_.path().toUtf8());
        QVERIFY2(!samples().isEmpty(), "no *.kpad.json under samples/");
    }

    void runsOnTheCpuBackend_data() { addRows(); }
    void runsOnTheCpuBackend() {
        QFETCH(QString, file);
        const auto r = run(file, "cpu");
        QVERIFY2(r.exitCode == 0, r.output.c_str());
    }

    void runsOnCudaAndAgreesWithTheCpu_data() { addRows(); }
    void runsOnCudaAndAgreesWithTheCpu() {
        KP_REQUIRE_GPU();
        QFETCH(QString, file);
        const auto r = run(file, "cuda");
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        QVERIFY2(r.output.find("matches the reference") != std::string::npos, r.output.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSamples)
#include "tst_samples.moc"
