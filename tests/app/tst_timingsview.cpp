// The timings view fed run reports as the main window feeds them: bars at the medians with whiskers over
// the repeats, the history and its "3.0x faster", bandwidth and GFLOP/s against the peak, CPU runs,
// malformed reports, the log scale, and exports. Drives the real widget offscreen.
#include "TimingHistoryModel.h"
#include "TimingsView.h"

#include <QCheckBox>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <qcustomplot.h>

using nlohmann::json;

namespace {

const char* const kGpu = "cuda:0 NVIDIA H100 80GB HBM3";

// A report as RunReport::toJson writes it: 400 MB of x and y in, y back.
json report(const std::string& kernel, const std::vector<double>& kernelMs,
            std::optional<double> referenceMs = {}, const std::string& backend = kGpu) {
    json r = {{"backend", backend},
              {"kernel_ms", kernelMs},
              {"h2d_ms", {1.0, 1.2, 0.9, 1.1, 1.0}},
              {"d2h_ms", {0.5, 0.6, 0.4, 0.5, 0.5}},
              {"kernel", kernel},
              {"launch", {{"grid", {1024, 1, 1}}, {"block", {256, 1, 1}}, {"shared_bytes", 0}}},
              {"compile_ms", 12.5},
              {"h2d_by_argument",
               {{{"argument", "x"}, {"bytes", 400'000'000}, {"ms", 0.5}},
                {{"argument", "y"}, {"bytes", 400'000'000}, {"ms", 0.5}}}},
              {"d2h_by_argument", {{{"argument", "y"}, {"bytes", 400'000'000}, {"ms", 0.5}}}},
              {"cancelled", false}};
    if (referenceMs) r["reference_ms"] = *referenceMs;
    return r;
}
const std::vector<double> kSlow{3.0, 2.9, 3.3, 3.1, 3.0};   // median 3.0
const std::vector<double> kFast{1.0, 0.95, 1.2, 1.0, 1.05}; // median 1.0

std::map<QString, QCPBars*> barsByName(QCustomPlot* plot) {
    std::map<QString, QCPBars*> bars;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* bar = qobject_cast<QCPBars*>(plot->plottable(i))) bars[bar->name()] = bar;
    return bars;
}

QCPErrorBars* whiskersOf(QCustomPlot* plot, QCPBars* bar) {
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* spread = qobject_cast<QCPErrorBars*>(plot->plottable(i));
            spread && spread->dataPlottable() == bar)
            return spread;
    return nullptr;
}

QStringList itemTexts(QCustomPlot* plot) {
    QStringList texts;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) texts << text->text();
    return texts;
}

} // namespace

class TestTimingsView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void showsBarsAtTheMediansWithWhiskersOverTheRepeats() {
        TimingsView view;
        QVERIFY(view.addRun(report("saxpy", kSlow, 300.0)));
        const auto bars = barsByName(view.barsPlot());
        QCOMPARE(bars.size(), std::size_t(4));
        struct Expected {
            const char* name;
            double median, min, max;
        };
        for (const Expected& e :
             {Expected{"host → device", 1.0, 0.9, 1.2}, Expected{"kernel", 3.0, 2.9, 3.3},
              Expected{"device → host", 0.5, 0.4, 0.6}, Expected{"CPU reference", 300, 300, 300}}) {
            const QString name = QString::fromUtf8(e.name);
            QVERIFY2(bars.count(name), qPrintable(name));
            QCPBars* bar = bars.at(name);
            QCOMPARE(bar->data()->size(), 1);
            QCOMPARE(bar->data()->at(0)->value, e.median);
            QCPErrorBars* whiskers = whiskersOf(view.barsPlot(), bar);
            if (e.min == e.max) { // one sample: nothing to spread
                QVERIFY(!whiskers);
                continue;
            }
            QVERIFY(whiskers);
            QCOMPARE(whiskers->errorType(), QCPErrorBars::etValueError);
            QVERIFY(qFuzzyCompare(whiskers->dataValueRange(0).lower, e.min));
            QVERIFY(qFuzzyCompare(whiskers->dataValueRange(0).upper, e.max));
        }
        const QStringList labels = itemTexts(view.barsPlot());
        QVERIFY2(labels.contains(QStringLiteral("3.00 ms  (2.90 ms to 3.30 ms, 5 repeats)")),
                 qPrintable(labels.join(" | ")));
        QVERIFY2(labels.contains(QStringLiteral("300 ms")), qPrintable(labels.join(" | ")));
        QVERIFY2(view.summaryText().startsWith(
                     QStringLiteral("saxpy on cuda:0 NVIDIA H100 80GB HBM3: kernel 3.00 ms "
                                    "(median of 5 repeats, 2.90 ms to 3.30 ms), 4.50 ms with the copies")),
                 qPrintable(view.summaryText()));
    }

    void historySaysTheChangeAgainstThePreviousRunOfTheSameKernel() {
        TimingsView view;
        QVERIFY(view.addRun(report("saxpy", kSlow)));
        QCOMPARE(view.lastChangeText(), QString());
        QVERIFY(view.addRun(report("transpose", {7.0})));
        QVERIFY(view.addRun(report("saxpy", kFast), QStringLiteral("float4 loads")));
        QCOMPARE(view.historySize(), 3);
        QCOMPARE(view.lastChangeText(), QStringLiteral("3.0x faster"));
        QVERIFY2(
            view.summaryText().endsWith(QStringLiteral("Against the previous run of saxpy: 3.0x faster")),
            qPrintable(view.summaryText()));

        const auto* model = view.history();
        const auto cell = [&](int row, int column) {
            return model->data(model->index(row, column)).toString();
        };
        QCOMPARE(cell(0, TimingHistoryModel::Change), QStringLiteral("-"));
        QCOMPARE(cell(1, TimingHistoryModel::Change), QStringLiteral("-")); // transpose's first run
        QCOMPARE(cell(2, TimingHistoryModel::Change), QStringLiteral("3.0x faster"));
        QCOMPARE(model->data(model->index(2, TimingHistoryModel::Change), Qt::ForegroundRole)
                     .value<QColor>()
                     .green(),
                 0x7b);
        QCOMPARE(cell(2, TimingHistoryModel::Label), QStringLiteral("float4 loads"));
        QCOMPARE(cell(2, TimingHistoryModel::Kernel), QStringLiteral("saxpy"));
        QCOMPARE(cell(2, TimingHistoryModel::Backend), QString::fromUtf8(kGpu));
        QCOMPARE(cell(0, TimingHistoryModel::KernelMs), QStringLiteral("3.00 ms"));
        QCOMPARE(cell(2, TimingHistoryModel::KernelMs), QStringLiteral("1.00 ms"));
        QCOMPARE(cell(2, TimingHistoryModel::TotalMs), QStringLiteral("2.50 ms"));
        QVERIFY(!cell(2, TimingHistoryModel::Time).isEmpty());

        // The latest bars are the fast run's; the history plot has a line per kernel.
        QCOMPARE(barsByName(view.barsPlot()).at(QStringLiteral("kernel"))->data()->at(0)->value, 1.0);
        QCOMPARE(view.historyPlot()->graphCount(), 2);
        QCPGraph* saxpy = view.historyPlot()->graph(0);
        QCOMPARE(saxpy->name(), QStringLiteral("saxpy"));
        QCOMPARE(saxpy->data()->size(), 2);
        QCOMPARE(saxpy->data()->at(0)->key, 1.0);
        QCOMPARE(saxpy->data()->at(0)->value, 3.0);
        QCOMPARE(saxpy->data()->at(1)->key, 3.0);
        QCOMPARE(saxpy->data()->at(1)->value, 1.0);
    }

    void saysTheBandwidthAndFlopsAgainstThePeak() {
        TimingsView view;
        view.setDevicePeak(3352, 51200);
        // 1.2 GB in and out over a 1 ms kernel: 1200 GB/s; 2e8 flops in 1 ms: 200 GFLOP/s.
        QVERIFY(view.addRun(report("saxpy", kFast), {}, 2e8));
        QVERIFY2(
            view.summaryText().contains(QStringLiteral("1200 GB/s effective (36% of the 3352 GB/s peak), 200 "
                                                       "GFLOP/s (0.4% of the 51200 GFLOP/s peak)")),
            qPrintable(view.summaryText()));
        view.setDevicePeak(0, 0);
        QVERIFY2(view.summaryText().contains(QStringLiteral("1200 GB/s effective, 200 GFLOP/s")),
                 qPrintable(view.summaryText()));
        QVERIFY(!view.summaryText().contains(QStringLiteral("peak")));
    }

    void showsACpuBackendRunWithItsCopiesAndNoGpuPeak() {
        TimingsView view;
        view.setDevicePeak(3352, 51200);
        QVERIFY(view.addRun(report("saxpy", {40, 42, 41}, {}, "cpu (16 threads)")));
        const auto bars = barsByName(view.barsPlot());
        QCOMPARE(bars.size(), std::size_t(3));
        QVERIFY(bars.count(QStringLiteral("copy in")) && bars.count(QStringLiteral("kernel (CPU)")) &&
                bars.count(QStringLiteral("copy out")));
        QCOMPARE(bars.at(QStringLiteral("kernel (CPU)"))->data()->at(0)->value, 41.0);
        QVERIFY2(view.summaryText().contains(QStringLiteral("29.3 GB/s effective")),
                 qPrintable(view.summaryText()));
        QVERIFY(!view.summaryText().contains(QStringLiteral("peak")));
    }

    void showsTheCpuBackendBesideACudaRun() {
        TimingsView view;
        auto r = report("saxpy", kFast);
        r["cpu_backend_ms"] = 800.0;
        QVERIFY(view.addRun(r));
        const auto bars = barsByName(view.barsPlot());
        QVERIFY(bars.count(QStringLiteral("CPU backend")));
        QCOMPARE(bars.at(QStringLiteral("CPU backend"))->data()->at(0)->value, 800.0);
        QVERIFY(!bars.count(QStringLiteral("CPU reference")));
    }

    void saysWhyAReportCannotBeShown_data() {
        QTest::addColumn<QString>("broken");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no kernel_ms") << R"({"backend": "cpu", "kernel": "saxpy"})"
                                      << "kernel_ms: missing";
        QTest::newRow("a repeat is text") << R"({"kernel_ms": [1, "slow"]})"
                                          << "kernel_ms[1]: expected a time in ms";
        QTest::newRow("not an object") << "null"
                                       << "expected a JSON object, found null";
    }
    void saysWhyAReportCannotBeShown() {
        QFETCH(QString, broken);
        QFETCH(QString, reason);
        TimingsView view;
        QVERIFY(view.addRun(report("saxpy", kSlow)));
        QVERIFY(!view.addRun(json::parse(broken.toStdString())));
        QCOMPARE(view.historySize(), 1);
        QVERIFY2(view.summaryText().startsWith(
                     QStringLiteral("The timings of this run cannot be shown: run report: ")),
                 qPrintable(view.summaryText()));
        QVERIFY2(view.summaryText().contains(reason), qPrintable(view.summaryText()));
        QCOMPARE(view.barsPlot()->plottableCount(), 0); // no bars that belong to another run
    }

    void turnsOnTheLogScaleWhenPhasesDifferByOrdersOfMagnitude() {
        TimingsView view;
        view.show();
        QVERIFY(view.addRun(report("saxpy", kFast)));
        QVERIFY(!view.logScaleBox()->isChecked());
        QCOMPARE(view.barsPlot()->xAxis->scaleType(), QCPAxis::stLinear);
        QVERIFY(view.addRun(report("saxpy", kFast, 1000.0)));
        QVERIFY(view.logScaleBox()->isChecked());
        QCOMPARE(view.barsPlot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(view.barsPlot()->xAxis->range().lower > 0);
        QVERIFY(view.barsPlot()->xAxis->range().upper > 1000);
        // The student's own choice stays.
        QTest::mouseClick(view.logScaleBox(), Qt::LeftButton);
        QCOMPARE(view.barsPlot()->xAxis->scaleType(), QCPAxis::stLinear);
        QVERIFY(view.addRun(report("saxpy", kFast, 1000.0)));
        QVERIFY(!view.logScaleBox()->isChecked());
        QCOMPARE(view.barsPlot()->xAxis->scaleType(), QCPAxis::stLinear);
    }

    void keepsTheNewestRunsUpToTheCapacity() {
        TimingsView view;
        const int capacity = view.history()->capacity();
        QCOMPARE(capacity, TimingHistoryModel::kDefaultCapacity);
        for (int i = 0; i < capacity + 5; ++i)
            QVERIFY(view.addRun(report("saxpy", {1.0 + i})));
        QCOMPARE(view.historySize(), capacity);
        QCOMPARE(view.history()->run(0).number, 6); // runs 1 to 5 dropped off
        QCOMPARE(view.historyPlot()->graph(0)->data()->size(), capacity);
    }

    void clearButtonEmptiesTheHistory() {
        TimingsView view;
        view.show();
        QVERIFY(view.addRun(report("saxpy", kSlow)));
        QTest::mouseClick(view.clearButton(), Qt::LeftButton);
        QCOMPARE(view.historySize(), 0);
        QCOMPARE(view.barsPlot()->plottableCount(), 0);
        QCOMPARE(view.historyPlot()->graphCount(), 0);
        QVERIFY(view.summaryText().startsWith(QStringLiteral("No runs yet")));
        QVERIFY(view.addRun(report("saxpy", kFast)));
        QCOMPARE(view.lastChangeText(), QString()); // nothing left to compare with
    }

    void exportsThePlot_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::addColumn<QByteArray>("marker");
        QTest::newRow("png") << "bars.png" << QByteArray("\x89PNG\r\n\x1a\n") << QByteArray("IHDR");
        QTest::newRow("svg") << "bars.svg" << QByteArray("<?xml") << QByteArray("<svg");
        QTest::newRow("pdf") << "bars.PDF" << QByteArray("%PDF-") << QByteArray("%%EOF");
    }
    void exportsThePlot() {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        QFETCH(QByteArray, marker);
        TimingsView view;
        QVERIFY(view.addRun(report("saxpy", kSlow, 300.0)));
        const QString path = dir_.filePath(name);
        QString error;
        QVERIFY2(view.exportPlot(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(bytes.startsWith(magic), bytes.left(16).toHex().constData());
        QVERIFY(bytes.contains(marker));
        QVERIFY(bytes.size() > 1000);
    }

    void refusesToExportWhereItCannot() {
        TimingsView view;
        QVERIFY(view.addRun(report("saxpy", kSlow)));
        QString error;
        QVERIFY(!view.exportPlot(dir_.filePath(QStringLiteral("bars.jpgx")), &error));
        QVERIFY2(error.contains(QStringLiteral(".png, .svg or .pdf")), qPrintable(error));
        error.clear();
        QVERIFY(!view.exportPlot(dir_.filePath(QStringLiteral("no/such/folder/bars.png")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("Could not write")), qPrintable(error));
        error.clear();
        QVERIFY(!view.exportHistoryCsv(dir_.filePath(QStringLiteral("no/such/folder/history.csv")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("Could not write")), qPrintable(error));
    }

    void exportsTheHistoryAsCsvOneLinePerRun() {
        TimingsView view;
        QVERIFY(view.addRun(report("saxpy", kSlow), QStringLiteral("naive")));
        QVERIFY(view.addRun(report("saxpy", kFast), QStringLiteral("tiled, \"v2\"")));
        QVERIFY(view.addRun(report("saxpy", {4.0}, {}, "cpu (16 threads)")));
        const QString path = dir_.filePath(QStringLiteral("history.csv"));
        QString error;
        QVERIFY2(view.exportHistoryCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(
            lines[0].startsWith(QStringLiteral("run,time,label,backend,kernel,repeats,kernel_median_ms")));
        QVERIFY2(lines[1].contains(QStringLiteral(",naive,cuda:0 NVIDIA H100 80GB HBM3,saxpy,5,3,2.9,3.3,")),
                 qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(QStringLiteral(",\"tiled, \"\"v2\"\"\",")), qPrintable(lines[2]));
        QVERIFY2(lines[2].endsWith(QStringLiteral(",3.0x faster")), qPrintable(lines[2]));
        QVERIFY2(lines[3].endsWith(QStringLiteral(",4.0x slower")), qPrintable(lines[3]));
    }

    void drawsTheViewForAScreenshot() {
        TimingsView view;
        view.resize(1100, 720);
        view.setDevicePeak(3352, 51200);
        view.show();
        QVERIFY(view.addRun(report("saxpy", kSlow, 300.0), QStringLiteral("naive"), 2e8));
        QVERIFY(view.addRun(report("transpose", {2.0, 2.2, 1.9})));
        QVERIFY(view.addRun(report("saxpy", kFast, 300.0), QStringLiteral("float4 loads"), 2e8));
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50); // the table sizes its columns to their contents on the next turn of the event loop
        const QImage shot = view.grab().toImage();
        QVERIFY(!shot.isNull());
        QVERIFY(shot.save(QStringLiteral("/tmp/timings.png")));
    }
};

QTEST_MAIN(TestTimingsView)
#include "tst_timingsview.moc"
