// Opening files in the main window: a playground is read and checked by the core and nothing is
// compiled or run; the compile options a shared playground carries are shown before any run; a broken
// playground is refused with the reason and the editor keeps its text. Drives the real window offscreen.
#include "KernelEditor.h"
#include "MainWindow.h"

#include <QFile>
#include <QLabel>
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
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
