// The Sweep dock as a student uses it: the multiply_them sample opens with its stored sweep settings,
// F6 sweeps it through the worker (on the CPU backends here, on CUDA too on the GPU machine), the plots
// fill as rows arrive, the results are kept with the playground and come back when it is opened again;
// Stop keeps the rows so far; wrong settings are said in words and nothing runs.
#include "BackendChooser.h"
#include "MainWindow.h"
#include "SweepPlots.h"
#include "SweepView.h"
#include "TimingsView.h"
#include "core/io/PlaygroundFile.h"
#include "core/run/SweepResult.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

namespace {

const QString kSamples = QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/");

bool waitFor(QSignalSpy& spy, int count, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (spy.count() < count && timer.elapsed() < timeoutMs)
        spy.wait(100);
    return spy.count() >= count;
}

void type(QLineEdit* edit, const QString& text) {
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

void tickOnly(SweepView* view, const QStringList& ids) {
    for (int i = 0; i < view->backendList()->count(); ++i) {
        auto* item = view->backendList()->item(i);
        item->setCheckState(ids.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
}

int pointsOf(QCustomPlot* plot) {
    int points = 0;
    for (int i = 0; i < plot->graphCount(); ++i)
        points += plot->graph(i)->dataCount();
    return points;
}

} // namespace

class TestSweepView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // A copy of the sample, so that saving it does not touch the source tree.
    QString copyOfSample() {
        const QString folder = dir_.filePath(QStringLiteral("m%1").arg(++copies_));
        QDir().mkpath(folder);
        for (const char* name :
             {"multiply_them.kpad.json", "multiply_them.cu", "multiply_them.ref.cpp", "README.md"})
            QFile::copy(kSamples + QLatin1String(name), folder + QLatin1Char('/') + QLatin1String(name));
        return folder + QStringLiteral("/multiply_them.kpad.json");
    }
    int copies_ = 0;

    bool open(MainWindow& window, const QString& path) {
        QSignalSpy compiled(&window, &MainWindow::compileFinished);
        window.backends()->setBackend(QStringLiteral("cpu"));
        return window.openFile(path) && waitFor(compiled, 1, 120000);
    }

    // The window shown at a desktop's size with `path` open and compiled; changes are discarded on closing.
    bool showOpen(MainWindow& window, const QString& path) {
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.resize(1500, 1000);
        window.show();
        return open(window, path);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
        qputenv("KERNELPAD_SAMPLES_DIR", KP_SOURCE_DIR "/samples");
    }

    void opensWithTheStoredSettings() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(open(window, kSamples + QStringLiteral("multiply_them.kpad.json")));
        SweepView* view = window.sweep();
        QCOMPARE(view->fromEdit()->text(), QStringLiteral("1000"));
        QCOMPARE(view->toEdit()->text(), QStringLiteral("10000000"));
        QCOMPARE(view->stepsSpin()->value(), 9);
        QCOMPARE(view->flopsEdit()->text(), QStringLiteral("n"));
        // Offered: the CPU backend on all cores and on one, the reference; all cores and the reference
        // ticked.
        QStringList offered, ticked;
        for (int i = 0; i < view->backendList()->count(); ++i)
            offered << view->backendList()->item(i)->data(Qt::UserRole).toString();
        for (const auto& id : view->checkedBackends())
            ticked << QString::fromStdString(id);
        QVERIFY2(offered.contains(QStringLiteral("cpu")) && offered.contains(QStringLiteral("cpu:1")) &&
                     offered.contains(QStringLiteral("reference")),
                 qPrintable(offered.join(',')));
        QVERIFY(ticked.contains(QStringLiteral("cpu")) && ticked.contains(QStringLiteral("reference")) &&
                !ticked.contains(QStringLiteral("cpu:1")));
        QVERIFY(!window.isModified());
        // Choosing the block size offers a range that fits it.
        view->parameterBox()->setCurrentIndex(1);
        QCOMPARE(view->fromEdit()->text(), QStringLiteral("32"));
        QCOMPARE(view->toEdit()->text(), QStringLiteral("1024"));
        QVERIFY(window.isModified()); // the settings are the playground's
    }

    // The sweep's FLOPs formula also gives a single run its GFLOP/s in the timings.
    void aRunShowsItsGflopsFromTheFlopsFormula() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(open(window, kSamples + QStringLiteral("multiply_them.kpad.json")));
        QSignalSpy ran(&window, &MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(waitFor(ran, 1, 120000));
        QVERIFY2(window.timings()->summaryText().contains(QStringLiteral("GFLOP/s")),
                 qPrintable(window.timings()->summaryText()));
        // Without a formula, no GFLOP/s is claimed.
        window.sweep()->flopsEdit()->clear();
        QTest::keyClicks(window.sweep()->flopsEdit(), QStringLiteral(" "));
        QVERIFY(window.startRun());
        QVERIFY(waitFor(ran, 2, 120000));
        QVERIFY2(!window.timings()->summaryText().contains(QStringLiteral("GFLOP/s")),
                 qPrintable(window.timings()->summaryText()));
    }

    void wrongSettingsAreSaidAndNothingRuns() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(open(window, kSamples + QStringLiteral("multiply_them.kpad.json")));
        SweepView* view = window.sweep();
        type(view->fromEdit(), QStringLiteral("lots"));
        QVERIFY(!window.startSweep());
        QVERIFY2(view->statusText().contains(QStringLiteral("From: \"lots\" is not a number")),
                 qPrintable(view->statusText()));
        type(view->fromEdit(), QStringLiteral("5000"));
        type(view->toEdit(), QStringLiteral("10"));
        QVERIFY(!window.startSweep());
        QVERIFY2(view->statusText().contains(QStringLiteral("To: 10 is below From (5000)")),
                 qPrintable(view->statusText()));
        type(view->toEdit(), QStringLiteral("10k"));
        tickOnly(view, {});
        QVERIFY(!window.startSweep());
        QVERIFY2(view->statusText().contains(QStringLiteral("tick at least one")),
                 qPrintable(view->statusText()));
        QVERIFY(!window.sweeping());
        // The text typed is kept, as typed.
        QCOMPARE(view->toEdit()->text(), QStringLiteral("10k"));
    }

    // The whole loop: F6, rows arriving, plots with data, results kept with the playground and shown again.
    void sweepsOnTheCpuAndKeepsTheResultsWithThePlayground() {
        const QString path = copyOfSample();
        {
            MainWindow window;
            QVERIFY(showOpen(window, path));
            SweepView* view = window.sweep();
            type(view->toEdit(), QStringLiteral("1M"));
            view->stepsSpin()->setValue(4);
            view->repeatSpin()->setValue(3);
            QStringList wanted{QStringLiteral("cpu"), QStringLiteral("cpu:1"), QStringLiteral("reference")};
            tickOnly(view, wanted);
            QSignalSpy finished(&window, &MainWindow::sweepFinished);
            QTest::keyClick(&window, Qt::Key_F6);
            QVERIFY(window.sweeping());
            QVERIFY(view->running());
            QCOMPARE(view->runButton()->text(), QStringLiteral("Stop Sweep"));
            QVERIFY(!view->fromEdit()->isEnabled());
            QVERIFY(waitFor(finished, 1, 180000));
            QVERIFY2(finished.first().first().toBool(), qPrintable(view->statusText()));
            QVERIFY(!window.sweeping());
            QCOMPARE(view->runButton()->text(), QStringLiteral("Run Sweep"));

            const auto& result = view->result();
            QCOMPARE(result.rows.size(), std::size_t{12});
            for (const auto& id : {"cpu", "cpu:1", "reference"}) {
                const auto rows = result.rowsOf(id);
                QCOMPARE(rows.size(), std::size_t{4});
                for (std::size_t i = 1; i < rows.size(); ++i)
                    QVERIFY(rows[i]->elements > rows[i - 1]->elements);
                for (const auto* row : rows)
                    QVERIFY2(row->ran(), row->error.c_str());
            }
            QVERIFY2(view->statusText().startsWith(QStringLiteral("12 measurements")),
                     qPrintable(view->statusText()));
            // Every plot has data: 4 points per backend on the time and throughput plots, a roofline point
            // each.
            SweepPlots* plots = view->plots();
            QVERIFY2(pointsOf(plots->timePlot()) >= 12,
                     qPrintable(QString::number(pointsOf(plots->timePlot()))));
            QVERIFY(pointsOf(plots->throughputPlot()) >= 12);
            QVERIFY(pointsOf(plots->rooflinePlot()) >= 3);
            QVERIFY(plots->timePlot()->xAxis->scaleType() == QCPAxis::stLogarithmic);
            QVERIFY(plots->timePlot()->yAxis->scaleType() == QCPAxis::stLogarithmic);
            auto* dock = window.findChild<QDockWidget*>(QStringLiteral("sweepDock"));
            QVERIFY(dock && dock->isVisible());
            for (int tab = 0; tab < 3; ++tab) {
                plots->tabs()->setCurrentIndex(tab);
                QCoreApplication::processEvents();
                window.grab().save(
                    QDir::temp().filePath(QStringLiteral("kernelpad-sweep-window-%1.png").arg(tab)));
            }
            // Kept with the playground: saved, and there when the file is read.
            QVERIFY(window.isModified());
            QVERIFY(window.save());
            const auto stored = kp::run::storedSweepResult(kp::io::readPlayground(path.toStdString()));
            QVERIFY(stored);
            QCOMPARE(stored->rows, result.rows);
            QCOMPARE(stored->spec.to, 1e6);
            // Exports: CSV as the CLI writes it, and the current plot as a picture.
            const QString csv = dir_.filePath(QStringLiteral("sweep.csv"));
            QString error;
            QVERIFY2(plots->exportCsv(csv, &error), qPrintable(error));
            QFile file(csv);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll().count('\n'), 13);
            QVERIFY2(plots->exportPlot(dir_.filePath(QStringLiteral("sweep.svg")), &error),
                     qPrintable(error));
        }
        MainWindow again;
        again.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(open(again, path));
        QCOMPARE(again.sweep()->result().rows.size(), std::size_t{12});
        QVERIFY(pointsOf(again.sweep()->plots()->timePlot()) >= 12);
        QCOMPARE(again.sweep()->toEdit()->text(), QStringLiteral("1000000"));
        QVERIFY(again.sweep()->statusText().contains(QStringLiteral("12 measurements")));
    }

    // A block-size sweep of multiply_them (400 elements, a stored size sweep) was drawn against the
    // array's size: every point at x = 400, a vertical line. Its points go at their block sizes.
    void aBlockSizeSweepIsDrawnAgainstTheBlockSize() {
        const QString path = copyOfSample();
        MainWindow window;
        QVERIFY(showOpen(window, path));
        SweepView* view = window.sweep();
        view->parameterBox()->setCurrentIndex(1); // threads per block
        type(view->fromEdit(), QStringLiteral("32"));
        type(view->toEdit(), QStringLiteral("256"));
        view->stepsSpin()->setValue(4);
        view->repeatSpin()->setValue(1);
        tickOnly(view, {QStringLiteral("cpu")});
        QSignalSpy finished(&window, &MainWindow::sweepFinished);
        QVERIFY(window.startSweep());
        QVERIFY(waitFor(finished, 1, 180000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(view->statusText()));
        QCustomPlot* time = view->plots()->timePlot();
        QVERIFY(time->graphCount() > 0);
        QList<double> keys;
        for (const auto& point : *time->graph(0)->data())
            keys << point.key;
        QCOMPARE(keys, (QList<double>{32, 64, 128, 256}));
        QVERIFY2(time->xAxis->label().contains(QStringLiteral("block")), qPrintable(time->xAxis->label()));
        // No GPU took part: the note says what the CPU-only sweep shows and how to get GPU times.
        QLabel* note = view->plots()->cpuOnlyNote();
        QVERIFY(!note->isHidden());
        QVERIFY2(
            note->text().contains(QStringLiteral("No GPU took part")) &&
                note->text().contains(QStringLiteral("kernelpad-cli sweep ") + QFileInfo(path).fileName()),
            qPrintable(note->text()));
        // The roofline places the CPU's point (multiply_them gives its FLOPs) and says why it has no roof.
        QStringList texts;
        QCustomPlot* roofline = view->plots()->rooflinePlot();
        for (int i = 0; i < roofline->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(roofline->item(i))) texts << text->text();
        QVERIFY2(texts.join(QLatin1Char('|')).contains(QStringLiteral("No roof: ")),
                 qPrintable(texts.join('|')));
    }

    void stopKeepsTheRowsSoFar() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QVERIFY(open(window, copyOfSample()));
        SweepView* view = window.sweep();
        view->scaleBox()->setCurrentIndex(1); // linear: many similar points
        type(view->fromEdit(), QStringLiteral("100000"));
        type(view->toEdit(), QStringLiteral("4M"));
        view->stepsSpin()->setValue(400);
        view->repeatSpin()->setValue(20);
        tickOnly(view, {QStringLiteral("cpu:1")});
        QSignalSpy finished(&window, &MainWindow::sweepFinished);
        QVERIFY(window.startSweep());
        QTRY_VERIFY_WITH_TIMEOUT(view->result().rows.size() >= 2, 60000);
        QVERIFY(view->progress()->isVisible());
        QVERIFY(view->progress()->value() >= 2);
        QTest::mouseClick(view->runButton(), Qt::LeftButton); // the button says Stop Sweep now
        QVERIFY(waitFor(finished, 1, 20000));
        QVERIFY(!finished.first().first().toBool());
        const auto kept = view->result().rows.size();
        QVERIFY2(kept >= 2 && kept < 400, qPrintable(QString::number(kept)));
        QVERIFY(view->result().cancelled);
        QVERIFY2(view->statusText().contains(QStringLiteral("Stopped")), qPrintable(view->statusText()));
        QVERIFY(pointsOf(view->plots()->timePlot()) >= 2);
        // The app goes on: a run after the stopped sweep works.
        QSignalSpy ran(&window, &MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(waitFor(ran, 1, 120000));
        QVERIFY(ran.first().first().toBool());
    }

    // On the GPU machine: the sweep the issue asks for, multiply_them's crossover found and drawn.
    void drawsMultiplyThemsCrossoverOnCuda() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        if (!window.backends()->setBackend(QStringLiteral("cuda:0")))
            QSKIP(qPrintable(QStringLiteral("no CUDA device here (%1): this runs on the GPU machine")
                                 .arg(window.backends()->cudaUnavailableReason())));
        window.resize(1500, 1000);
        window.show();
        QSignalSpy compiled(&window, &MainWindow::compileFinished);
        QVERIFY(window.openFile(copyOfSample()));
        QVERIFY(waitFor(compiled, 1, 120000));
        SweepView* view = window.sweep();
        tickOnly(view, {QStringLiteral("cuda:0"), QStringLiteral("cpu"), QStringLiteral("reference")});
        QSignalSpy finished(&window, &MainWindow::sweepFinished);
        QVERIFY(window.startSweep());
        QVERIFY(waitFor(finished, 1, 300000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(view->statusText()));
        const auto& result = view->result();
        QCOMPARE(result.rows.size(), std::size_t{27});
        const auto kernelOnly = kp::run::crossover(result, "cuda:0", "reference", false);
        const auto withCopies = kp::run::crossover(result, "cuda:0", "reference", true);
        QVERIFY(kernelOnly.kind == kp::run::Crossover::Kind::Found);
        QVERIFY(withCopies.kind == kp::run::Crossover::Kind::Found);
        const QString verdicts = view->plots()->crossoverText();
        qInfo("%s", qPrintable(verdicts));
        QVERIFY(verdicts.contains(QString::fromStdString(kp::run::describe(kernelOnly, result))));
        QVERIFY(verdicts.contains(QString::fromStdString(kp::run::describe(withCopies, result))));
        // Drawn: a vertical line at each crossover on the time plot.
        int lines = 0;
        for (int i = 0; i < view->plots()->timePlot()->itemCount(); ++i)
            if (auto* line = qobject_cast<QCPItemStraightLine*>(view->plots()->timePlot()->item(i)))
                if (std::abs(line->point1->coords().x() - kernelOnly.x) < 1e-6 * kernelOnly.x ||
                    std::abs(line->point1->coords().x() - withCopies.x) < 1e-6 * withCopies.x)
                    ++lines;
        QCOMPARE(lines, 2);
        view->plots()->tabs()->setCurrentIndex(0);
        window.grab().save(QDir::temp().filePath(QStringLiteral("kernelpad-sweep-cuda.png")));
        QVERIFY(view->plots()->exportPlot(
            QDir::temp().filePath(QStringLiteral("kernelpad-sweep-cuda-time.png")), nullptr));
    }
};

QTEST_MAIN(TestSweepView)
#include "tst_sweepview.moc"
