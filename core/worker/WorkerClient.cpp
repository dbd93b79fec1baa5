#include "WorkerClient.h"

#include "core/Error.h"
#include "core/Stopwatch.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kp::worker {

namespace {

using Clock = std::chrono::steady_clock;

// A failure to start or talk to the worker: becomes Outcome::Worker.
struct WorkerBroken : Error {
    using Error::Error;
};

std::string seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, s < 10 ? "%.1f s" : "%.0f s", s);
    return text;
}

std::string signalText(int signal) {
    const char* description = ::strsignal(signal);
    const char* name = signal == SIGSEGV   ? "SIGSEGV"
                       : signal == SIGBUS  ? "SIGBUS"
                       : signal == SIGFPE  ? "SIGFPE"
                       : signal == SIGABRT ? "SIGABRT"
                       : signal == SIGILL  ? "SIGILL"
                       : signal == SIGKILL ? "SIGKILL"
                                           : nullptr;
    std::string text = "signal " + std::to_string(signal);
    if (name)
        text +=
            std::string(" (") + name + (description ? std::string(", ") + description : std::string()) + ")";
    return text;
}

Outcome outcomeOf(const std::string& kind) {
    if (kind == "input") return Outcome::Input;
    if (kind == "setup") return Outcome::Setup;
    if (kind == "compile") return Outcome::Compile;
    if (kind == "fault") return Outcome::Fault;
    if (kind == "out_of_memory") return Outcome::OutOfMemory;
    if (kind == "sandbox") return Outcome::NoSandbox;
    return Outcome::Worker;
}

} // namespace

std::string_view name(Outcome outcome) {
    switch (outcome) {
    case Outcome::Ok:
        return "ok";
    case Outcome::Input:
        return "input";
    case Outcome::Setup:
        return "setup";
    case Outcome::Compile:
        return "compile";
    case Outcome::Fault:
        return "fault";
    case Outcome::Crash:
        return "crash";
    case Outcome::TimedOut:
        return "timed out";
    case Outcome::Stopped:
        return "stopped";
    case Outcome::OutOfMemory:
        return "out of memory";
    case Outcome::Worker:
        return "worker";
    case Outcome::NoSandbox:
        return "no sandbox";
    }
    return "?";
}

std::filesystem::path WorkerClient::defaultExecutable() {
    if (const char* chosen = std::getenv("KERNELPAD_WORKER"); chosen && *chosen) return chosen;
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    const auto folder = error ? std::filesystem::path(".") : self.parent_path();
    // Beside the program in a build; in libexec/kernelpad once installed (cmake/Install.cmake).
    const auto installed = (folder / KP_WORKER_FROM_BIN / "kernelpad-worker").lexically_normal();
    if (!std::filesystem::exists(folder / "kernelpad-worker", error) &&
        std::filesystem::exists(installed, error))
        return installed;
    return folder / "kernelpad-worker";
}

WorkerClient::WorkerClient(std::filesystem::path executable) : executable_(std::move(executable)) {}

WorkerClient::~WorkerClient() {
    kill();
    if (output_ >= 0) ::close(output_);
}

std::string WorkerClient::takeOutput() {
    if (output_ < 0) return {};
    struct stat info {};
    if (::fstat(output_, &info) != 0 || info.st_size <= outputRead_) return {};
    const auto available = static_cast<std::size_t>(info.st_size - outputRead_);
    std::string text(std::min(available, kMaxOutputBytes), '\0');
    const ssize_t got = ::pread(output_, text.data(), text.size(), outputRead_);
    text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    outputRead_ = info.st_size;
    if (available > text.size())
        text += "\n... (" + std::to_string(available - text.size()) + " more bytes not shown)\n";
    return text;
}

int WorkerClient::end(std::chrono::milliseconds grace) noexcept {
    if (socket_ >= 0) ::close(socket_);
    socket_ = -1;
    // The output file stays until the next start: what a dying worker printed is read after it died.
    const pid_t pid = pid_.exchange(-1);
    if (pid <= 0) return -1;
    int status = 0;
    pid_t done;
    const auto deadline = Clock::now() + grace;
    while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && Clock::now() < deadline)
        ::usleep(2000);
    if (done == 0) {
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    return status;
}

void WorkerClient::kill() noexcept {
    end(std::chrono::milliseconds(0));
}

std::string WorkerClient::reap() {
    // It closed its end: it is ending. Give it a moment, then make sure.
    const int status = end(std::chrono::seconds(5));
    if (status < 0) return "it was not running";
    if (WIFSIGNALED(status)) return "it died of " + signalText(WTERMSIG(status));
    if (WIFEXITED(status)) return "it exited with status " + std::to_string(WEXITSTATUS(status));
    return "it ended";
}

void WorkerClient::start() {
    std::error_code error;
    if (!std::filesystem::exists(executable_, error))
        throw WorkerBroken(
            "the worker program " + executable_.string() +
            " is missing: Kernelpad runs kernels in it, so that a crashing kernel cannot take the app "
            "down. Build the kernelpad-worker target or reinstall Kernelpad.");
    if (::access(executable_.c_str(), X_OK) != 0)
        throw WorkerBroken("the worker program " + executable_.string() +
                           " cannot be executed: " + std::strerror(errno));
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        throw SystemError("socketpair", errno, "the worker's socket");
    const std::string path = executable_.string();
    // A fresh output file per worker; closed here once the child has its copy.
    if (output_ >= 0) ::close(output_);
    output_ = ::memfd_create("kernelpad-worker-output", MFD_CLOEXEC);
    outputRead_ = 0;
    if (output_ < 0) {
        const int e = errno;
        ::close(ends[0]);
        ::close(ends[1]);
        throw SystemError("memfd_create", e, "the worker's output");
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(ends[0]);
        ::close(ends[1]);
        throw SystemError("fork", e, "starting the worker");
    }
    if (pid == 0) {
        // Only async-signal-safe calls until exec: the app has threads.
        if (::dup2(ends[1], 3) < 0 || ::dup2(output_, 1) < 0 || ::dup2(output_, 2) < 0) ::_exit(126);
        const char* argv[] = {"kernelpad-worker", "--socket", "3", nullptr};
        ::execv(path.c_str(), const_cast<char* const*>(argv));
        ::_exit(127);
    }
    ::close(ends[1]);
    socket_ = ends[0];
    pid_ = pid;

    // The worker greets first; a worker of another version says so here.
    pollfd p{socket_, POLLIN, 0};
    int ready;
    do
        ready = ::poll(&p, 1, 15000);
    while (ready < 0 && errno == EINTR);
    Frame hello;
    if (ready <= 0 || !receive(socket_, hello)) {
        const std::string how = ready <= 0 ? (kill(), "it did not answer within 15 s") : reap();
        throw WorkerBroken("the worker program " + path + " did not start properly: " + how);
    }
    closeAll(hello.fds);
    const auto protocol = hello.header.value("protocol", -1);
    const auto version = hello.header.value("version", std::string("unknown"));
    if (hello.header.value("type", std::string()) != "hello" || protocol != kProtocol ||
        version != KP_VERSION) {
        kill();
        throw WorkerBroken("the worker program " + path + " is Kernelpad " + version + " speaking protocol " +
                           std::to_string(protocol) + ", but this Kernelpad is " + KP_VERSION +
                           " speaking protocol " + std::to_string(kProtocol) +
                           ": install matching versions (the worker comes with the app).");
    }
}

void WorkerClient::stop() noexcept {
    stopRequested_ = true;
}

WorkerResult WorkerClient::run(const WorkerRequest& request) {
    const std::lock_guard lock(runMutex_);
    const auto started = Clock::now();
    WorkerResult result;
    const auto finish = [&](Outcome outcome, std::string message) {
        result.outcome = outcome;
        result.message = std::move(message);
        result.seconds = millisecondsSince(started) / 1000;
        result.output = takeOutput();
        stopRequested_ = false; // a stop() is for the run it met; the next run starts afresh
        return std::move(result);
    };
    try {
        if (socket_ < 0) start();
        const char* kind = request.kind == WorkerRequest::Kind::Inspect       ? "inspect"
                           : request.kind == WorkerRequest::Kind::Sweep       ? "sweep"
                           : request.kind == WorkerRequest::Kind::Disassemble ? "disassemble"
                                                                              : "run";
        nlohmann::json header = {{"type", kind},
                                 {"playground", request.playground},
                                 {"path", request.path},
                                 {"backend", request.backend},
                                 {"repeat", request.repeat},
                                 {"warmup", request.warmup},
                                 {"check_bounds", request.checkBounds},
                                 {"trusted", request.trusted}};
        if (request.kind == WorkerRequest::Kind::Sweep) header["sweep"] = request.sweep;
        if (request.kind == WorkerRequest::Kind::Disassemble) {
            header["arch"] = request.arch;
            header["line_info"] = request.lineInfo;
        }
        send(socket_, {std::move(header), {}});
        Frame reply;
        for (;;) { // sweep rows come before the answer
            // Wait in short slices so that stop() and the time limit are noticed quickly.
            for (;;) {
                pollfd p{socket_, POLLIN, 0};
                const int ready = ::poll(&p, 1, 20);
                if (ready < 0 && errno != EINTR) throw SystemError("poll", errno, "the worker's socket");
                if (ready > 0) break;
                const double elapsed = millisecondsSince(started) / 1000;
                if (stopRequested_) {
                    kill();
                    return finish(Outcome::Stopped,
                                  "Stopped after " + seconds(elapsed) +
                                      ", as you asked; the next run starts a fresh worker.");
                }
                if (request.timeLimitSeconds > 0 && elapsed > request.timeLimitSeconds) {
                    kill();
                    return finish(
                        Outcome::TimedOut,
                        "Stopped after " + seconds(elapsed) +
                            ": the run took longer than its time limit of " +
                            seconds(request.timeLimitSeconds) +
                            ". A kernel that never ends (a loop whose condition never changes) looks like "
                            "this; the next run starts a fresh worker.");
                }
            }
            if (!receive(socket_, reply)) {
                const std::string how = reap();
                std::string message = "The worker running the kernel ended abnormally: " + how + ".";
                if (request.backend == "cpu") {
                    if (how.find("SIGSEGV") != std::string::npos || how.find("SIGBUS") != std::string::npos)
                        message += request.checkBounds ? " With bounds checking on, that points at a stack "
                                                         "overflow (deep or endless recursion) or a "
                                                         "pointer the kernel made itself."
                                                       : " A kernel reading or writing outside its arrays "
                                                         "shows like this on the CPU (so does deep "
                                                         "recursion): run again with bounds checking on to "
                                                         "see the array, the index, the thread and the line.";
                    else if (how.find("SIGFPE") != std::string::npos)
                        message +=
                            " On the CPU that is an integer division (or remainder) by zero in the kernel.";
                    else if (how.find("SIGABRT") != std::string::npos)
                        message += " An assert() in the kernel that failed shows like this.";
                }
                return finish(Outcome::Crash, message + " The next run starts a fresh worker.");
            }
            if (reply.header.value("type", std::string()) != "sweep_row") break;
            // A sweep's row: passed on, then back to waiting for the next frame.
            closeAll(reply.fds);
            try {
                const auto row = run::sweepRowFromJson(reply.header.at("row"));
                if (request.onSweepRow)
                    request.onSweepRow(row, reply.header.at("done").get<std::size_t>(),
                                       reply.header.at("total").get<std::size_t>());
            } catch (const std::exception& e) {
                throw WorkerBroken(std::string("the worker's sweep row is malformed: ") + e.what());
            }
        }
        const auto answered = Clock::now();
        const auto type = reply.header.value("type", std::string());
        if (type == "sweep_result") {
            closeAll(reply.fds);
            try {
                result.sweep = run::SweepResult::fromJson(reply.header.at("result"));
            } catch (const std::exception& e) {
                throw WorkerBroken(std::string("the worker's sweep result is malformed: ") + e.what());
            }
            return finish(Outcome::Ok, {});
        }
        if (type == "inspection") {
            closeAll(reply.fds);
            try {
                result.inspection = run::Inspection::fromJson(reply.header.at("inspection"));
            } catch (const std::exception& e) {
                throw WorkerBroken(std::string("the worker's inspection is malformed: ") + e.what());
            }
            result.diagnostics = result.inspection->diagnostics;
            return finish(Outcome::Ok, {});
        }
        if (type == "compiled_code") {
            closeAll(reply.fds);
            try {
                result.compiledCode = run::CompiledCode::fromJson(reply.header.at("compiled_code"));
            } catch (const std::exception& e) {
                throw WorkerBroken(std::string("the worker's compiled code is malformed: ") + e.what());
            }
            result.diagnostics = result.compiledCode->diagnostics;
            return finish(Outcome::Ok, {});
        }
        if (type == "result") {
            result.report = reply.header.value("report", nlohmann::json::object());
            result.execution = reply.header.value("execution", std::string());
            try {
                result.outputs = adoptArrays(reply.header.at("outputs"), reply.fds);
                result.referenceOutputs = adoptArrays(reply.header.at("reference_outputs"), reply.fds);
            } catch (...) {
                closeAll(reply.fds);
                throw;
            }
            closeAll(reply.fds);
            result.receiveMs = millisecondsSince(answered);
            return finish(Outcome::Ok, {});
        }
        closeAll(reply.fds);
        if (type != "error")
            throw WorkerBroken("the worker answered with a message of type \"" + type + "\"");
        for (const auto& d : reply.header.value("diagnostics", nlohmann::json::array()))
            result.diagnostics.push_back(model::diagnosticFromJson(d));
        if (reply.header.value("fatal", false))
            reap(); // its CUDA context is gone: the next run gets a new one
        return finish(outcomeOf(reply.header.value("kind", std::string())),
                      reply.header.value("message", std::string()));
    } catch (const WorkerBroken& e) {
        return finish(Outcome::Worker, e.what());
    } catch (const std::exception& e) {
        kill();
        return finish(Outcome::Worker, std::string("Talking to the worker failed: ") + e.what() +
                                           ". The next run starts a fresh worker.");
    }
}

} // namespace kp::worker
