// kernelpad-worker: runs playgrounds for the app (core/worker/WorkerClient.h), so that a kernel that
// crashes, hangs or corrupts memory ends this process and not the app. Started by the client with one
// end of a Unix socket as file descriptor 3 (--socket 3); speaks core/worker/Protocol.h over it.
#include "core/Error.h"
#include "core/cuda/CudaError.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/run/CompiledCode.h"
#include "core/launch/KernelFault.h"
#include "core/launch/RunSetup.h"
#include "core/run/SweepRunner.h"
#include "core/sandbox/Confinement.h"
#include "core/run/Execute.h"
#include "core/run/Inspect.h"
#include "core/worker/Protocol.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <unistd.h>

using namespace kp;

namespace {

nlohmann::json failure(const std::string& kind, const std::string& message, bool fatal = false) {
    return {{"type", "error"},
            {"kind", kind},
            {"message", message},
            {"fatal", fatal},
            {"diagnostics", nlohmann::json::array()}};
}

// A sweep: every row goes to the app as it is measured, then the whole result. A GPU that faulted
// during the sweep leaves this process's context unusable: the worker ends after answering.
worker::Frame sweep(int socket, const model::Playground& playground, const nlohmann::json& request,
                    bool& fatal) {
    const auto spec = run::SweepSpec::fromJson(request.at("sweep"), "sweep");
    run::SweepOptions options;
    options.progress = [socket](const run::SweepRow& row, std::size_t done, std::size_t total) {
        std::fflush(stdout);
        worker::send(
            socket,
            {{{"type", "sweep_row"}, {"row", run::toJson(row)}, {"done", done}, {"total", total}}, {}});
    };
    const auto result = run::runSweep(playground, spec, options);
    for (const auto& row : result.rows)
        if (row.onGpu() && !row.error.empty() && row.error.find("faulted") != std::string::npos) fatal = true;
    return {{{"type", "sweep_result"}, {"result", result.toJson()}}, {}};
}

// A run request: runs the playground and shares its arrays; an inspect request: compiles it only; a
// disassemble request: compiles it and shows the code.
worker::Frame answer(int socket, const nlohmann::json& request, bool& fatal) {
    // Code from the playground runs in the sandbox. Where this machine has none, it runs unconfined only
    // for a file the user trusts (one they wrote, or said to run anyway).
    const bool trusted = request.value("trusted", false) && !sandbox::support().available;
    sandbox::setMode(trusted ? sandbox::Mode::Trusted : sandbox::Mode::Contained);
    const auto playground = io::parsePlayground(request.at("playground").get<std::string>(),
                                                request.at("path").get<std::string>());
    if (request.value("type", std::string()) == "sweep") return sweep(socket, playground, request, fatal);
    if (request.value("type", std::string()) == "disassemble") {
        const auto code = run::compileCode(playground, request.value("arch", std::string()),
                                           request.value("line_info", true));
        return {{{"type", "compiled_code"}, {"compiled_code", code.toJson()}}, {}};
    }
    const auto backend = request.value("backend", std::string("cpu"));
    if (request.value("type", std::string()) == "inspect")
        return {{{"type", "inspection"}, {"inspection", run::inspect(playground, backend).toJson()}}, {}};
    static const auto shared = std::make_shared<worker::SharedMemoryAllocator>();
    const auto execution =
        run::execute(playground, {backend, request.value("repeat", 1), request.value("warmup", 0),
                                     request.value("check_bounds", false), nullptr, shared});
    worker::Frame reply;
    reply.header = {{"type", "result"},
                    {"report", execution->report().toJson()},
                    {"execution", execution->result.execution}};
    reply.header["outputs"] = worker::shareArrays(execution->result.outputs, reply.fds);
    reply.header["reference_outputs"] = worker::shareArrays(
        execution->reference ? execution->reference->outputs : launch::NamedArrays{}, reply.fds);
    return reply;
}

// One request: the answer, and whether this process must end after it (a GPU fault leaves the
// process's CUDA context unusable, so the next run needs a fresh worker).
worker::Frame serve(int socket, const nlohmann::json& request, bool& fatal) {
    const bool cuda = request.value("backend", std::string("cpu")) != "cpu" ||
                      request.value("type", std::string()) == "sweep";
    try {
        return answer(socket, request, fatal);
    } catch (const launch::CompileError& e) {
        auto header = failure("compile", e.what());
        for (const auto& d : e.diagnostics())
            header["diagnostics"].push_back(model::toJson(d));
        return {header, {}};
    } catch (const launch::SetupError& e) {
        return {failure("setup", e.what()), {}};
    } catch (const sandbox::Unavailable& e) {
        return {failure("sandbox", e.what()), {}};
    } catch (const launch::KernelFault& e) {
        fatal = cuda;
        return {failure("fault", e.what(), fatal), {}};
    } catch (const cuda::CudaError& e) {
        fatal = e.sticky();
        if (e.outOfMemory()) return {failure("out_of_memory", e.what(), fatal), {}};
        return {failure(fatal ? "fault" : "cuda", e.what(), fatal), {}};
    } catch (const InputError& e) {
        return {failure("input", e.what()), {}};
    } catch (const cuda::Unavailable& e) {
        return {failure("input", std::string("no CUDA backend here: ") + e.what()), {}};
    } catch (const std::bad_alloc&) {
        return {failure("out_of_memory", "The run ran out of host memory. Make the arrays smaller."), {}};
    } catch (const std::exception& e) {
        return {failure("internal", e.what()), {}};
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3 || std::strcmp(argv[1], "--socket") != 0) {
        std::fprintf(
            stderr,
            "kernelpad-worker: started by Kernelpad, not by hand (usage: kernelpad-worker --socket FD)\n");
        return 2;
    }
    const int socket = std::atoi(argv[2]);
    // The app reads what kernels print (printf, assert) from our stdout and stderr after each request:
    // line by line, so that what came before a crash is there too.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    try {
        worker::send(socket, {{{"type", "hello"},
                               {"protocol", worker::kProtocol},
                               {"version", KP_VERSION},
                               {"pid", ::getpid()}},
                              {}});
        for (worker::Frame request; worker::receive(socket, request);) {
            worker::closeAll(request.fds);
            if (const auto type = request.header.value("type", std::string());
                type != "run" && type != "inspect" && type != "sweep" && type != "disassemble") {
                worker::send(socket, {failure("internal", "the worker does not know the request " +
                                                              request.header.dump()),
                                      {}});
                continue;
            }
            bool fatal = false;
            auto reply = serve(socket, request.header, fatal);
            std::fflush(stdout);
            worker::send(socket, reply);
            worker::closeAll(reply.fds);
            if (fatal) return 3;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kernelpad-worker: %s\n", e.what());
        return 1;
    }
    return 0;
}
