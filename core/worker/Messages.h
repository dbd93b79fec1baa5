// What the app and its worker say to each other, as values (Protocol.h encodes and decodes them):
//   worker -> app  Hello                                    once, first
//   app -> worker  RunRequest, InspectRequest, SweepRequest, DisassembleRequest
//   worker -> app  RunReply, Inspection, CompiledCode       the answer, or a Failure
//                  SweepProgress (after each row), then SweepResult
// Every request may say `trusted`: where there is no sandbox, the host code runs unconfined.
#pragma once

#include "core/launch/RunResult.h"
#include "core/model/Diagnostic.h"
#include "core/run/Backend.h"
#include "core/run/CompiledCode.h"
#include "core/run/Inspect.h"
#include "core/run/SweepResult.h"
#include "core/run/Timing.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kp::worker {

enum class MessageType {
    Hello,
    Run,
    Inspect,
    Sweep,
    Disassemble,
    Result,
    Inspection,
    SweepRow,
    SweepResult,
    CompiledCode,
    Error
};
// The header's "type": "hello", "run", "inspect", "sweep", "disassemble", "result", "inspection",
// "sweep_row", "sweep_result", "compiled_code", "error".
std::string_view name(MessageType type);
std::optional<MessageType> messageTypeFromName(std::string_view name);

// Why a request failed, as the worker classifies what it caught.
enum class FailureKind {
    Input,       // the playground or a request field is wrong
    Setup,       // arguments or launch do not fit the kernel or the device
    Compile,     // with diagnostics
    Sandbox,     // the run needs the sandbox and this machine has none
    Fault,       // the kernel faulted
    OutOfMemory, // host or device
    Cuda,        // another CUDA error
    Internal,    // anything else: the worker's own failure
};
// "input", "setup", "compile", "sandbox", "fault", "out_of_memory", "cuda", "internal".
std::string_view name(FailureKind kind);
std::optional<FailureKind> failureKindFromName(std::string_view name);

struct Hello {
    int protocol = -1;
    std::string version = "unknown";
    int pid = 0;
};

// Every request names a playground by its JSON text (the file format) and its file, against whose
// folder relative .npy/.csv/reference paths resolve.
struct RunRequest {
    std::string playground = {};
    std::string path = {};
    run::Backend backend = run::Backend::cpu();
    int repeat = 1;
    int warmup = 0;
    bool checkBounds = false; // the CPU backend's bounds-checking mode
    bool trusted = false;
};

// Compile only, for diagnostics and kernel attributes (Inspect.h).
struct InspectRequest {
    std::string playground = {};
    std::string path = {};
    run::Backend backend = run::Backend::cpu();
    bool trusted = false;
};

// The playground over the spec's range on its backends (run/SweepRunner.h).
struct SweepRequest {
    std::string playground = {};
    std::string path = {};
    run::SweepSpec spec = {};
    bool trusted = false;
};

// Compile only, for `arch` (empty: run::CompiledCode::defaultArch), with -lineinfo when `lineInfo`, and
// show the code (run/CompiledCode.h).
struct DisassembleRequest {
    std::string playground = {};
    std::string path = {};
    std::string arch = {};
    bool lineInfo = true;
    bool trusted = false;
};

using Request = std::variant<RunRequest, InspectRequest, SweepRequest, DisassembleRequest>;

struct RunReply {
    nlohmann::json report;       // the timings.json object (project-format.md), as the history keeps it
    run::RunTimings timings;     // the same report, typed
    std::string execution;       // how the backend ran the threads
    launch::NamedArrays outputs; // out and inout arrays
    launch::NamedArrays referenceOutputs; // the reference's (or the CPU backend's), if any
};

struct SweepProgress {
    run::SweepRow row = {};
    std::size_t done = 0;
    std::size_t total = 0;
};

struct Failure {
    FailureKind kind = FailureKind::Internal;
    std::string message = {};
    std::vector<model::Diagnostic> diagnostics = {}; // Compile
    // The worker ends after sending it: a GPU fault left its CUDA context unusable.
    bool fatal = false;
};

// A SweepResult whose gpuFaulted is set is fatal in the same way.
using Message = std::variant<Hello, RunRequest, InspectRequest, SweepRequest, DisassembleRequest, RunReply,
                             run::Inspection, SweepProgress, run::SweepResult, run::CompiledCode, Failure>;

MessageType typeOf(const Message& message);
Message asMessage(Request request);

} // namespace kp::worker
