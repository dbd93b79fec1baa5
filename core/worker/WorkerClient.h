// Runs playgrounds in a worker process (kernelpad-worker, next to the program) so that a kernel that
// crashes, hangs or corrupts memory takes down the worker, never the app: the client reports what
// happened in words, and starts a fresh worker for the next run. No Qt: the app calls run() from a
// thread of its own and stop() from the GUI thread.
#pragma once

#include "Channel.h"
#include "Messages.h"
#include "core/UniqueFd.h"
#include "core/model/Diagnostic.h"
#include "core/run/CompiledCode.h"
#include "core/run/Inspect.h"
#include "core/run/SweepResult.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace kp::worker {

// One request and how the client watches it.
struct WorkerRequest {
    Request message = RunRequest{};
    double timeLimitSeconds = 0; // 0: none
    // Sweep: called on run()'s thread with each row as the worker measures it, so that a sweep shows its
    // progress, and its rows so far survive a stop or a crash.
    std::function<void(const run::SweepRow& row, std::size_t done, std::size_t total)> onSweepRow = nullptr;
};

enum class Outcome {
    Ok,          // ran (the report says whether the check passed)
    Input,       // the playground or a request field is wrong
    Setup,       // arguments or launch do not fit the kernel or the device
    Compile,     // the kernel does not compile: diagnostics
    Fault,       // the kernel faulted (GPU fault, out-of-bounds access in bounds mode)
    Crash,       // the worker died (signal): a CPU kernel's segfault, stack overflow, division by zero
    TimedOut,    // over the time limit: the worker was killed
    Stopped,     // stop() was called: the worker was killed
    OutOfMemory, // host or device memory ran out
    Worker,      // the worker is missing, of another version, or broke the protocol
    NoSandbox,   // the run needs the sandbox and this machine has none: ask the user, then run it trusted
};
std::string_view name(Outcome outcome);

// Why a worker running a CPU kernel died of the signal `how` names ("SIGABRT"), in the user's terms,
// starting with a space; empty for the GPU, where a kernel's fault is the worker's answer, not its death.
// An abort is an assert() that failed or a write past an array that damaged memory: both are said.
std::string explainCrash(std::string_view how, bool onCpu, bool checkBounds);

struct WorkerResult {
    Outcome outcome = Outcome::Worker;
    std::string message;                        // what happened, for the user (empty for Ok)
    std::vector<model::Diagnostic> diagnostics; // Compile
    nlohmann::json report;                      // Ok, for a Run: the timings.json object (project-format.md)
    run::RunTimings timings;                    // Ok, for a Run: the same report, typed
    std::string execution;                      // Ok: how the backend ran the threads
    launch::NamedArrays outputs;                // Ok: out and inout arrays (shared memory, mapped)
    launch::NamedArrays referenceOutputs;       // Ok: the reference's (or the CPU backend's), if any
    double seconds = 0;                         // wall time of the request
    // What the kernel (printf), the compiler or the runtime printed during the request, on either stream,
    // even when the worker died (an assert's text comes before its SIGABRT). At most kMaxOutputBytes.
    std::string output;
    double receiveMs = 0;                          // Ok: reading the answer and mapping its arrays
    std::optional<run::Inspection> inspection;     // Ok, for an Inspect request
    std::optional<run::SweepResult> sweep;         // Ok, for a Sweep request
    std::optional<run::CompiledCode> compiledCode; // Ok, for a Disassemble request
    bool ok() const { return outcome == Outcome::Ok; }
};

class WorkerClient {
public:
    static constexpr std::size_t kMaxOutputBytes = 1u << 20;
    explicit WorkerClient(std::filesystem::path executable = defaultExecutable());
    ~WorkerClient();
    WorkerClient(const WorkerClient&) = delete;
    WorkerClient& operator=(const WorkerClient&) = delete;

    // One request at a time (a second caller waits). Never throws for anything the worker or the
    // kernel does: every failure is a WorkerResult with its Outcome and message.
    WorkerResult run(const WorkerRequest& request);
    // From any thread: ends the run in progress (the worker is killed and restarted on the next run), or
    // the next run, when it comes between a caller's decision to run and run() itself.
    void stop() noexcept;

    pid_t pid() const noexcept { return pid_.load(); } // the worker's, or -1 when none runs
    // Workers started from here on run `increment` nice levels below this process: a kernel spinning on
    // every core then leaves a GUI thread its turn (a loaded 2-core machine froze the window for 460 ms
    // at the same priority). It costs a run nothing on an otherwise idle machine.
    void setNiceIncrement(int increment) noexcept { niceIncrement_ = increment; }
    const std::filesystem::path& executable() const noexcept { return executable_; }

    // $KERNELPAD_WORKER when set (tests, unusual installs), else kernelpad-worker in the folder of the
    // running program, else in ../libexec/kernelpad from it (an installed Kernelpad).
    static std::filesystem::path defaultExecutable();

private:
    using Clock = std::chrono::steady_clock;
    // The worker's answer, or how waiting for it ended without one (Stopped, TimedOut, Crash).
    struct Awaited {
        std::optional<Message> reply;
        Outcome outcome = Outcome::Ok;
        std::string message;
        Clock::time_point arrived; // when the answer began to come: receiving it and mapping its arrays
    };

    void start();
    void send(const Request& request); // starts a worker first where none runs
    // Waits for the answer in short slices, so that stop() and the time limit are noticed quickly; sweep
    // rows that come before it go to onSweepRow.
    Awaited await(const WorkerRequest& request, Clock::time_point started);
    // The answer into `result`: an Outcome::Worker failure for one that does not answer the request.
    void decode(const Request& request, Message reply, WorkerResult& result);
    // Closes the socket and waits for the worker: `grace` to end by itself, then SIGKILL. Its wait
    // status, or -1 when none was running.
    int end(std::chrono::milliseconds grace) noexcept;
    void kill() noexcept;
    std::string reap(); // waits for the worker to end; says how it ended

    std::filesystem::path executable_;
    int niceIncrement_ = 0;
    std::mutex runMutex_;
    std::string takeOutput();          // what the worker printed since the last call
    std::unique_ptr<Channel> channel_; // to the worker, while one runs
    UniqueFd output_; // the worker's stdout and stderr: a memory file the client reads after each request
    off_t outputRead_ = 0;
    std::atomic<pid_t> pid_{-1};
    std::atomic<bool> stopRequested_{false};
};

} // namespace kp::worker
