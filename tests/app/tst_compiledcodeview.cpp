// The compiled-code view driven as the main window drives it: Compile asks for the code, the worker
// compiles it (NVRTC here; nvdisasm is a stand-in printing its recorded output for these kernels, so the
// SASS tab is exercised on machines without one), and the view shows the kernels' registers and the PTX
// and SASS. Clicking a line says which source line it came from; a source line highlights its
// instructions. Drives the real widget offscreen.
#include "CompiledCodeView.h"
#include "WorkerTask.h"
#include "core/cuda/Nvrtc.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest>

using Listing = CompiledCodeView::Listing;

namespace {

const std::string kData = KP_SOURCE_DIR "/tests/cuda/data/";

std::vector<int> asInts(const std::vector<std::size_t>& indexes) {
    return {indexes.begin(), indexes.end()};
}

// Where the line at `index` of a view is drawn, in its viewport's coordinates.
QPoint pointOfLine(QPlainTextEdit* view, int index) {
    return view->cursorRect(QTextCursor(view->document()->findBlockByNumber(index))).center();
}

} // namespace

class TestCompiledCodeView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    kp::run::CompiledCode code_; // the worker's answer, shown again by each test

    void show(CompiledCodeView& view) {
        view.resize(1000, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showResult(code_);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        // nvdisasm for the worker: a script printing what the real one printed for these kernels.
        const auto nvdisasm = dir_.filePath(QStringLiteral("nvdisasm"));
        QFile script(nvdisasm);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(QByteArray("#!/bin/sh\ncat '") + QByteArray::fromStdString(kData) +
                     "nvdisasm-gi-sm90.txt'\n");
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        qputenv("KERNELPAD_NVDISASM", nvdisasm.toLocal8Bit());
        QVERIFY(QFile::copy(QString::fromStdString(kData + "nvdisasm-source.cu"),
                            dir_.filePath(QStringLiteral("kernel.cu"))));
    }

    // What the main window does: the view's request goes to a WorkerTask, the answer back to the view.
    void compilesThroughTheWorker() {
        CompiledCodeView view;
        view.architectureBox()->setCurrentIndex(view.architectureBox()->findData(QStringLiteral("sm_90")));
        QSignalSpy requested(&view, &CompiledCodeView::compileRequested);
        QTest::mouseClick(view.compileButton(), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), QStringLiteral("sm_90"));
        QCOMPARE(requested.at(0).at(1).toBool(), true);
        QVERIFY(!view.compileButton()->isEnabled()); // busy until the answer
        QVERIFY(view.statusText().contains(QStringLiteral("sm_90")));

        WorkerTask task(KP_WORKER_PATH);
        kp::worker::DisassembleRequest request;
        request.playground =
            nlohmann::json{{"format", "kernelpad/1"}, {"source", "kernel.cu"}, {"kernel", "scale_add"}}
                .dump();
        request.path = dir_.filePath(QStringLiteral("code.kpad.json")).toStdString();
        request.arch = requested.at(0).at(0).toString().toStdString();
        request.lineInfo = requested.at(0).at(1).toBool();
        WorkerResultPtr answer;
        connect(&task, &WorkerTask::finished, &view, [&](quint64, const WorkerResultPtr& result) {
            answer = result;
            if (result->compiledCode)
                view.showResult(*result->compiledCode);
            else
                view.showError(QString::fromStdString(result->message));
        });
        task.submit({request});
        QTRY_VERIFY_WITH_TIMEOUT(answer != nullptr, 60000);
        QVERIFY2(answer->compiledCode, answer->message.c_str());
        code_ = *answer->compiledCode;
        QVERIFY(view.compileButton()->isEnabled());
        QCOMPARE(view.compileButton()->text(), QStringLiteral("Refresh"));
        QVERIFY2(view.statusText().startsWith(QStringLiteral("sm_90: 2 kernel")),
                 qPrintable(view.statusText()));
        QCOMPARE(view.code(), code_);
        QCOMPARE(view.architectureBox()->itemText(0), QStringLiteral("Default (sm_90)"));
    }

    void tableListsEveryKernelsResources() {
        CompiledCodeView view;
        show(view);
        auto* table = view.kernelTable();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("scale_add(float const*, float*, float, int)"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("tile_sum(float const*, float*)"));
        QCOMPARE(table->item(0, 0)->toolTip().section('\n', 0, 0), QStringLiteral("_Z9scale_addPKfPffi"));
        for (int row = 0; row < 2; ++row) {
            const int registers = table->item(row, 1)->text().toInt();
            QVERIFY(registers >= 4 && registers <= 255);
            QCOMPARE(registers, code_.kernels[static_cast<std::size_t>(row)].registers);
            QCOMPARE(table->item(row, 4)->text(), QStringLiteral("0")); // no spills
            QCOMPARE(table->item(row, 5)->text(), QStringLiteral("0"));
        }
        QCOMPARE(table->item(1, 3)->text(), QStringLiteral("512")); // tile_sum's __shared__ float[128]
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("0"));
        QCOMPARE(table->currentRow(), 0); // the playground's kernel
        // Choosing a kernel brings its code to the top of both listings.
        table->setCurrentCell(1, 0);
        for (const auto listing : {Listing::Ptx, Listing::Sass}) {
            const auto& lines = listing == Listing::Ptx ? code_.ptx : code_.sass;
            const auto first = static_cast<int>(lines.function("_Z8tile_sumPKfPf")->first);
            QCOMPARE(view.view(listing)->textCursor().blockNumber(), first);
            QCOMPARE(view.view(listing)->verticalScrollBar()->value(), first);
        }
    }

    void listingsShowEveryLineWithItsSourceLine() {
        CompiledCodeView view;
        show(view);
        for (const auto listing : {Listing::Ptx, Listing::Sass}) {
            const auto& lines = listing == Listing::Ptx ? code_.ptx : code_.sass;
            auto* document = view.view(listing)->document();
            QCOMPARE(document->blockCount(), static_cast<int>(lines.lines().size()));
            // The margin: the source line where it is known, blank where not; then the code as compiled.
            for (int i = 0; i < document->blockCount(); ++i) {
                const QString text = document->findBlockByNumber(i).text();
                const auto& line = lines.lines()[static_cast<std::size_t>(i)];
                const QString margin = line.sourceLine > 0
                                           ? QString::number(line.sourceLine).rightJustified(2)
                                           : QStringLiteral("  ");
                QCOMPARE(text, margin + QStringLiteral("  ") + QString::fromStdString(line.text));
            }
        }
        QVERIFY(view.view(Listing::Sass)->toPlainText().contains(QStringLiteral("BAR.SYNC.DEFER_BLOCKING")));
    }

    void clickingALineSaysItsSourceLine() {
        CompiledCodeView view;
        show(view);
        auto* ptx = view.view(Listing::Ptx);
        QSignalSpy activated(&view, &CompiledCodeView::sourceLineActivated);
        // The first line with a source line that is on screen, and one without (the kernel's first line).
        const auto* kernel = code_.ptx.function(code_.kernel);
        int index = -1;
        for (int i = static_cast<int>(kernel->first); i < static_cast<int>(kernel->end) && index < 0; ++i)
            if (code_.ptx.lines()[static_cast<std::size_t>(i)].sourceLine > 0 &&
                ptx->viewport()->rect().contains(pointOfLine(ptx, i)))
                index = i;
        QVERIFY(index >= 0);
        const int sourceLine = code_.ptx.lines()[static_cast<std::size_t>(index)].sourceLine;
        QTest::mouseClick(ptx->viewport(), Qt::LeftButton, {}, pointOfLine(ptx, index));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), sourceLine);
        QCOMPARE(view.highlightedLines(Listing::Ptx), asInts(code_.ptx.linesFrom(sourceLine)));
        QCOMPARE(ptx->textCursor().blockNumber(), index); // the cursor stays where it was clicked
        QTest::mouseClick(ptx->viewport(), Qt::LeftButton, {},
                          pointOfLine(ptx, static_cast<int>(kernel->first)));
        QCOMPARE(activated.count(), 1);
        // In the SASS too: the barrier is __syncthreads()'s line (14).
        view.tabs()->setCurrentIndex(1);
        auto* sass = view.view(Listing::Sass);
        const auto barrier = code_.sass.linesFrom(14);
        QCOMPARE(barrier.size(), std::size_t{1});
        sass->verticalScrollBar()->setValue(static_cast<int>(barrier[0]) - 2);
        QTest::mouseClick(sass->viewport(), Qt::LeftButton, {},
                          pointOfLine(sass, static_cast<int>(barrier[0])));
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(0).toInt(), 14);
    }

    void aSourceLineHighlightsItsInstructions() {
        CompiledCodeView view;
        show(view);
        QSignalSpy activated(&view, &CompiledCodeView::sourceLineActivated);
        view.highlightSourceLine(14);
        QCOMPARE(view.highlightedLines(Listing::Sass), asInts(code_.sass.linesFrom(14)));
        QCOMPARE(view.highlightedLines(Listing::Ptx), asInts(code_.ptx.linesFrom(14)));
        QVERIFY(!view.highlightedLines(Listing::Ptx).empty());
        const int barrier = view.highlightedLines(Listing::Sass).front();
        QVERIFY(view.view(Listing::Sass)
                    ->document()
                    ->findBlockByNumber(barrier)
                    .text()
                    .contains(QStringLiteral("BAR.SYNC")));
        QCOMPARE(view.view(Listing::Sass)->textCursor().blockNumber(), barrier); // brought into view
        QCOMPARE(activated.count(), 0); // the view's own move is not the user's
        // square()'s multiply, inlined into line 8, is highlighted for square's line.
        view.highlightSourceLine(2);
        QCOMPARE(view.highlightedLines(Listing::Sass).size(), std::size_t{1});
        QVERIFY(view.view(Listing::Sass)
                    ->document()
                    ->findBlockByNumber(view.highlightedLines(Listing::Sass).front())
                    .text()
                    .contains(QStringLiteral("FMUL")));
        view.highlightSourceLine(0);
        QVERIFY(view.highlightedLines(Listing::Ptx).empty() && view.highlightedLines(Listing::Sass).empty());
        // The highlight survives a new result.
        view.highlightSourceLine(14);
        view.showResult(code_);
        QCOMPARE(view.highlightedLines(Listing::Sass), asInts(code_.sass.linesFrom(14)));

        // The highlight is the palette's selection colour, so that it reads in the dark theme too.
        QPalette dark = view.palette();
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::Text, QColor(220, 220, 220));
        dark.setColor(QPalette::Highlight, QColor(40, 90, 160));
        view.setPalette(dark);
        view.highlightSourceLine(14);
        const auto selections = view.view(Listing::Sass)->extraSelections();
        QCOMPARE(selections.size(), qsizetype{1});
        QCOMPARE(selections.front().format.background().color().rgb(), QColor(40, 90, 160).rgb());

        const QString shot = dir_.filePath(QStringLiteral("compiled-code.png"));
        view.tabs()->setCurrentIndex(1);
        QVERIFY(view.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
        if (!qEnvironmentVariableIsEmpty("KP_SCREENSHOT_DIR"))
            QFile::copy(shot,
                        qEnvironmentVariable("KP_SCREENSHOT_DIR") + QStringLiteral("/compiled-code.png"));
    }

    void withoutSassTheTabSaysWhy() {
        auto code = code_;
        code.sass = {};
        code.sassUnavailable =
            "SASS needs nvdisasm, which this CUDA toolkit does not have (looked in /usr/local/cuda/bin).";
        CompiledCodeView view;
        view.showResult(code);
        QVERIFY(view.view(Listing::Sass)->toPlainText().isEmpty());
        QCOMPARE(view.view(Listing::Sass)->placeholderText(), QString::fromStdString(code.sassUnavailable));
        QCOMPARE(view.tabs()->tabToolTip(1), QString::fromStdString(code.sassUnavailable));
        QVERIFY(view.statusText().contains(QStringLiteral("No SASS")));
        view.highlightSourceLine(14); // nothing to highlight there, and nothing breaks
        QVERIFY(view.highlightedLines(Listing::Sass).empty());
        QVERIFY(!view.highlightedLines(Listing::Ptx).empty());
    }

    void withoutLineInfoThereIsNoMarginAndNoActivation() {
        auto code = code_;
        code.lineInfo = false;
        code.ptx = kp::cuda::CodeListing::fromPtx("//\n.version 9.0\n.target sm_90\n", "kernel.cu");
        CompiledCodeView view;
        view.showResult(code);
        QCOMPARE(view.view(Listing::Ptx)->document()->findBlockByNumber(1).text(),
                 QStringLiteral(".version 9.0"));
        QVERIFY(view.statusText().contains(QStringLiteral("Tick Source lines")));
        QSignalSpy activated(&view, &CompiledCodeView::sourceLineActivated);
        view.view(Listing::Ptx)
            ->setTextCursor(QTextCursor(view.view(Listing::Ptx)->document()->findBlockByNumber(2)));
        QCOMPARE(activated.count(), 0);
    }

    void changingASettingAfterACompileAsksAgain() {
        CompiledCodeView view;
        QSignalSpy requested(&view, &CompiledCodeView::compileRequested);
        view.architectureBox()->setCurrentIndex(2); // before any compile: only a choice
        QCOMPARE(requested.count(), 0);
        view.showResult(code_);
        QCOMPARE(view.architecture(), QStringLiteral("sm_80")); // kept through the result's list
        view.architectureBox()->setCurrentIndex(view.architectureBox()->findData(QStringLiteral("sm_86")));
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), QStringLiteral("sm_86"));
        view.showResult(code_);
        view.lineInfoBox()->setChecked(false);
        QCOMPARE(requested.count(), 2);
        QCOMPARE(requested.at(1).at(1).toBool(), false);
    }

    void offersNvrtcsArchitecturesAndMarksTheGpus() {
        CompiledCodeView view;
        auto* box = view.architectureBox();
        QCOMPARE(box->itemData(0).toString(), QString()); // Default: the GPU's own, or sm_90
        QVERIFY(box->findData(QStringLiteral("sm_75")) > 0 && box->findData(QStringLiteral("sm_120")) > 0);
        box->setCurrentIndex(box->findData(QStringLiteral("sm_86")));
        view.setArchitectures({80, 86, 90}, QStringLiteral("sm_90"));
        QCOMPARE(box->count(), 4);
        QCOMPARE(view.architecture(), QStringLiteral("sm_86")); // still offered: still chosen
        QCOMPARE(box->itemText(box->findData(QStringLiteral("sm_90"))), QStringLiteral("sm_90 (this GPU)"));
        view.setArchitectures({80, 90}, {});
        QCOMPARE(view.architecture(), QString()); // gone: back to the default
        QCOMPARE(box->itemText(box->findData(QStringLiteral("sm_90"))), QStringLiteral("sm_90"));
    }

    void anErrorKeepsTheCodeShown() {
        CompiledCodeView view;
        view.showError(QStringLiteral("kernel.cu:3:5: error: identifier \"x\" is undefined"));
        QVERIFY(view.statusText().startsWith(QStringLiteral("Not compiled: kernel.cu:3:5")));
        view.showResult(code_);
        QTest::mouseClick(view.compileButton(), Qt::LeftButton);
        QVERIFY(!view.compileButton()->isEnabled());
        view.showError(QStringLiteral("The worker ended abnormally."));
        QVERIFY(view.compileButton()->isEnabled());
        QVERIFY(view.statusText().contains(QStringLiteral("The code shown is from the last compile.")));
        QCOMPARE(view.kernelTable()->rowCount(), 2);
    }
};

QTEST_MAIN(TestCompiledCodeView)
#include "tst_compiledcodeview.moc"
