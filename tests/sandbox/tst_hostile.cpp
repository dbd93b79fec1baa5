// Hostile playgrounds (tests/sandbox/hostile/), run as a user would run a file from the web: through
// kernelpad-cli, and opened and run through the worker as the app does. Every case must end with a clear
// message and the exit code that says what happened, change nothing outside its scratch folder (a fake
// home with a fake ~/.ssh/id_rsa and ~/.bashrc is watched, and so are the playground's folder and /tmp),
// leave no process behind, leak no secret into its output, and leave Kernelpad able to run the next one.
#include "core/cuda/Driver.h"
#include "core/sandbox/Confinement.h"
#include "core/sandbox/Subprocess.h"
#include "core/worker/WorkerClient.h"

#include <QTemporaryDir>
#include <QtTest>
#include <arpa/inet.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace kp;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(KP_SOURCE_DIR) / "tests" / "sandbox" / "hostile";
constexpr const char* kFakeKey = "KERNELPAD-FAKE-PRIVATE-KEY-0123456789";

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Every file below `root` with its size and contents' hash, skipping the folders Kernelpad may write.
std::map<std::string, std::string> snapshot(const fs::path& root, const std::vector<std::string>& skip = {}) {
    std::map<std::string, std::string> files;
    std::error_code error;
    for (auto it =
             fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        const std::string relative = fs::relative(it->path(), root).string();
        bool skipped = false;
        for (const auto& prefix : skip)
            skipped = skipped || relative.starts_with(prefix);
        if (skipped) continue;
        files[relative] =
            it->is_regular_file() ? std::to_string(std::hash<std::string>{}(readAll(it->path()))) : "other";
    }
    return files;
}

// Processes of ours that carry the token in their environment: what a case left running.
std::vector<std::string> processesWith(const std::string& token) {
    std::vector<std::string> found;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator("/proc", error)) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(::getpid()))
            continue;
        const std::string environment = readAll(entry.path() / "environ");
        if (environment.find(token) == std::string::npos) continue;
        // A zombie of ours about to be reaped is not left behind.
        if (readAll(entry.path() / "stat").find(") Z") != std::string::npos) continue;
        found.push_back(pid + " " + readAll(entry.path() / "cmdline"));
    }
    return found;
}

} // namespace

class TestHostile : public QObject {
    Q_OBJECT
    QTemporaryDir home_;
    QTemporaryDir work_;
    std::string token_;
    int listener_ = -1;
    int port_ = 0;

    fs::path home() const { return home_.path().toStdString(); }

    // The case's folder, copied where it may be changed, with what cannot be committed made here.
    fs::path prepare(const std::string& name) {
        fs::path folder = fs::path(work_.path().toStdString()) / name;
        fs::remove_all(folder);
        fs::copy(kCorpus / name, folder, fs::copy_options::recursive);
        const fs::path source = folder / "k.cu";
        if (name == "source_fifo") ::mkfifo(source.c_str(), 0600);
        if (name == "source_dev_zero") fs::create_symlink("/dev/zero", source);
        if (name == "source_link_outside") fs::create_symlink(home() / ".ssh" / "id_rsa", source);
        if (name == "source_huge") {
            std::ofstream(source) << "__global__ void k(float* out, int n) {}\n";
            fs::resize_file(source, std::uintmax_t{4} << 30); // sparse: 4 GiB on paper
        }
        if (name == "array_fifo") ::mkfifo((folder / "data.npy").c_str(), 0600);
        if (name == "reference_link_outside")
            fs::create_symlink(home() / ".ssh" / "id_rsa", folder / "k_ref.cpp");
        if (name == "include_ssh_key") {
            std::string text = readAll(source);
            text.replace(text.find("@HOME@"), 6, home().string());
            std::ofstream(source, std::ios::trunc) << text;
        }
        return folder;
    }

    sandbox::SubprocessResult cli(std::vector<std::string> arguments, double seconds = 120) {
        arguments.insert(arguments.begin(), std::string(KP_BINARY_DIR) + "/app/kernelpad-cli");
        sandbox::ProcessOptions options;
        options.timeLimitSeconds = seconds;
        return sandbox::runProcess(arguments, options);
    }

    bool connectionArrived() {
        sockaddr_in peer{};
        socklen_t size = sizeof peer;
        const int accepted = ::accept4(listener_, reinterpret_cast<sockaddr*>(&peer), &size, SOCK_NONBLOCK);
        if (accepted < 0) return false;
        ::close(accepted);
        return true;
    }

private slots:
    void initTestCase() {
        QVERIFY(home_.isValid() && work_.isValid());
        fs::create_directories(home() / ".ssh");
        std::ofstream(home() / ".ssh" / "id_rsa") << kFakeKey << "\n";
        std::ofstream(home() / ".bashrc") << "# the user's own\n";
        token_ = "kp-hostile-" + std::to_string(::getpid());
        // A port on this machine that a kernel tries to reach.
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        QCOMPARE(::listen(listener_, 4), 0);
        socklen_t size = sizeof address;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size);
        port_ = ntohs(address.sin_port);
        qputenv("HOME", home().c_str());
        qputenv("XDG_CACHE_HOME", "");
        qputenv("KERNELPAD_CACHE_DIR", "");
        qputenv("KP_HOSTILE_TOKEN", token_.c_str());
        qputenv("KP_HOSTILE_PORT", std::to_string(port_).c_str());
    }
    void cleanupTestCase() {
        if (listener_ >= 0) ::close(listener_);
    }

    void endsWithAClearMessageAndChangesNothing_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        // Without the sandbox the case would do harm: skipped where there is none.
        QTest::addColumn<bool>("needsSandbox");
        QTest::addColumn<QString>("backend");
        // Code that runs when its library is loaded.
        QTest::newRow("ctor_system") << "ctor_system" << QStringList{} << 0 << "" << true << "cpu";
        QTest::newRow("global_object") << "global_object" << QStringList{} << 0 << "" << true << "cpu";
        QTest::newRow("ctor_fork_bomb") << "ctor_fork_bomb" << QStringList{} << 0 << "" << true << "cpu";
        // Escapes from a running kernel: each fails inside the sandbox, and the run itself completes.
        for (const char* name : {"system_call", "popen_call", "write_home", "append_bashrc", "write_tmp",
                                 "write_beside", "symlink_out", "read_ssh_key", "tcp_connect", "exec_shell",
                                 "fork_bomb", "kill_parent", "kill_everyone"})
            QTest::newRow(name) << name << QStringList{} << 0 << "" << true << "cpu";
        QTest::newRow("detached_thread") << "detached_thread" << QStringList{} << 0 << "" << false << "cpu";
        QTest::newRow("forge_socket") << "forge_socket" << QStringList{} << 0 << "" << false << "cpu";
        // Faking success: the process that ran the kernel does not decide the verdict.
        for (const char* name : {"exit_zero", "underscore_exit", "quick_exit"})
            QTest::newRow(name) << name << QStringList{} << 4 << "must not call exit()" << false << "cpu";
        QTest::newRow("forged_answer")
            << "forged_answer" << QStringList{} << 4 << "must not call exit()" << false << "cpu";
        QTest::newRow("abort_call") << "abort_call" << QStringList{} << 4
                                    << "the kernel k crashed with SIGABRT" << false << "cpu";
        // Crashes, each named.
        for (const char* name : {"recursion", "big_local_array", "alloca_huge", "fiber_recursion"})
            QTest::newRow(name) << name << QStringList{} << 4 << "the kernel k overflowed its stack" << false
                                << "cpu";
        QTest::newRow("null_write") << "null_write" << QStringList{} << 4
                                    << "the kernel k crashed with SIGSEGV" << false << "cpu";
        QTest::newRow("divide_by_zero")
            << "divide_by_zero" << QStringList{} << 4 << "division (or remainder) by zero" << false << "cpu";
        QTest::newRow("memory_bomb") << "memory_bomb" << QStringList{} << 4
                                     << "the kernel k ran out of memory" << true << "cpu";
        QTest::newRow("throws") << "throws" << QStringList{} << 4 << "the kernel k threw a C++ exception"
                                << false << "cpu";
        QTest::newRow("endless_loop")
            << "endless_loop" << QStringList{"--timeout", "2"} << 4 << "--timeout" << false << "cpu";
        // Compile-time bombs: an include of a device is refused before the compiler starts (as on the
        // GPU), and the compiler reads only the toolchain and the playground's folder, under limits.
        for (const char* name : {"include_dev_zero", "include_dev_urandom"})
            QTest::newRow(name) << name << QStringList{} << 3 << "not a regular file" << false << "cpu";
        QTest::newRow("include_ssh_key")
            << "include_ssh_key" << QStringList{} << 3 << "Permission denied" << true << "cpu";
        QTest::newRow("include_itself")
            << "include_itself" << QStringList{} << 3 << "error:" << false << "cpu";
        QTest::newRow("macro_bomb") << "macro_bomb" << QStringList{} << 3 << "limit" << true << "cpu";
        // Files that are not what they claim: refused before anything reads them.
        QTest::newRow("source_fifo") << "source_fifo" << QStringList{} << 2 << "FIFO" << false << "cpu";
        QTest::newRow("source_dev_zero")
            << "source_dev_zero" << QStringList{} << 2 << "/dev/zero" << false << "cpu";
        QTest::newRow("source_link_outside") << "source_link_outside" << QStringList{} << 2
                                             << "outside the playground's folder" << false << "cpu";
        QTest::newRow("source_huge") << "source_huge" << QStringList{} << 2 << "reads at most" << false
                                     << "cpu";
        QTest::newRow("array_fifo") << "array_fifo" << QStringList{} << 2 << "FIFO" << false << "cpu";
        QTest::newRow("reference_link_outside") << "reference_link_outside" << QStringList{} << 2
                                                << "outside the playground's folder" << false << "cpu";
        // On a GPU: the reference that checks a CUDA run runs contained too, and NVRTC reads no device file.
        QTest::newRow("gpu_reference_writes_home")
            << "gpu_reference_writes_home" << QStringList{} << 0 << "check" << true << "cuda";
        QTest::newRow("gpu_reference_exit") << "gpu_reference_exit" << QStringList{} << 4
                                            << "the reference k_ref ended its process" << false << "cuda";
        QTest::newRow("gpu_include_dev_zero")
            << "gpu_include_dev_zero" << QStringList{} << 3 << "not a regular file" << false << "cuda";
    }
    void endsWithAClearMessageAndChangesNothing() {
        QFETCH(QString, name);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QFETCH(bool, needsSandbox);
        QFETCH(QString, backend);
        if (needsSandbox && !sandbox::support().available) QSKIP(sandbox::support().reason.c_str());
        if (backend == "cuda" && !cuda::Driver::available())
            QSKIP("no CUDA device here: the GPU machine runs this case");
        const fs::path folder = prepare(name.toStdString());
        qputenv("KP_HOSTILE_CASE_DIR", folder.c_str());
        const fs::path out = fs::path(work_.path().toStdString()) / (name.toStdString() + "-out");
        const auto homeBefore = snapshot(home(), {".cache", ".nv"});
        const auto folderBefore = snapshot(folder);
        const fs::path tmpMarker = fs::path("/tmp") / ("kp-hostile-" + token_);

        std::vector<std::string> arguments = {
            "run",       (folder / (name.toStdString() + ".kpad.json")).string(),
            "--backend", backend.toStdString(),
            "--out",     out.string()};
        for (const auto& option : options)
            arguments.push_back(option.toStdString());
        const auto started = std::chrono::steady_clock::now();
        const auto r = cli(arguments);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

        QVERIFY2(!r.timedOut, ("still running after 120 s:\n" + r.output).c_str());
        QVERIFY2(r.exitCode == exitCode,
                 ("exit " + std::to_string(r.exitCode) + " (signal " + std::to_string(r.signal) +
                  "), expected " + std::to_string(exitCode) + ":\n" + r.output)
                     .c_str());
        QVERIFY2(r.output.find(message.toStdString()) != std::string::npos,
                 ("missing \"" + message.toStdString() + "\" in:\n" + r.output).c_str());
        QVERIFY2(r.output.find(kFakeKey) == std::string::npos,
                 ("the secret leaked into the output:\n" + r.output).c_str());
        for (const auto& entry : fs::directory_iterator(out.parent_path()))
            if (entry.path().filename().string().starts_with(out.filename().string()) &&
                fs::is_directory(entry.path()))
                for (const auto& file : fs::recursive_directory_iterator(entry.path()))
                    QVERIFY2(readAll(file.path()).find("KERNELPAD-FAKE") == std::string::npos,
                             file.path().c_str());
        // Nothing outside the scratch folder changed, nothing reached the network.
        // (.nv is the CUDA driver's own cache of JIT-compiled kernels, written by the parent.)
        const auto homeAfter = snapshot(home(), {".cache", ".nv"});
        for (const auto& [file, hash] : homeAfter)
            QVERIFY2(homeBefore.count(file) && homeBefore.at(file) == hash,
                     ("changed in the home folder: " + file).c_str());
        QCOMPARE(homeAfter.size(), homeBefore.size());
        QCOMPARE(snapshot(folder), folderBefore);
        QVERIFY(!fs::exists(tmpMarker));
        QVERIFY(!connectionArrived());
        // No process left behind (a killed run's children end within moments).
        auto left = processesWith(token_);
        for (int wait = 0; wait < 50 && !left.empty(); ++wait) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            left = processesWith(token_);
        }
        QVERIFY2(left.empty(), ("left running: " + (left.empty() ? std::string() : left.front())).c_str());
        qInfo("%s: exit %d in %.1f s", qPrintable(name), r.exitCode, seconds);

        // The next run works.
        const auto next =
            cli({"run", std::string(KP_SOURCE_DIR) + "/samples/multiply_them/multiply_them.kpad.json",
                 "--backend", "cpu"});
        QVERIFY2(next.exitCode == 0, next.output.c_str());
        // Its scratch folder is gone, and so is one a killed run left (the next run removes those).
        std::error_code noScratch;
        for (const auto& entry :
             fs::directory_iterator(home() / ".cache" / "kernelpad" / "host" / "scratch", noScratch))
            QFAIL(("a scratch folder was left behind: " + entry.path().string()).c_str());
    }

    // kernelpad-cli compile reads only a regular file, at once.
    void compileRefusesAFifoAtOnce() {
        const fs::path fifo = fs::path(work_.path().toStdString()) / "pipe.cu";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const auto r = cli({"compile", fifo.string()}, 20);
        QVERIFY2(!r.timedOut, "compile waited on a FIFO");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.output.find("FIFO") != std::string::npos, r.output.c_str());
    }

    // The app opens a file by compiling it in the worker for the editor's diagnostics: that must not run
    // its code, whatever the sandbox.
    void openingInTheWorkerRunsNothing() {
        worker::WorkerClient client(KP_WORKER_PATH);
        for (const std::string name : {"ctor_system", "global_object"}) {
            const fs::path folder = prepare(name);
            const fs::path file = folder / (name + ".kpad.json");
            worker::InspectRequest request;
            request.playground = readAll(file);
            request.path = file.string();
            const auto result = client.run({request});
            QVERIFY2(result.ok(), result.message.c_str());
            QVERIFY(!fs::exists(home() / "pwned-ctor"));
            QVERIFY(!fs::exists(home() / "pwned-global"));
        }
    }

    // In the worker, a kernel's forged frames cannot reach the app: its run is answered by the worker.
    void aKernelCannotForgeTheWorkersReply() {
        worker::WorkerClient client(KP_WORKER_PATH);
        const fs::path folder = prepare("forge_socket");
        const fs::path file = folder / "forge_socket.kpad.json";
        worker::RunRequest request;
        request.playground = readAll(file);
        request.path = file.string();
        const auto result = client.run({request});
        QVERIFY2(result.ok(), result.message.c_str());
        QCOMPARE(result.outputs.size(), std::size_t{1});
        QCOMPARE(result.outputs.front().second.value(63), 63.0);
        // exit() in the worker's kernel is a fault of that kernel, and the worker stays.
        const fs::path exitFolder = prepare("exit_zero");
        request.playground = readAll(exitFolder / "exit_zero.kpad.json");
        request.path = (exitFolder / "exit_zero.kpad.json").string();
        const auto exited = client.run({request});
        QCOMPARE(exited.outcome, worker::Outcome::Fault);
        QVERIFY2(exited.message.find("must not call exit()") != std::string::npos, exited.message.c_str());
    }

    // Where the sandbox cannot be set up, a run of code from a file is refused with the reason and the way
    // to run it anyway; compiling (opening) still works.
    void withoutASandboxRunsAreRefusedUntilTrusted() {
        qputenv("KERNELPAD_TEST_NO_SANDBOX", "simulated");
        const auto refused =
            cli({"run", std::string(KP_SOURCE_DIR) + "/samples/multiply_them/multiply_them.kpad.json",
                 "--backend", "cpu"});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.output.find("cannot run the kernel multiply_them in its sandbox here") !=
                     std::string::npos,
                 refused.output.c_str());
        QVERIFY2(refused.output.find("--no-sandbox") != std::string::npos, refused.output.c_str());
        const auto trusted =
            cli({"run", std::string(KP_SOURCE_DIR) + "/samples/multiply_them/multiply_them.kpad.json",
                 "--backend", "cpu", "--no-sandbox"});
        QVERIFY2(trusted.exitCode == 0, trusted.output.c_str());

        worker::WorkerClient client(KP_WORKER_PATH);
        worker::RunRequest request;
        const fs::path file =
            fs::path(KP_SOURCE_DIR) / "samples" / "multiply_them" / "multiply_them.kpad.json";
        request.playground = readAll(file);
        request.path = file.string();
        const auto asked = client.run({request});
        QCOMPARE(asked.outcome, worker::Outcome::NoSandbox);
        request.trusted = true;
        const auto ran = client.run({request});
        QVERIFY2(ran.ok(), ran.message.c_str());
        const worker::InspectRequest inspect{request.playground, request.path};
        QVERIFY(client.run({inspect}).ok());
        qunsetenv("KERNELPAD_TEST_NO_SANDBOX");
    }
};

QTEST_GUILESS_MAIN(TestHostile)
#include "tst_hostile.moc"
