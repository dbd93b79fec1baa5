// Nothing typed is lost: the main window autosaves the whole playground (text, arguments, launch, file
// names) to a recovery folder; after the app is killed (kill -9, simulated by a child process that saves
// and is SIGKILLed, or by a window destroyed without closing) the next start offers each session back,
// one by one, restores the whole playground and still opens the file on its command line; a save after
// that keeps every setting of the file; a normal close leaves nothing to recover; a failed save of the
// user's file leaves the old file intact. Drives the real MainWindow offscreen.
#include "KernelEditor.h"
#include "LaunchPanel.h"
#include "MainWindow.h"
#include "RecoveryStore.h"
#include "SampleCopy.h"
#include "core/io/PlaygroundFile.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <Qsci/qsciscintilla.h>
#include <QtTest>
#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

class TestRecovery : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString recoveryDir() const { return dir_.filePath(QStringLiteral("recovery")); }

    // A recovery folder of the test's own, so that sessions other tests leave are not offered in it.
    QString freshRecoveryDir(const QString& name) {
        QString folder = dir_.filePath(QStringLiteral("recovery-") + name);
        qputenv("KERNELPAD_RECOVERY_DIR", folder.toLocal8Bit());
        return folder;
    }

    // A copy of the multiply_them sample (lesson, reference, check, sweep, shapes, random fills) in `name`.
    QString copySample(const QString& name) { return copyMultiplyThem(dir_.filePath(name)); }

    // What a kill -9 leaves: a process that saved `session` and died without a normal end.
    static bool crashedAfterSaving(const QString& folder, const RecoveredSession& session) {
        const pid_t child = ::fork();
        if (child < 0) return false;
        if (child == 0) {
            RecoveryStore store(folder);
            store.save(session);
            ::raise(SIGKILL);
            ::_exit(0);
        }
        int status = 0;
        return ::waitpid(child, &status, 0) == child && WIFSIGNALED(status);
    }

    static RecoveredSession textOnly(const QString& document, const QString& text) {
        RecoveredSession session;
        session.documentPath = document;
        session.text = text;
        return session;
    }

    // The settings the sample's file holds besides the text, as a save must keep them.
    static void verifyTheSamplesSettings(const kp::model::Playground& p) {
        QCOMPARE(p.lesson, std::string("README.md"));
        QCOMPARE(p.source.value_or(""), std::string("multiply_them.cu"));
        QVERIFY(p.reference && p.reference->function == "multiply_them_ref");
        QVERIFY(p.check && p.check->outputs == std::vector<std::string>{"dest"});
        QVERIFY(p.extra.contains("sweep"));
        QCOMPARE(p.args.size(), std::size_t{4});
        QCOMPARE(p.args[1].array().shape, kp::model::Shape{400});
        QVERIFY(p.args[2].init && p.args[2].init->seed == 2);
        QVERIFY(p.launch.autoGrid);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true); // recent files of the tests' own
        qputenv("KERNELPAD_RECOVERY_DIR", recoveryDir().toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
    }

    void init() { qputenv("KERNELPAD_RECOVERY_DIR", recoveryDir().toLocal8Bit()); }

    void autosavesTheEditorsText() {
        MainWindow window;
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.setAutosaveInterval(50);
        window.show();
        window.editor()->setText(QStringLiteral("__global__ void typed_just_now() {}\n"));
        const QString file = window.recovery().file();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file), 2000);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QVERIFY(in.readAll().contains("typed_just_now"));
        QCOMPARE(window.offerRecovery([](const RecoveredSession&) { return true; }),
                 0); // a live window's text is not offered
        window.close();
        QVERIFY2(!QFile::exists(file), "a normal close leaves nothing to recover");
    }

    void restoresAfterTheAppWasKilled() {
        // The "app" that dies: saves like the window does, then SIGKILL, as kill -9 would.
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            RecoveryStore store(recoveryDir());
            store.save(QStringLiteral("/home/student/reduce.cu"),
                       QStringLiteral("__global__ void unsaved_work() {}\n"));
            ::raise(SIGKILL);
            ::_exit(0);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        MainWindow window;
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.show();
        QString offeredFor;
        const int restored = window.offerRecovery([&](const RecoveredSession& s) {
            offeredFor = s.documentPath;
            return true;
        });
        QCOMPARE(restored, 1);
        QCOMPARE(offeredFor, QStringLiteral("/home/student/reduce.cu"));
        QCOMPARE(window.editor()->text(), QStringLiteral("__global__ void unsaved_work() {}\n"));
        // Offered once: the next start does not ask again for the same text.
        MainWindow second;
        second.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        QCOMPARE(second.offerRecovery([](const RecoveredSession&) { return true; }), 0);
        const QImage shot = window.grab().toImage();
        QVERIFY(!shot.isNull());
        shot.save(dir_.filePath(QStringLiteral("restored.png")));
        window.close();
        second.close();
    }

    void declinedRecoveryIsForgotten() {
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            RecoveryStore store(recoveryDir());
            store.save({}, QStringLiteral("never saved"));
            ::raise(SIGKILL);
            ::_exit(0);
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        MainWindow window;
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        QCOMPARE(window.offerRecovery([](const RecoveredSession&) { return false; }), 0);
        QVERIFY(window.editor()->text() != QStringLiteral("never saved"));
        QCOMPARE(RecoveryStore(recoveryDir()).orphaned().size(), 0);
    }

    // The tester's report: after a kill the text came back into an untitled playground with default
    // arguments, the file on the command line was not opened, and Ctrl+S wrote the defaults over it.
    void restoresTheWholePlaygroundAndASaveKeepsItsSettings() {
        const QString folder = freshRecoveryDir(QStringLiteral("whole"));
        const QString path = copySample(QStringLiteral("whole"));
        QVERIFY(!path.isEmpty());
        QString recoveryFile;
        {
            auto* crashed = new MainWindow;
            crashed->setAutosaveInterval(50);
            crashed->show();
            QVERIFY(crashed->openFile(path));
            // Only the launch changes at first: the arguments and launch are autosaved too, not only the
            // text.
            QSpinBox* blockX = crashed->launch()->blockSpin(0);
            blockX->selectAll();
            QTest::keyClicks(blockX, QStringLiteral("128"));
            recoveryFile = crashed->recovery().file();
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(recoveryFile), 3000);
            crashed->editor()->append(QStringLiteral("// typed before the crash\n"));
            const auto autosaved = [&](const char* what) {
                QFile in(recoveryFile);
                return in.open(QIODevice::ReadOnly) && in.readAll().contains(what);
            };
            QTRY_VERIFY_WITH_TIMEOUT(autosaved("typed before the crash"), 3000);
            QFile in(recoveryFile);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QJsonObject saved = QJsonDocument::fromJson(in.readAll()).object();
            QCOMPARE(saved.value(QStringLiteral("playground_path")).toString(), path);
            const auto playground = kp::io::parsePlayground(
                saved.value(QStringLiteral("playground")).toString().toStdString(), path.toStdString());
            QCOMPARE(playground.launch.block[0], 128u);
            QCOMPARE(playground.lesson, std::string("README.md"));
            // Killed: no close, no normal end. The lock goes with the process, the autosave stays.
            delete crashed;
        }
        QVERIFY(QFile::exists(recoveryFile));

        // The next start, with the same file on its command line.
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        int asked = 0;
        QCOMPARE(window.start(path, {},
                              [&](const RecoveredSession& s) {
                                  ++asked;
                                  return s.playgroundPath == path ? RecoveryAnswer::Restore
                                                                  : RecoveryAnswer::Keep;
                              }),
                 1);
        QCOMPARE(asked, 1);
        QCOMPARE(window.playgroundPath(), path);
        QVERIFY(window.editor()->text().contains(QStringLiteral("// typed before the crash")));
        QCOMPARE(window.launch()->launch().block[0], 128u);
        QVERIFY(window.isModified());
        QVERIFY(!QFile::exists(recoveryFile));

        // Ctrl+S: the file keeps everything it had, with what was typed and set before the crash.
        QVERIFY(window.save());
        const auto saved = kp::io::readPlayground(path.toStdString());
        verifyTheSamplesSettings(saved);
        QCOMPARE(saved.launch.block[0], 128u);
        QFile source(QFileInfo(path).dir().filePath(QStringLiteral("multiply_them.cu")));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QVERIFY(source.readAll().contains("// typed before the crash"));
        window.close();
        QCOMPARE(RecoveryStore(folder).orphaned().size(), 0);
    }

    // A session an older Kernelpad saved holds only the text: it comes back into its playground as the
    // file is on disk, and a save keeps the file's settings instead of writing defaults over them.
    void anOlderTextOnlySessionComesBackIntoItsPlayground() {
        const QString folder = freshRecoveryDir(QStringLiteral("text-only"));
        const QString path = copySample(QStringLiteral("text-only"));
        QVERIFY(!path.isEmpty());
        QFile original(QFileInfo(path).dir().filePath(QStringLiteral("multiply_them.cu")));
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(original.readAll()) + QStringLiteral("// kept by the crash\n");
        QVERIFY(crashedAfterSaving(folder, textOnly(path, text)));

        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QCOMPARE(window.offerRecovery([](const RecoveredSession&) { return true; }), 1);
        QCOMPARE(window.playgroundPath(), path);
        QCOMPARE(window.editor()->text(), text);
        QVERIFY(window.isModified());
        QVERIFY(window.save());
        verifyTheSamplesSettings(kp::io::readPlayground(path.toStdString()));
        window.close();
    }

    void opensTheCommandLinesFileBesideARestoredSession() {
        const QString folder = freshRecoveryDir(QStringLiteral("command-line"));
        const QString path = copySample(QStringLiteral("command-line"));
        QVERIFY(!path.isEmpty());
        QVERIFY(crashedAfterSaving(folder,
                                   textOnly({}, QStringLiteral("__global__ void elsewhere(float* x) {}\n"))));

        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QCOMPARE(window.start(path, {}, [](const RecoveredSession&) { return RecoveryAnswer::Restore; }), 1);
        // The file asked for is in this window; the restored playground in a window of its own.
        QCOMPARE(window.playgroundPath(), path);
        QVERIFY(window.editor()->text().contains(QStringLiteral("multiply_them")));
        MainWindow* restored = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* other = qobject_cast<MainWindow*>(w); other && other != &window && other->isVisible())
                restored = other;
        QVERIFY(restored);
        QCOMPARE(restored->editor()->text(), QStringLiteral("__global__ void elsewhere(float* x) {}\n"));
        QVERIFY(restored->isModified());
        QVERIFY(restored->close()); // answers the save question as this window was told to
        window.close();
    }

    void offersEachCrashedSessionOneByOne() {
        const QString folder = freshRecoveryDir(QStringLiteral("one-by-one"));
        for (const char* text : {"restore me\n", "keep me\n", "discard me\n"})
            QVERIFY(crashedAfterSaving(folder, textOnly({}, QString::fromLatin1(text))));
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QStringList asked;
        const int restored = window.offerRecovery([&](const RecoveredSession& s) {
            asked << s.text;
            if (s.text.startsWith(QStringLiteral("restore"))) return RecoveryAnswer::Restore;
            return s.text.startsWith(QStringLiteral("keep")) ? RecoveryAnswer::Keep : RecoveryAnswer::Discard;
        });
        QCOMPARE(restored, 1);
        asked.sort();
        QCOMPARE(asked, (QStringList{"discard me\n", "keep me\n", "restore me\n"}));
        QCOMPARE(window.editor()->text(), QStringLiteral("restore me\n"));
        // The kept one waits for the next start; the discarded one is gone.
        const auto left = RecoveryStore(folder).orphaned();
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.front().text, QStringLiteral("keep me\n"));
        for (const auto& session : left)
            RecoveryStore::discard(session);
        window.close();
    }

    void failedSaveLeavesTheOldFileIntact() {
        const QString folder = dir_.filePath(QStringLiteral("saves"));
        QVERIFY(QDir().mkpath(folder));
        const QString path = folder + QStringLiteral("/kernel.cu");
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old contents\n");
        }
        MainWindow window;
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.editor()->setText(QStringLiteral("new contents\n"));
        QVERIFY(window.saveSource(path));
        QFile check(path);
        QVERIFY(check.open(QIODevice::ReadOnly));
        QCOMPARE(check.readAll(), QByteArray("new contents\n"));
        check.close();
        // The disk refuses the write (a file size limit, which stops root too): the save fails, and the
        // file keeps what it had.
        ::signal(SIGXFSZ, SIG_IGN);
        rlimit before{};
        ::getrlimit(RLIMIT_FSIZE, &before);
        rlimit tiny = before;
        tiny.rlim_cur = 4;
        ::setrlimit(RLIMIT_FSIZE, &tiny);
        window.editor()->setText(QStringLiteral("newer contents\n"));
        const bool saved = window.saveSource(path);
        ::setrlimit(RLIMIT_FSIZE, &before);
        QVERIFY(!saved);
        QVERIFY(check.open(QIODevice::ReadOnly));
        QCOMPARE(check.readAll(), QByteArray("new contents\n"));
    }
};

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
