// Reading and writing whole files: only regular files are read, up to a limit and never blocking (a
// FIFO, /dev/zero or a folder is refused at once, naming the path and what it is); writes follow
// symbolic links, keep the file's permissions, remove the temporaries a killed process left, and write
// files that belong together so that a failure leaves every one of them as it was.
#include "core/Error.h"
#include "core/io/FileBytes.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <csignal>
#include <future>
#include <memory>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

using Bytes = std::vector<std::byte>;

std::span<const std::byte> bytesOf(const std::string& text) {
    return std::as_bytes(std::span(text.data(), text.size()));
}

QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

bool put(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The InputError's message of `action`, or "<blocked>" when it has not returned after five seconds (a
// read that blocks would otherwise hold the test until CTest's timeout). The thread is left behind then:
// the process ends with the test.
QString messageWithin(std::function<void()> action) {
    auto answer = std::make_shared<std::promise<QString>>();
    std::future<QString> message = answer->get_future();
    std::thread([answer, action = std::move(action)] {
        try {
            action();
            answer->set_value(QString());
        } catch (const kp::InputError& e) {
            answer->set_value(QString::fromStdString(e.what()));
        } catch (const std::exception& e) {
            answer->set_value(QStringLiteral("<not an InputError> ") + QString::fromStdString(e.what()));
        }
    }).detach();
    if (message.wait_for(std::chrono::seconds(5)) != std::future_status::ready)
        return QStringLiteral("<blocked>");
    return message.get();
}

// A process id that no process has now: a child that has ended and been waited for.
pid_t goneProcess() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

} // namespace

class TestFileBytes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void readsARegularFileWholeThroughALink() {
        const QString path = dir_.filePath(QStringLiteral("whole.cu"));
        QVERIFY(put(path, "__global__ void k() {}\n"));
        const QString link = dir_.filePath(QStringLiteral("whole-link.cu"));
        QVERIFY(QFile::link(path, link));
        QCOMPARE(QByteArray::fromStdString(kp::io::readTextFile(link.toStdString())),
                 QByteArray("__global__ void k() {}\n"));
        QCOMPARE(kp::io::readFileBytes(path.toStdString()).size(), std::size_t{23});
        QCOMPARE(kp::io::readFileIfPresent(path.toStdString()).value_or("none"),
                 std::string("__global__ void k() {}\n"));
    }

    void refusesWhatIsNotARegularFileAtOnce_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("kind");
        const QString fifo = dir_.filePath(QStringLiteral("kernel.fifo"));
        ::mkfifo(fifo.toLocal8Bit().constData(), 0600);
        QTest::newRow("FIFO without a writer") << fifo << "a FIFO";
        QTest::newRow("/dev/zero") << "/dev/zero"
                                   << "a device";
        QTest::newRow("/dev/null") << "/dev/null"
                                   << "a device";
        QTest::newRow("folder") << dir_.path() << "a folder";
    }

    void refusesWhatIsNotARegularFileAtOnce() {
        QFETCH(QString, path);
        QFETCH(QString, kind);
        const std::string file = path.toStdString();
        for (const QString& message : {messageWithin([file] { kp::io::readFileBytes(file); }),
                                       messageWithin([file] { kp::io::readTextFile(file); })}) {
            QVERIFY2(message.contains(path), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("it is ") + kind), qPrintable(message));
        }
        bool present = true;
        const QString ifPresent =
            messageWithin([file, &present] { present = kp::io::readFileIfPresent(file).has_value(); });
        QVERIFY2(ifPresent.isEmpty(), qPrintable(ifPresent));
        QVERIFY(!present);
    }

    void refusesAFileOverTheLimitSayingTheLimit() {
        const QString path = dir_.filePath(QStringLiteral("big.npy"));
        QVERIFY(put(path, QByteArray(4096, 'x')));
        const QString message = messageWithin([&] { kp::io::readFileBytes(path.toStdString(), 2048); });
        QVERIFY2(message.contains(path) && message.contains(QStringLiteral("4.0 KiB")) &&
                     message.contains(QStringLiteral("at most 2.0 KiB")),
                 qPrintable(message));
        QCOMPARE(kp::io::readFileBytes(path.toStdString(), 4096).size(),
                 std::size_t{4096}); // at the limit: read
        QVERIFY(!kp::io::readFileIfPresent(path.toStdString(), 100).has_value());
    }

    void writingThroughALinkReplacesItsTargetAndKeepsTheLink() {
        const QString target = dir_.filePath(QStringLiteral("real.cu"));
        const QString link = dir_.filePath(QStringLiteral("link.cu"));
        QVERIFY(put(target, "old\n"));
        QVERIFY(
            QFile::link(QStringLiteral("real.cu"), link)); // relative, as `ln -s real.cu link.cu` makes it
        kp::io::writeFileAtomically(link.toStdString(), bytesOf("new\n"));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(contents(target), QByteArray("new\n"));
        QCOMPARE(contents(link), QByteArray("new\n"));
    }

    void writingKeepsTheFilesPermissions_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("private 0600") << 0600;
        QTest::newRow("group-readable 0640") << 0640;
        QTest::newRow("executable 0755") << 0755;
    }

    void writingKeepsTheFilesPermissions() {
        QFETCH(int, mode);
        const QString path = dir_.filePath(QStringLiteral("mode-%1.cu").arg(mode, 0, 8));
        QVERIFY(put(path, "old\n"));
        QCOMPARE(::chmod(path.toLocal8Bit().constData(), static_cast<mode_t>(mode)), 0);
        kp::io::writeFileAtomically(path.toStdString(), bytesOf("new\n"));
        struct stat info {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(static_cast<int>(info.st_mode & 07777), mode);
        QCOMPARE(contents(path), QByteArray("new\n"));
    }

    void refusesToWriteOverWhatIsNotARegularFile() {
        const QString fifo = dir_.filePath(QStringLiteral("out.fifo"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const QString message =
            messageWithin([&] { kp::io::writeFileAtomically(fifo.toStdString(), bytesOf("x")); });
        QVERIFY2(message.contains(fifo) && message.contains(QStringLiteral("a FIFO")), qPrintable(message));
        struct stat info {};
        QCOMPARE(::lstat(fifo.toLocal8Bit().constData(), &info), 0);
        QVERIFY(S_ISFIFO(info.st_mode));
    }

    void removesTheTemporariesAKilledWriterLeft_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("ageMinutes");
        QTest::addColumn<bool>("removed");
        const QString gone = QString::number(goneProcess()), alive = QString::number(::getppid());
        QTest::newRow("its process is gone") << ".k.cu.kptmp." + gone + ".0" << 0 << true;
        QTest::newRow("its process is alive, written now") << ".k.cu.kptmp." + alive + ".3" << 0 << false;
        QTest::newRow("its process is alive, an hour old") << ".k.cu.kptmp." + alive + ".4" << 60 << true;
        QTest::newRow("not a temporary of ours") << ".k.cu.kptmp." + gone << 90 << false;
        QTest::newRow("a person's file") << "k.cu.kptmp.notes" << 90 << false;
    }

    void removesTheTemporariesAKilledWriterLeft() {
        QFETCH(QString, name);
        QFETCH(int, ageMinutes);
        QFETCH(bool, removed);
        QTemporaryDir here;
        const QString path = here.filePath(name);
        QVERIFY(put(path, "half a playground"));
        const timeval then{static_cast<time_t>(::time(nullptr) - ageMinutes * 60), 0};
        const timeval times[2] = {then, then};
        QCOMPARE(::utimes(path.toLocal8Bit().constData(), times), 0);
        // The next save in that folder cleans up.
        kp::io::writeFileAtomically((here.path() + QStringLiteral("/k.cu")).toStdString(),
                                    bytesOf("saved\n"));
        QCOMPARE(QFile::exists(path), !removed);
        QCOMPARE(contents(here.filePath(QStringLiteral("k.cu"))), QByteArray("saved\n"));
    }

    void aKillMidWriteLeavesATemporaryTheNextSaveRemoves() {
        QTemporaryDir here;
        const std::string target = (here.path() + QStringLiteral("/big.npy")).toStdString();
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // Stops in the middle of the write: a file size limit past the first chunk, and SIGXFSZ's
            // default action is to end the process, as kill -9 would.
            rlimit small{1 << 20, 1 << 20};
            ::setrlimit(RLIMIT_FSIZE, &small);
            std::vector<std::byte> bytes(8 << 20);
            kp::io::writeFileAtomically(target, bytes);
            ::_exit(0);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status), "the writer was not stopped mid-write");
        QCOMPARE(QDir(here.path())
                     .entryList({QStringLiteral(".big.npy.kptmp.*")}, QDir::Hidden | QDir::Files)
                     .size(),
                 1);
        kp::io::writeFileAtomically(target, bytesOf("saved\n"));
        QCOMPARE(QDir(here.path()).entryList({QStringLiteral(".*kptmp*")}, QDir::Hidden | QDir::Files).size(),
                 0);
        QCOMPARE(kp::io::removeStaleTemporaries(here.path().toStdString()), 0);
    }

    void aPairThatCannotBeWrittenLeavesBothOldFiles() {
        QTemporaryDir here;
        const QString source = here.filePath(QStringLiteral("k.cu")),
                      playground = here.filePath(QStringLiteral("k.kpad.json"));
        QVERIFY(put(source, "old source\n"));
        QVERIFY(put(playground, "old playground\n"));
        // The source fits under the file size limit, the playground does not: the disk is full for it.
        const std::string newSource = "new\n", newPlayground(4096, 'p');
        const kp::io::FileContent files[] = {{source.toStdString(), bytesOf(newSource)},
                                             {playground.toStdString(), bytesOf(newPlayground)}};
        ::signal(SIGXFSZ, SIG_IGN);
        rlimit before{};
        ::getrlimit(RLIMIT_FSIZE, &before);
        rlimit tiny = before;
        tiny.rlim_cur = 1024;
        ::setrlimit(RLIMIT_FSIZE, &tiny);
        QString message;
        try {
            kp::io::writeFilesAtomically(files);
        } catch (const kp::SystemError& e) {
            message = QString::fromStdString(e.what());
        }
        ::setrlimit(RLIMIT_FSIZE, &before);
        ::signal(SIGXFSZ, SIG_DFL);
        QVERIFY2(message.contains(QStringLiteral("k.kpad.json")), qPrintable(message));
        QCOMPARE(contents(source), QByteArray("old source\n"));
        QCOMPARE(contents(playground), QByteArray("old playground\n"));
        QCOMPARE(QDir(here.path()).entryList(QDir::Hidden | QDir::Files | QDir::NoDotAndDotDot).size(),
                 2); // no temporaries

        kp::io::writeFilesAtomically(files);
        QCOMPARE(contents(source), QByteArray("new\n"));
        QCOMPARE(contents(playground), QByteArray::fromStdString(newPlayground));
        QCOMPARE(QDir(here.path()).entryList(QDir::Hidden | QDir::Files | QDir::NoDotAndDotDot).size(), 2);
    }

    // The folder is found only when its rename fails, after the source was renamed over: that is put back.
    void aPairWithAFolderInTheWayChangesNothing() {
        QTemporaryDir here;
        const QString source = here.filePath(QStringLiteral("k.cu")),
                      folder = here.filePath(QStringLiteral("k.kpad.json"));
        QVERIFY(put(source, "old source\n"));
        QCOMPARE(::chmod(source.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/inside")));
        const std::string text = "new\n";
        const kp::io::FileContent files[] = {{source.toStdString(), bytesOf(text)},
                                             {folder.toStdString(), bytesOf(text)}};
        QString message;
        try {
            kp::io::writeFilesAtomically(files);
        } catch (const kp::SystemError& e) {
            message = QString::fromStdString(e.what());
        }
        QVERIFY2(message.contains(QStringLiteral("rename")) && message.contains(folder), qPrintable(message));
        QCOMPARE(contents(source), QByteArray("old source\n"));
        struct stat info {};
        QCOMPARE(::stat(source.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(static_cast<int>(info.st_mode & 07777), 0600);
        QCOMPARE(QDir(here.path()).entryList(QDir::Hidden | QDir::AllEntries | QDir::NoDotAndDotDot),
                 (QStringList{"k.cu", "k.kpad.json"}));
    }
};

QTEST_MAIN(TestFileBytes)
#include "tst_filebytes.moc"
