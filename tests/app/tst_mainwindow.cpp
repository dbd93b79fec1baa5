// Opening and saving files in the main window: a playground is read and checked by the core and nothing
// is compiled or run; the compile options a shared playground carries are shown before any run; a broken
// playground, a FIFO or a device is refused at once with the reason and the editor keeps its text.
// Saving: a name without the playground ending still saves a playground, links are followed and
// permissions kept, a playground and its source are saved both or neither, and a file the window did not
// open or write is replaced only when the person says so. Drives the real window offscreen.
#include "BackendChooser.h"
#include "CompiledCodeView.h"
#include "KernelEditor.h"
#include "LaunchPanel.h"
#include "MainWindow.h"
#include "SampleCopy.h"
#include "core/io/PlaygroundFile.h"

#include <QAction>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTimer>
#include <Qsci/qsciscintilla.h>
#include <QtTest>
#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& text) {
        QFile out(dir_.filePath(name));
        if (!out.open(QIODevice::WriteOnly)) return {};
        out.write(text);
        return out.fileName();
    }

    // A copy of the multiply_them sample in its own folder `name`; returns the playground's path.
    QString copySample(const QString& name) { return copyMultiplyThem(dir_.filePath(name)); }

    static QByteArray contents(const QString& path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
    }

    // Opens `path`, answering the refusal's message box as a person would; the box's text, empty when none.
    static QString refusalOf(MainWindow& window, const QString& path, bool* opened) {
        QString text;
        QTimer::singleShot(0, [&text] {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(w)) {
                    text = box->text();
                    box->accept();
                }
        });
        *opened = window.openFile(path);
        return text;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
        QStandardPaths::setTestModeEnabled(true); // recent files of the tests' own
    }

    void showsTheCompileOptionsAPlaygroundCarries() {
        write(QStringLiteral("k.cu"), "__global__ void k(float* x) { x[threadIdx.x] = N; }\n");
        const QString path = write(QStringLiteral("shared.kpad.json"),
                                   R"({"format": "kernelpad/1", "title": "Shared", "source": "k.cu",
            "kernel": "k", "compile": {"options": ["--use_fast_math"], "defines": {"N": "400"}},
            "launch": {"grid": [1], "block": [4]},
            "args": [{"name": "x", "array": {"dtype": "float32", "shape": [4]}, "direction": "out"}]})");
        MainWindow window;
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
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
        QVERIFY(
            window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/multiply_them.kpad.json")));
        QVERIFY(!window.compileNotice()->isVisible());
        QVERIFY(window.editor()->text().contains(QStringLiteral("multiply_them")));
        window.close();
    }

    void refusesABrokenPlaygroundAndKeepsTheText() {
        const QString path = write(QStringLiteral("broken.kpad.json"),
                                   R"({"format": "kernelpad/1", "code": "x", "kernel": 5})");
        MainWindow window;
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
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

    // A FIFO hung the window before it appeared; /dev/zero was read without end.
    void refusesWhatIsNotARegularFileAtOnce_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("named");
        QTest::addColumn<QString>("kind");
        const QString fifo = dir_.filePath(QStringLiteral("kernel.cu"));
        const QString playgroundFifo = dir_.filePath(QStringLiteral("pipe.kpad.json"));
        const QString sourceFifo = dir_.filePath(QStringLiteral("piped.cu"));
        for (const QString& path : {fifo, playgroundFifo, sourceFifo})
            ::mkfifo(path.toLocal8Bit().constData(), 0600);
        const QString namesAFifo =
            write(QStringLiteral("names-a-fifo.kpad.json"), R"({"format": "kernelpad/1", "source": "piped.cu",
            "kernel": "k", "launch": {"grid": [1], "block": [4]}, "args": []})");
        QTest::newRow("a FIFO as the .cu") << fifo << fifo << "a FIFO";
        QTest::newRow("a FIFO as the playground") << playgroundFifo << playgroundFifo << "a FIFO";
        QTest::newRow("a playground whose source is a FIFO") << namesAFifo << sourceFifo << "a FIFO";
        QTest::newRow("/dev/zero") << "/dev/zero"
                                   << "/dev/zero"
                                   << "a device";
        QTest::newRow("a folder") << dir_.path() << dir_.path() << "a folder";
    }

    void refusesWhatIsNotARegularFileAtOnce() {
        QFETCH(QString, path);
        QFETCH(QString, named);
        QFETCH(QString, kind);
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.editor()->setText(QStringLiteral("my work\n"));
        bool opened = true;
        QElapsedTimer clock;
        clock.start();
        const QString message = refusalOf(window, path, &opened);
        QVERIFY(!opened);
        QVERIFY2(clock.elapsed() < 5000, "opening waited on the file");
        QVERIFY2(message.contains(named) && message.contains(kind), qPrintable(message));
        QCOMPARE(window.editor()->text(), QStringLiteral("my work\n"));
        window.close();
    }

    // Before, "mine" or "mine.json" got the kernel's text alone, and every setting was dropped while the
    // status bar said "Saved".
    void aNameWithoutThePlaygroundEndingSavesAPlayground_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("savedAs");
        QTest::newRow("no ending") << "mine"
                                   << "mine.kpad.json";
        QTest::newRow(".json") << "mine.json"
                               << "mine.kpad.json";
        QTest::newRow(".kpad") << "mine.kpad"
                               << "mine.kpad.json";
        QTest::newRow(".kpad.json") << "mine.kpad.json"
                                    << "mine.kpad.json";
    }

    void aNameWithoutThePlaygroundEndingSavesAPlayground() {
        QFETCH(QString, name);
        QFETCH(QString, savedAs);
        const QString path = copySample(QStringLiteral("ending ") + QLatin1String(QTest::currentDataTag()));
        QVERIFY(!path.isEmpty());
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.setOverwriteQuestion([](const QString& file) {
            qWarning("asked to replace %s", qPrintable(file));
            return false;
        });
        QVERIFY(window.openFile(path));
        const QString folder = QFileInfo(path).absolutePath();
        QVERIFY(window.saveAs(folder + QLatin1Char('/') + name));
        const QString expected = folder + QLatin1Char('/') + savedAs;
        QCOMPARE(window.playgroundPath(), expected);
        if (name != savedAs)
            QVERIFY2(!QFile::exists(folder + QLatin1Char('/') + name), "the name as given was written");
        const auto saved = kp::io::readPlayground(expected.toStdString());
        QCOMPARE(saved.args.size(), std::size_t{4});
        QVERIFY(saved.reference && saved.check);
        QVERIFY(saved.extra.contains("sweep"));
        QCOMPARE(saved.source.value_or(""), std::string("multiply_them.cu"));
        window.close();
    }

    void saveAsAsksBeforeReplacingAFileItDidNotOpenOrWrite() {
        const QString path = copySample(QStringLiteral("ask-from"));
        QVERIFY(!path.isEmpty());
        const QString other = dir_.filePath(QStringLiteral("ask-to"));
        QVERIFY(QDir().mkpath(other));
        const QString theirs = write(QStringLiteral("ask-to/multiply_them.cu"), "// someone else's kernel\n");
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        QStringList asked;
        bool answer = false;
        window.setOverwriteQuestion([&](const QString& file) {
            asked << file;
            return answer;
        });
        QVERIFY(window.openFile(path));
        const QString target = other + QStringLiteral("/mine.kpad.json");
        QVERIFY(!window.saveAs(target));
        QCOMPARE(asked, QStringList{theirs});
        QCOMPARE(contents(theirs), QByteArray("// someone else's kernel\n"));
        QVERIFY(!QFile::exists(target));
        QVERIFY2(window.statusBar()->currentMessage().contains(theirs),
                 qPrintable(window.statusBar()->currentMessage()));

        answer = true;
        QVERIFY(window.saveAs(target));
        QCOMPARE(asked.size(), 2);
        QVERIFY(contents(theirs).contains("multiply_them"));
        // Its own files now: saved again without a question.
        window.editor()->append(QStringLiteral("// again\n"));
        QVERIFY(window.save());
        QCOMPARE(asked.size(), 2);
        window.close();
    }

    void savingFollowsALinkAndKeepsThePermissions() {
        const QString path = copySample(QStringLiteral("linked"));
        QVERIFY(!path.isEmpty());
        const QString folder = QFileInfo(path).absolutePath();
        const QString link = folder + QStringLiteral("/link.kpad.json");
        QVERIFY(QFile::link(QStringLiteral("multiply_them.kpad.json"), link));
        QCOMPARE(::chmod(path.toLocal8Bit().constData(), 0600), 0);
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(window.openFile(link));
        QSpinBox* blockX = window.launch()->blockSpin(0);
        blockX->selectAll();
        QTest::keyClicks(blockX, QStringLiteral("256"));
        QVERIFY(window.save());
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(kp::io::readPlayground(path.toStdString()).launch.block[0], 256u);
        struct stat info {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(static_cast<int>(info.st_mode & 07777), 0600);
        window.close();
    }

    // Before, the .cu was replaced, the playground's JSON failed, and the message said the file was
    // unchanged.
    void aSaveThatFailsLeavesThePlaygroundAndItsSourceBoth() {
        const QString path = copySample(QStringLiteral("pair"));
        QVERIFY(!path.isEmpty());
        const QString source = QFileInfo(path).dir().filePath(QStringLiteral("multiply_them.cu"));
        const QByteArray oldSource = contents(source), oldPlayground = contents(path);
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(window.openFile(path));
        window.editor()->append(QStringLiteral("// not saved\n"));
        // The disk takes the source (under 1 KiB) but not the playground's JSON.
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit before{};
        ::getrlimit(RLIMIT_FSIZE, &before);
        rlimit small = before;
        small.rlim_cur = 1024;
        ::setrlimit(RLIMIT_FSIZE, &small);
        const bool saved = window.save();
        ::setrlimit(RLIMIT_FSIZE, &before);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(!saved);
        QCOMPARE(contents(source), oldSource);
        QCOMPARE(contents(path), oldPlayground);
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(message.contains(path) && message.contains(source) &&
                     message.contains(QStringLiteral("Both files on disk are unchanged")),
                 qPrintable(message));
        QVERIFY(window.isModified());
        window.close();
    }

    // F7 shows the open kernel's PTX (and its SASS where nvdisasm is), and the editor and the code follow
    // each other: a line of the kernel highlights its instructions, an instruction moves the editor.
    void showsTheCompiledCodeOfTheOpenKernel() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.resize(1400, 900);
        window.show();
        QVERIFY(
            window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/multiply_them.kpad.json")));
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
        QVERIFY(code->view(CompiledCodeView::Listing::Ptx)
                    ->toPlainText()
                    .contains(QStringLiteral(".entry multiply_them")));

        // The line that multiplies: its loads, multiply and store are highlighted in the PTX.
        const int multiply =
            static_cast<int>(
                window.editor()
                    ->text()
                    .split(QLatin1Char('\n'))
                    .indexOf(QRegularExpression(QStringLiteral(".*dest\\[i\\] = a\\[i\\] \\* b\\[i\\].*")))) +
            1;
        QVERIFY(multiply > 0);
        window.editor()->setCursorPosition(multiply - 1,
                                           0); // QScintilla tells of the move when it next updates
        QTRY_VERIFY(!code->highlightedLines(CompiledCodeView::Listing::Ptx).empty());
        const std::vector<int> lines = code->highlightedLines(CompiledCodeView::Listing::Ptx);
        QString highlighted;
        for (int index : lines) {
            QCOMPARE(code->sourceLineAt(CompiledCodeView::Listing::Ptx, index), multiply);
            highlighted +=
                code->view(CompiledCodeView::Listing::Ptx)->document()->findBlockByNumber(index).text();
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

    // Where this machine has no sandbox (simulated), a file the user did not write is run only after they
    // say so: once, or always for that file, until the file changes behind Kernelpad's back. A file
    // Kernelpad saved is the user's own and runs without a question.
    void asksBeforeRunningAFileUnconfinedWhereThereIsNoSandbox() {
        qputenv("KERNELPAD_TEST_NO_SANDBOX", "simulated for the test");
        const QString path = copySample(QStringLiteral("from-the-web"));
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QVERIFY(window.openFile(path));
        QStringList asked;
        auto answer = MainWindow::UnsandboxedAnswer::Cancel;
        window.setUnsandboxedQuestion([&](const QString& why) {
            asked << why;
            return answer;
        });
        QSignalSpy finished(&window, &MainWindow::runFinished);
        const auto run = [&](bool ok) {
            const auto before = finished.size();
            QVERIFY(window.startRun());
            QTRY_VERIFY_WITH_TIMEOUT(finished.size() == before + 1, 60000);
            QVERIFY2(finished.last().at(0).toBool() == ok,
                     qPrintable(QStringLiteral("asked %1 times; %2")
                                    .arg(asked.size())
                                    .arg(window.statusBar()->currentMessage())));
        };
        run(false); // declined: nothing ran
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.front().contains(QStringLiteral("sandbox")) &&
                     asked.front().contains(QStringLiteral("simulated for the test")),
                 qPrintable(asked.front()));
        answer = MainWindow::UnsandboxedAnswer::RunOnce;
        run(true);
        QCOMPARE(asked.size(), 2);
        answer = MainWindow::UnsandboxedAnswer::RunAndRemember;
        run(true);
        QCOMPARE(asked.size(), 3);
        run(true); // remembered
        QCOMPARE(asked.size(), 3);
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::Append));
            file.write("\n");
        }
        run(true); // changed on disk: asked again
        QCOMPARE(asked.size(), 4);

        // Saved by Kernelpad: the user's own.
        window.setOverwriteQuestion([](const QString&) { return true; });
        QVERIFY(window.saveAs(QFileInfo(path).dir().filePath(QStringLiteral("mine.kpad.json"))));
        run(true);
        QCOMPARE(asked.size(), 4);
        window.close();
        qunsetenv("KERNELPAD_TEST_NO_SANDBOX");
    }

    // Save on a sample that came with Kernelpad offered to write over the installed sample; it now asks
    // where to put the student's own copy (in their documents, Kernelpad/), and the sample stays as it came.
    void savingAnInstalledSampleMakesACopy() {
        const QString installed = dir_.filePath(QStringLiteral("installed"));
        const QString sample = copyMultiplyThem(installed + QStringLiteral("/multiply_them"));
        QVERIFY(!sample.isEmpty());
        const QByteArray before = contents(sample);
        MainWindow window;
        window.document()->setSamplesFolder(installed);
        QVERIFY(window.openFile(sample));
        QVERIFY(window.document()->isInstalledSample());
        window.editor()->append(QStringLiteral("// mine\n"));
        QString suggested;
        QString mine = dir_.filePath(QStringLiteral("mine/multiply_them.kpad.json"));
        QVERIFY(QDir().mkpath(QFileInfo(mine).path()));
        window.document()->setSavePathQuestion([&](const QString& path) {
            suggested = path;
            return mine;
        });
        QVERIFY(window.save());
        QCOMPARE(contents(sample), before);
        QVERIFY2(suggested.endsWith(QStringLiteral("/Kernelpad/multiply_them.kpad.json")),
                 qPrintable(suggested));
        QCOMPARE(QFileInfo(window.currentFile()).canonicalFilePath(), QFileInfo(mine).canonicalFilePath());
        QVERIFY(contents(mine).contains("multiply_them"));
        QVERIFY(!window.document()->isInstalledSample());
        QVERIFY(!window.isModified());
    }

    // Esc stops a run while the student is typing: the editor no longer keeps the key to itself. With a
    // completion list open it closes the list, as before.
    // The window says when its markers answer the text as it stands: not while the typing pause runs or a
    // check is out (markers of a half-typed line may still show), and then they are the last text's.
    void markersAreCurrentOnlyForTheTextAsItIs() {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        bool opened = false;
        QCOMPARE(refusalOf(window, copySample(QStringLiteral("markers")), &opened), QString());
        QVERIFY(opened);
        QTRY_VERIFY_WITH_TIMEOUT(window.markersCurrent(), 120000);
        KernelEditor* editor = window.editor();
        QVERIFY(editor->diagnostics().empty());
        const int lines = editor->lines();
        editor->setCursorPosition(lines - 1, int(editor->text(lines - 1).size()));
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("__device__ int z = undeclared_name;"));
        QVERIFY(!window.markersCurrent());
        QVERIFY(editor->diagnostics().empty()); // the last check's: the text before the edit
        QTRY_VERIFY_WITH_TIMEOUT(window.markersCurrent(), 120000);
        bool named = false;
        for (const auto& d : editor->diagnostics())
            named = named || d.message.find("undeclared_name") != std::string::npos;
        QVERIFY(named);
    }

    // A run that fails on a line of the kernel (bounds checking finds a read past the end) marks that line
    // as a compile error is marked, with the fault's first sentence; a good run takes the marker away.
    void aRunsFaultMarksItsLine() {
        const QString path = write(QStringLiteral("peek.kpad.json"),
                                   R"({"format": "kernelpad/1", "title": "Peek", "kernel": "peek",
            "code": "__global__ void peek(int* a, const int* b, int at)\n{\n    if (threadIdx.x == 0) a[0] = b[at];\n}\n",
            "launch": {"grid": [1, 1, 1], "block": [32, 1, 1]},
            "args": [{"name": "a", "array": {"dtype": "int32", "shape": [8]}, "direction": "out"},
                     {"name": "b", "array": {"dtype": "int32", "shape": [8]}, "direction": "in", "init": "ones"},
                     {"name": "at", "scalar": {"dtype": "int32"}, "value": 8}]})");
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.resize(1366, 768);
        window.show();
        bool opened = false;
        QCOMPARE(refusalOf(window, path, &opened), QString());
        QVERIFY(opened);
        QTRY_VERIFY_WITH_TIMEOUT(window.markersCurrent(), 120000);
        KernelEditor* editor = window.editor();
        QVERIFY(!editor->hasErrorMarker(3));
        window.backends()->setBackend(QStringLiteral("cpu")); // bounds checking is the CPU backend's
        auto* bounds = window.findChild<QAction*>(QStringLiteral("checkBoundsAction"));
        QVERIFY(bounds);
        bounds->setChecked(true);
        QSignalSpy ran(&window, &MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(ran.wait(120000));
        QCOMPARE(ran.takeFirst().first().toBool(), false);
        QVERIFY(editor->hasErrorMarker(3));
        QCOMPARE(editor->diagnostics().size(), std::size_t{1});
        const std::string said = editor->diagnostics().front().message;
        QVERIFY2(said.find("accessed memory out of bounds: b[8] is outside b, which has 8 elements") !=
                         std::string::npos &&
                     said.find("at line 3") != std::string::npos,
                 said.c_str());
        window.grab().save(QStringLiteral("/tmp/kernelpad_fault_marker.png"));
        bounds->setChecked(false); // the read past the end goes unchecked: the run succeeds
        QVERIFY(window.startRun());
        QVERIFY(ran.wait(120000));
        QCOMPARE(ran.takeFirst().first().toBool(), true);
        QVERIFY(!editor->hasErrorMarker(3));
    }

    void escapeInTheEditorStopsTheRun() {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QAction* stop = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->text() == QStringLiteral("&Stop")) stop = action;
        QVERIFY(stop);
        stop->setEnabled(true); // as during a run
        QSignalSpy stopped(stop, &QAction::triggered);
        window.editor()->setFocus();
        QTRY_VERIFY(window.editor()->hasFocus());
        QTest::keyClick(window.editor(), Qt::Key_Escape);
        QCOMPARE(stopped.size(), 1);

        window.editor()->setText(QStringLiteral("__global__ void k() {\n    __sync"));
        window.editor()->setCursorPosition(1, 10);
        window.editor()->autoCompleteFromAPIs();
        QTRY_VERIFY(window.editor()->isListActive());
        QTest::keyClick(window.editor(), Qt::Key_Escape);
        QVERIFY(!window.editor()->isListActive());
        QCOMPARE(stopped.size(), 1);
        // The text was changed: closing would ask to save it. The window goes with the scope instead.
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
