// Opening files in the main window: a playground is read and checked by the core and nothing is
// compiled or run; the compile options a shared playground carries are shown before any run; a broken
// playground is refused with the reason and the editor keeps its text. Drives the real window offscreen.
#include "CompiledCodeView.h"
#include "KernelEditor.h"
#include "MainWindow.h"

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextBlock>
#include <QMessageBox>
#include <QTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <Qsci/qsciscintilla.h>

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& text) {
        QFile out(dir_.filePath(name));
        if (!out.open(QIODevice::WriteOnly)) return {};
        out.write(text);
        return out.fileName();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
    }

    void showsTheCompileOptionsAPlaygroundCarries() {
        write(QStringLiteral("k.cu"), "__global__ void k(float* x) { x[threadIdx.x] = N; }\n");
        const QString path = write(QStringLiteral("shared.kpad.json"), R"({"format": "kernelpad/1", "title": "Shared", "source": "k.cu",
            "kernel": "k", "compile": {"options": ["--use_fast_math"], "defines": {"N": "400"}},
            "launch": {"grid": [1], "block": [4]},
            "args": [{"name": "x", "array": {"dtype": "float32", "shape": [4]}, "direction": "out"}]})");
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.show();
        QVERIFY(window.openFile(path));
        QVERIFY(window.editor()->text().contains(QStringLiteral("x[threadIdx.x] = N")));
        QVERIFY(window.compileNotice()->isVisible());
        QVERIFY2(window.compileNotice()->text().contains(QStringLiteral("-DN=400 --use_fast_math")),
                 qPrintable(window.compileNotice()->text()));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("Shared")));
        const QImage shot = window.grab().toImage();
        QVERIFY(!shot.isNull());
        shot.save(QStringLiteral("/tmp/kernelpad_compile_notice.png"));

        // The sample carries none: no notice.
        QVERIFY(window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/multiply_them.kpad.json")));
        QVERIFY(!window.compileNotice()->isVisible());
        QVERIFY(window.editor()->text().contains(QStringLiteral("multiply_them")));
        window.close();
    }

    void refusesABrokenPlaygroundAndKeepsTheText() {
        const QString path = write(QStringLiteral("broken.kpad.json"), R"({"format": "kernelpad/1", "code": "x", "kernel": 5})");
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.editor()->setText(QStringLiteral("my work\n"));
        QTimer::singleShot(0, [] {
            // The refusal is a message box: close it as a user would, after reading it.
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(w)) {
                    QVERIFY(box->text().contains(QStringLiteral("kernel")));
                    box->accept();
                }
        });
        QVERIFY(!window.openFile(path));
        QCOMPARE(window.editor()->text(), QStringLiteral("my work\n"));
        window.close();
    }

    // F7 shows the open kernel's PTX (and its SASS where nvdisasm is), and the editor and the code follow
    // each other: a line of the kernel highlights its instructions, an instruction moves the editor.
    void showsTheCompiledCodeOfTheOpenKernel() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/multiply_them.kpad.json")));
        window.showCompiledCode();
        QVERIFY(window.compilingCode());
        QTRY_VERIFY_WITH_TIMEOUT(!window.compilingCode(), 60000);
        CompiledCodeView* code = window.compiledCode();
        QVERIFY(code->isVisible());
        if (code->code().arch.empty()) {
            // No NVRTC on this machine: the view says so instead of showing code.
            QVERIFY2(code->statusText().contains(QStringLiteral("NVRTC")), qPrintable(code->statusText()));
            QSKIP("NVRTC is not installed here: the rest needs the compiled code");
        }
        QCOMPARE(code->kernelTable()->rowCount(), 1);
        QVERIFY(code->kernelTable()->item(0, 0)->text().contains(QStringLiteral("multiply_them")));
        QVERIFY(code->kernelTable()->item(0, 1)->text().toInt() > 0); // registers
        QVERIFY(code->view(CompiledCodeView::Listing::Ptx)->toPlainText().contains(QStringLiteral(".entry multiply_them")));

        // The line that multiplies: its loads, multiply and store are highlighted in the PTX.
        const int multiply = static_cast<int>(window.editor()->text().split(QLatin1Char('\n')).indexOf(
                                 QRegularExpression(QStringLiteral(".*dest\\[i\\] = a\\[i\\] \\* b\\[i\\].*")))) + 1;
        QVERIFY(multiply > 0);
        window.editor()->setCursorPosition(multiply - 1, 0); // QScintilla tells of the move when it next updates
        QTRY_VERIFY(!code->highlightedLines(CompiledCodeView::Listing::Ptx).empty());
        const std::vector<int> lines = code->highlightedLines(CompiledCodeView::Listing::Ptx);
        QString highlighted;
        for (int index : lines) {
            QCOMPARE(code->sourceLineAt(CompiledCodeView::Listing::Ptx, index), multiply);
            highlighted += code->view(CompiledCodeView::Listing::Ptx)->document()->findBlockByNumber(index).text();
        }
        QVERIFY2(highlighted.contains(QStringLiteral("mul.f32")), qPrintable(highlighted));

        // Activating an instruction of another line moves the editor there.
        window.editor()->setCursorPosition(0, 0);
        emit code->sourceLineActivated(multiply);
        int line = 0, column = 0;
        window.editor()->getCursorPosition(&line, &column);
        QCOMPARE(line + 1, multiply);
        const QImage shot = window.grab().toImage();
        QVERIFY(shot.save(QStringLiteral("/tmp/kernelpad_compiled_code.png")));
        window.close();
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
