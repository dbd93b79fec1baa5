// kernelpad-worker: runs playgrounds for the app (core/worker/WorkerClient.h), so that a kernel that
// crashes, hangs or corrupts memory ends this process and not the app. Started by the client with one
// end of a Unix socket as file descriptor 3 (--socket 3); speaks core/worker/Protocol.h over it.
#include "core/Error.h"
#include "core/cpu/CpuRunner.h"
#include "core/cuda/CudaError.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/launch/RunSetup.h"
#include "core/run/CompiledCode.h"
#include "core/run/Execute.h"
#include "core/run/Inspect.h"
#include "core/run/SweepRunner.h"
#include "core/sandbox/Confinement.h"
#include "core/worker/Protocol.h"
#include "core/worker/UnixChannel.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <variant>

using namespace kp;

namespace {

worker::Failure failure(worker::FailureKind kind, const std::string& message, bool fatal = false) {
    return {kind, message, {}, fatal};
}

// Code from the playground runs in the sandbox. Where this machine has none, it runs unconfined only for
// a file the user trusts (one they wrote, or said to run anyway).
void confine(bool trusted) {
    sandbox::setMode(trusted && !sandbox::support().available ? sandbox::Mode::Trusted
                                                              : sandbox::Mode::Contained);
}

// A sweep: every row goes to the app as it is measured, then the whole result (whose gpuFaulted says
// that this process's CUDA context is gone).
worker::Message answer(worker::Channel& channel, const worker::SweepRequest& request) {
    confine(request.trusted);
    const auto playground = io::parsePlayground(request.playground, request.path);
    run::SweepOptions options;
    options.progress = [&channel](const run::SweepRow& row, std::size_t done, std::size_t total) {
        std::fflush(stdout);
        channel.send(worker::encode(worker::SweepProgress{row, done, total}));
    };
    return run::runSweep(playground, request.spec, options);
}

// Runs the playground and shares its arrays.
worker::Message answer(worker::Channel& channel, const worker::RunRequest& request) {
    confine(request.trusted);
    const auto playground = io::parsePlayground(request.playground, request.path);
    const auto execution = run::execute(playground, {request.backend, request.repeat, request.warmup,
                                                     request.checkBounds, nullptr, channel.arrayAllocator()});
    worker::RunReply reply;
    reply.report = execution->report().toJson();
    reply.execution = execution->result.execution;
    reply.outputs = std::move(execution->result.outputs);
    if (execution->reference) reply.referenceOutputs = std::move(execution->reference->outputs);
    return reply;
}

// Compiles only.
worker::Message answer(worker::Channel&, const worker::InspectRequest& request) {
    confine(request.trusted);
    return run::inspect(io::parsePlayground(request.playground, request.path), request.backend);
}

// Compiles and shows the code.
worker::Message answer(worker::Channel&, const worker::DisassembleRequest& request) {
    confine(request.trusted);
    return run::compileCode(io::parsePlayground(request.playground, request.path), request.arch,
                            request.lineInfo);
}

// Whether a kernel's fault leaves this process's CUDA context unusable: a request that used CUDA.
bool usesCuda(const worker::Request& request) {
    if (const auto* r = std::get_if<worker::RunRequest>(&request)) return r->backend.isCuda();
    if (const auto* r = std::get_if<worker::InspectRequest>(&request)) return r->backend.isCuda();
    return std::holds_alternative<worker::SweepRequest>(request);
}

// One request's answer: what it asked for, or the failure it met as a person reads it.
worker::Message serve(worker::Channel& channel, const worker::Request& request) {
    try {
        return std::visit([&](const auto& r) { return answer(channel, r); }, request);
    } catch (const launch::CompileError& e) {
        auto compile = failure(worker::FailureKind::Compile, e.what());
        compile.diagnostics = e.diagnostics();
        return compile;
    } catch (const launch::SetupError& e) {
        return failure(worker::FailureKind::Setup, e.what());
    } catch (const sandbox::Unavailable& e) {
        return failure(worker::FailureKind::Sandbox, e.what());
    } catch (const launch::KernelFault& e) {
        return failure(worker::FailureKind::Fault, e.what(), usesCuda(request));
    } catch (const cuda::CudaError& e) {
        if (e.outOfMemory()) return failure(worker::FailureKind::OutOfMemory, e.what(), e.sticky());
        return failure(e.sticky() ? worker::FailureKind::Fault : worker::FailureKind::Cuda, e.what(),
                       e.sticky());
    } catch (const InputError& e) {
        return failure(worker::FailureKind::Input, e.what());
    } catch (const cuda::Unavailable& e) {
        return failure(worker::FailureKind::Input, std::string("no CUDA backend here: ") + e.what());
    } catch (const std::bad_alloc&) {
        return failure(worker::FailureKind::OutOfMemory,
                       "The run ran out of host memory. Make the arrays smaller.");
    } catch (const std::exception& e) {
        return failure(worker::FailureKind::Internal, e.what());
    }
}

// The request in a frame, or the failure to send back for one this worker cannot read.
std::variant<worker::Request, worker::Failure> requestOf(worker::Frame frame) {
    const auto typeName = frame.header.value("type", std::string());
    try {
        auto message = worker::decode(std::move(frame));
        return std::visit(
            [&](auto& m) -> std::variant<worker::Request, worker::Failure> {
                using M = std::decay_t<decltype(m)>;
                if constexpr (std::is_constructible_v<worker::Request, M&&> &&
                              !std::is_same_v<M, worker::Hello>)
                    return worker::Request(std::move(m));
                else
                    return failure(worker::FailureKind::Internal,
                                   "the worker does not take a \"" + typeName + "\" message as a request");
            },
            message);
    } catch (const worker::ProtocolError& e) {
        return failure(worker::FailureKind::Internal,
                       std::string("the worker does not know the request: ") + e.what());
    } catch (const InputError& e) {
        return failure(worker::FailureKind::Input, e.what());
    }
}

bool fatal(const worker::Message& reply) {
    if (const auto* f = std::get_if<worker::Failure>(&reply)) return f->fatal;
    if (const auto* s = std::get_if<run::SweepResult>(&reply)) return s->gpuFaulted;
    return false;
}

} // namespace

int main(int argc, char** argv) {
    // A build step: the CPU backend's built-ins, precompiled for this machine's compiler into DIR.
    if (argc == 3 && std::strcmp(argv[1], "--precompile-built-ins") == 0) {
        std::string why;
        if (cpu::CpuRunner::precompileBuiltIns(argv[2], why)) return 0;
        std::fprintf(stderr, "kernelpad-worker: %s (each first compile precompiles them instead)\n",
                     why.c_str());
        return 0; // not a build failure: the cache is filled at run time
    }
    if (argc != 3 || std::strcmp(argv[1], "--socket") != 0) {
        std::fprintf(
            stderr,
            "kernelpad-worker: started by Kernelpad, not by hand (usage: kernelpad-worker --socket FD)\n");
        return 2;
    }
    worker::UnixChannel channel(UniqueFd(std::atoi(argv[2])));
    // The app reads what kernels print (printf, assert) from our stdout and stderr after each request:
    // line by line, so that what came before a crash is there too.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    try {
        channel.send(worker::encode(worker::Hello{worker::kProtocol, KP_VERSION, ::getpid()}));
        for (worker::Frame frame; channel.receive(frame);) {
            auto request = requestOf(std::move(frame));
            if (auto* refused = std::get_if<worker::Failure>(&request)) {
                channel.send(worker::encode(std::move(*refused)));
                continue;
            }
            auto reply = serve(channel, std::get<worker::Request>(request));
            std::fflush(stdout);
            const bool ending = fatal(reply);
            channel.send(worker::encode(std::move(reply)));
            if (ending) return 3;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kernelpad-worker: %s\n", e.what());
        return 1;
    }
    return 0;
}
