#include "WorkerClient.h"

#include "Protocol.h"
#include "UnixChannel.h"
#include "core/Error.h"
#include "core/Stopwatch.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kp::worker {

namespace {

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

Outcome outcomeOf(FailureKind kind) {
    switch (kind) {
    case FailureKind::Input:
        return Outcome::Input;
    case FailureKind::Setup:
        return Outcome::Setup;
    case FailureKind::Compile:
        return Outcome::Compile;
    case FailureKind::Fault:
        return Outcome::Fault;
    case FailureKind::OutOfMemory:
        return Outcome::OutOfMemory;
    case FailureKind::Sandbox:
        return Outcome::NoSandbox;
    case FailureKind::Cuda:
    case FailureKind::Internal:
        break;
    }
    return Outcome::Worker;
}

std::string crashReason(const std::string& how, const Request& request) {
    const auto* run = std::get_if<RunRequest>(&request);
    return run ? explainCrash(how, run->backend.isCpu(), run->checkBounds) : std::string();
}

template <typename Wanted> bool answers(const Request& request) {
    return std::holds_alternative<Wanted>(request);
}

} // namespace

std::string explainCrash(std::string_view how, bool onCpu, bool checkBounds) {
    if (!onCpu) return {};
    const auto diedOf = [&](const char* signal) { return how.find(signal) != std::string_view::npos; };
    if (diedOf("SIGSEGV") || diedOf("SIGBUS"))
        return checkBounds ? " With bounds checking on, that points at a stack overflow (deep or endless "
                             "recursion) or a pointer the kernel made itself."
                           : " A kernel reading or writing outside its arrays shows like this on the CPU (so "
                             "does deep recursion): run again with bounds checking on to see the array, the "
                             "index, the thread and the line.";
    if (diedOf("SIGFPE"))
        return " On the CPU that is an integer division (or remainder) by zero in the kernel.";
    if (diedOf("SIGABRT"))
        return checkBounds
                   ? " With bounds checking on, that is an assert() in the kernel that failed (its "
                     "message is in the output) or a call to abort()."
                   : " On the CPU that is an assert() in the kernel that failed (its message is in "
                     "the output), or a write past an array's end that damaged memory: run again with "
                     "bounds checking on to tell them apart.";
    return {};
}

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
    auto installed = (folder / KP_WORKER_FROM_BIN / "kernelpad-worker").lexically_normal();
    if (!std::filesystem::exists(folder / "kernelpad-worker", error) &&
        std::filesystem::exists(installed, error))
        return installed;
    return folder / "kernelpad-worker";
}

WorkerClient::WorkerClient(std::filesystem::path executable) : executable_(std::move(executable)) {}

WorkerClient::~WorkerClient() {
    kill();
}

std::string WorkerClient::takeOutput() {
    if (!output_) return {};
    struct stat info {};
    if (::fstat(output_.get(), &info) != 0 || info.st_size <= outputRead_) return {};
    const auto available = static_cast<std::size_t>(info.st_size - outputRead_);
    std::string text(std::min(available, kMaxOutputBytes), '\0');
    const ssize_t got = ::pread(output_.get(), text.data(), text.size(), outputRead_);
    text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    outputRead_ = info.st_size;
    if (available > text.size())
        text += "\n... (" + std::to_string(available - text.size()) + " more bytes not shown)\n";
    return text;
}

int WorkerClient::end(std::chrono::milliseconds grace) noexcept {
    channel_.reset();
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
    UniqueFd ours(ends[0]), theirs(ends[1]);
    const std::string path = executable_.string();
    const int niceIncrement = niceIncrement_;
    // A fresh output file per worker; the earlier one is closed here.
    output_.reset(::memfd_create("kernelpad-worker-output", MFD_CLOEXEC));
    outputRead_ = 0;
    if (!output_) throw SystemError("memfd_create", errno, "the worker's output");
    const pid_t pid = ::fork();
    if (pid < 0) throw SystemError("fork", errno, "starting the worker");
    if (pid == 0) {
        // Only async-signal-safe calls until exec: the app has threads.
        if (::dup2(theirs.get(), 3) < 0 || ::dup2(output_.get(), 1) < 0 || ::dup2(output_.get(), 2) < 0)
            ::_exit(126);
        if (niceIncrement > 0) ::setpriority(PRIO_PROCESS, 0, ::getpriority(PRIO_PROCESS, 0) + niceIncrement);
        const char* argv[] = {"kernelpad-worker", "--socket", "3", nullptr};
        ::execv(path.c_str(), const_cast<char* const*>(argv));
        ::_exit(127);
    }
    channel_ = std::make_unique<UnixChannel>(std::move(ours));
    pid_ = pid;

    // The worker greets first; a worker of another version says so here.
    Frame frame;
    if (!channel_->wait(std::chrono::seconds(15))) {
        kill();
        throw WorkerBroken("the worker program " + path +
                           " did not start properly: it did not answer within 15 s");
    }
    if (!channel_->receive(frame))
        throw WorkerBroken("the worker program " + path + " did not start properly: " + reap());
    Hello hello;
    try {
        hello = std::get<Hello>(worker::decode(std::move(frame)));
    } catch (const std::exception& e) { // a protocol error, or another message than a hello
        kill();
        throw WorkerBroken("the worker program " + path +
                           " did not greet as a Kernelpad worker: " + e.what());
    }
    if (hello.protocol != kProtocol || hello.version != KP_VERSION) {
        kill();
        throw WorkerBroken(
            "the worker program " + path + " is Kernelpad " + hello.version + " speaking protocol " +
            std::to_string(hello.protocol) + ", but this Kernelpad is " + KP_VERSION + " speaking protocol " +
            std::to_string(kProtocol) + ": install matching versions (the worker comes with the app).");
    }
}

void WorkerClient::stop() noexcept {
    stopRequested_ = true;
}

void WorkerClient::send(const Request& request) {
    if (!channel_) start();
    channel_->send(encode(asMessage(request)));
}

WorkerClient::Awaited WorkerClient::await(const WorkerRequest& request, Clock::time_point started) {
    for (;;) {
        while (!channel_->wait(std::chrono::milliseconds(20))) {
            const double elapsed = millisecondsSince(started) / 1000;
            if (stopRequested_) {
                kill();
                return {std::nullopt, Outcome::Stopped,
                        "Stopped after " + seconds(elapsed) +
                            ", as you asked; the next run starts a fresh worker.",
                        Clock::now()};
            }
            if (request.timeLimitSeconds > 0 && elapsed > request.timeLimitSeconds) {
                kill();
                return {
                    std::nullopt, Outcome::TimedOut,
                    "Stopped after " + seconds(elapsed) + ": the run took longer than its time limit of " +
                        seconds(request.timeLimitSeconds) +
                        ". A kernel that never ends (a loop whose condition never changes) looks like this; "
                        "the next run starts a fresh worker.",
                    Clock::now()};
            }
        }
        const auto arrived = Clock::now();
        Frame frame;
        if (!channel_->receive(frame)) {
            const std::string how = reap();
            return {std::nullopt, Outcome::Crash,
                    "The worker running the kernel ended abnormally: " + how + "." +
                        crashReason(how, request.message) + " The next run starts a fresh worker.",
                    arrived};
        }
        auto reply = worker::decode(std::move(frame));
        auto* progress = std::get_if<SweepProgress>(&reply);
        if (!progress) return {std::move(reply), Outcome::Ok, {}, arrived};
        if (!answers<SweepRequest>(request.message))
            throw WorkerBroken("the worker sent a sweep row for a request that is not a sweep");
        if (request.onSweepRow) request.onSweepRow(progress->row, progress->done, progress->total);
    }
}

void WorkerClient::decode(const Request& request, Message reply, WorkerResult& result) {
    const auto wrongAnswer = [&] {
        return WorkerBroken("the worker answered with a message of type \"" +
                            std::string(name(typeOf(reply))) + "\"");
    };
    if (auto* failure = std::get_if<Failure>(&reply)) {
        if (failure->fatal) reap(); // its CUDA context is gone: the next run gets a new one
        result.outcome = outcomeOf(failure->kind);
        result.message = std::move(failure->message);
        result.diagnostics = std::move(failure->diagnostics);
        return;
    }
    result.outcome = Outcome::Ok;
    if (auto* ran = std::get_if<RunReply>(&reply); ran && answers<RunRequest>(request)) {
        result.report = std::move(ran->report);
        result.timings = std::move(ran->timings);
        result.execution = std::move(ran->execution);
        result.outputs = std::move(ran->outputs);
        result.referenceOutputs = std::move(ran->referenceOutputs);
    } else if (auto* inspection = std::get_if<run::Inspection>(&reply);
               inspection && answers<InspectRequest>(request)) {
        result.diagnostics = inspection->diagnostics;
        result.inspection = std::move(*inspection);
    } else if (auto* sweep = std::get_if<run::SweepResult>(&reply); sweep && answers<SweepRequest>(request)) {
        if (sweep->gpuFaulted) reap(); // as for a fatal failure
        result.sweep = std::move(*sweep);
    } else if (auto* code = std::get_if<run::CompiledCode>(&reply);
               code && answers<DisassembleRequest>(request)) {
        result.diagnostics = code->diagnostics;
        result.compiledCode = std::move(*code);
    } else {
        throw wrongAnswer();
    }
}

WorkerResult WorkerClient::run(const WorkerRequest& request) {
    const std::lock_guard lock(runMutex_);
    const auto started = Clock::now();
    WorkerResult result;
    try {
        send(request.message);
        auto awaited = await(request, started);
        if (awaited.reply) {
            decode(request.message, std::move(*awaited.reply), result);
            result.receiveMs = millisecondsSince(awaited.arrived);
        } else {
            result.outcome = awaited.outcome;
            result.message = std::move(awaited.message);
        }
    } catch (const WorkerBroken& e) {
        result.outcome = Outcome::Worker;
        result.message = e.what();
    } catch (const std::exception& e) {
        kill();
        result.outcome = Outcome::Worker;
        result.message = std::string("Talking to the worker failed: ") + e.what() +
                         ". The next run starts a fresh worker.";
    }
    result.seconds = millisecondsSince(started) / 1000;
    result.output = takeOutput();
    stopRequested_ = false; // a stop() is for the run it met; the next run starts afresh
    return result;
}

} // namespace kp::worker
