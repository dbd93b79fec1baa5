// Nothing typed is lost: the main window autosaves the editor's text to a recovery folder; after the
// app is killed (kill -9, simulated by a child process that saves and is SIGKILLed) the next start
// offers the text back; a normal close leaves nothing to recover; a failed save of the user's file
// leaves the old file intact. Drives the real MainWindow offscreen.
#include "KernelEditor.h"
#include "MainWindow.h"
#include "RecoveryStore.h"

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <Qsci/qsciscintilla.h>
#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

class TestRecovery : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString recoveryDir() const { return dir_.filePath(QStringLiteral("recovery")); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("KERNELPAD_RECOVERY_DIR", recoveryDir().toLocal8Bit());
    }

    void autosavesTheEditorsText() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.setAutosaveInterval(50);
        window.show();
        window.editor()->setText(QStringLiteral("__global__ void typed_just_now() {}\n"));
        const QString file = window.recovery().file();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file), 2000);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QVERIFY(in.readAll().contains("typed_just_now"));
        QCOMPARE(window.offerRecovery([](const RecoveredSession&) { return true; }), 0); // a live window's text is not offered
        window.close();
        QVERIFY2(!QFile::exists(file), "a normal close leaves nothing to recover");
    }

    void restoresAfterTheAppWasKilled() {
        // The "app" that dies: saves like the window does, then SIGKILL, as kill -9 would.
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            RecoveryStore store(recoveryDir());
            store.save(QStringLiteral("/home/student/reduce.cu"), QStringLiteral("__global__ void unsaved_work() {}\n"));
            ::raise(SIGKILL);
            ::_exit(0);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
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
        second.setSaveQuestion([] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
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
        window.setSaveQuestion([] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        QCOMPARE(window.offerRecovery([](const RecoveredSession&) { return false; }), 0);
        QVERIFY(window.editor()->text() != QStringLiteral("never saved"));
        QCOMPARE(RecoveryStore(recoveryDir()).orphaned().size(), 0);
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
        window.setSaveQuestion([] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
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
