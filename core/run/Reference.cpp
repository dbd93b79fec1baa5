#include "Reference.h"

#include "core/SharedLibrary.h"
#include "core/Stopwatch.h"
#include "core/cpu/ContainedRun.h"
#include "core/cpu/CudaHostHeader.h"
#include "core/io/FileBytes.h"
#include "core/launch/CompileError.h"
#include "core/launch/Repeats.h"
#include "core/sandbox/ChildSharedAllocator.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <regex>

namespace kp::run {

namespace {

// Calls the user's function with each parameter taken from an array of pointers: pointers as they are,
// scalars read from where the pointer points. Deduced from the function's own type, so the parameter
// list is written once, by the user.
std::string entryPoint(const std::string& function) {
    return R"(
#line 1 "<kernelpad reference entry>"
namespace kernelpad_reference {
using ::kernelpad::argument;
template <typename R, typename... P, std::size_t... I>
void call(R (*f)(P...), void* const* args, std::index_sequence<I...>) { f(argument<P>(args[I])...); }
template <typename R, typename... P> void call(R (*f)(P...), void* const* args) {
    call(f, args, std::index_sequence_for<P...>{});
}
template <typename R, typename... P> constexpr int arity(R (*)(P...)) { return sizeof...(P); }
} // namespace kernelpad_reference
extern "C" int kernelpad_reference_arity() { return kernelpad_reference::arity(&)" +
           function + R"(); }
extern "C" void kernelpad_reference_call(void* const* args) { kernelpad_reference::call(&)" +
           function + R"(, args); }
)";
}

} // namespace

cpu::HostCompileResult compileReference(const launch::RunSetup& setup, const cpu::HostCompiler& compiler) {
    if (!setup.reference) throw launch::SetupError({"reference: the playground has none"});
    const auto& spec = *setup.reference;
    static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*");
    if (!std::regex_match(spec.function, identifier))
        throw launch::SetupError(
            {"reference.function: \"" + spec.function + "\" is not the name of a C++ function"});

    const std::string userText =
        io::readTextFile(model::resolveInside(setup.folder, spec.source, "reference.source"));
    const std::string escaped = std::regex_replace(spec.source, std::regex(R"(["\\])"), R"(\$&)");
    // Behind the built-ins, hostKernelOptions()'s prelude.
    cpu::HostSource source{spec.source,
                           "#line 1 \"" + escaped + "\"\n" + userText + "\n" + entryPoint(spec.function)};
    cpu::HostCompileOptions options = cpu::hostKernelOptions();
    options.readable = {setup.folder}; // its headers
    if (!setup.folder.empty()) options.includeDirs = {setup.folder.string()};
    auto compiled = compiler.compile({source}, options);
    if (!compiled.ok) throw launch::CompileError(compiled.diagnostics, compiled.log);
    return compiled;
}

ReferenceResult runReference(const launch::RunSetup& setup, const cpu::HostCompiler& compiler, int repeat,
                             int warmup, bool inputsInPlace) {
    if (repeat < 1) throw InputError("reference: repeat must be at least 1, got " + std::to_string(repeat));
    const auto compiled = compileReference(setup, compiler);
    const auto& spec = *setup.reference;

    ReferenceResult result;
    result.compileMs = compiled.milliseconds;
    result.compileFromCache = compiled.fromCache;
    // Outputs live in memory the contained child writes; inputs it cannot inherit (pinned by the CUDA
    // driver) are copied first.
    launch::NamedArrays outputs;
    std::uint64_t arrayBytes = 0;
    for (const auto& arg : setup.args) {
        if (arg.isArray) arrayBytes += arg.array.bytes();
        if (arg.copiedOut())
            outputs.emplace_back(arg.name, model::Array(arg.array.dtype(), arg.array.shape(),
                                                        sandbox::childSharedAllocator(),
                                                        model::Array::Uninitialized{}));
    }
    const cpu::ContainedCode code{"the reference " + spec.function, compiled.library,
                                  compiler.cacheDirectory(), (std::uint64_t{2} << 30) + 3 * arrayBytes,
                                  nullptr};
    const auto body = [&](const cpu::ChildInputs& inputs, const std::atomic<bool>&) -> nlohmann::json {
        const auto library = cpu::loadCompiled(compiled.library);
        using Arity = int (*)();
        using Call = void (*)(void* const*);
        const auto arity = reinterpret_cast<Arity>(library->symbol("kernelpad_reference_arity"));
        const auto call = reinterpret_cast<Call>(library->symbol("kernelpad_reference_call"));
        if (!arity || !call) throw Error("the compiled reference lacks its entry point: " + library->error());
        if (static_cast<std::size_t>(arity()) != setup.args.size()) return {{"arity", arity()}};

        // Inputs are copies (or, read in place, the inputs themselves), outputs start at zero, as on a
        // device; again for each call, as an inout array holds the previous call's results. Out and inout
        // arrays are the outputs themselves (memory shared with the parent: nothing is copied back); the
        // working copies are allocated once and refilled: a fresh zeroed array's pages are mapped on first
        // write, and writing them before the clock starts keeps that out of the reference's time, as the
        // GPU's kernel time leaves out allocation (3.4 ms of a 1M-element multiply was page faults).
        std::vector<model::Array> copies(setup.args.size());
        std::vector<void*> pointers;
        std::vector<std::byte*> working(setup.args.size(), nullptr);
        for (std::size_t i = 0, out = 0; i < setup.args.size(); ++i) {
            const auto& arg = setup.args[i];
            if (!arg.isArray) {
                pointers.push_back(const_cast<std::byte*>(arg.scalarBytes.data()));
            } else if (std::byte* input = inputs.inPlace(i)) {
                pointers.push_back(input);
            } else {
                if (arg.copiedOut()) {
                    working[i] = outputs[out++].second.data();
                } else {
                    copies[i] = model::Array(arg.array.dtype(), arg.array.shape(), model::heapAllocator(),
                                             model::Array::Uninitialized{});
                    working[i] = copies[i].data();
                }
                pointers.push_back(working[i]);
            }
        }
        const auto times = launch::repeatRounds(warmup, repeat, nullptr, [&] {
            inputs.refill(working);
            const auto start = std::chrono::steady_clock::now();
            call(pointers.data());
            return launch::RoundTimes{0.0, millisecondsSince(start), 0.0};
        });
        return {{"samples", times.kernelMs}};
    };
    const auto answer = cpu::runContainedOnInputs(code, setup, inputsInPlace, body);
    if (answer.contains("arity")) {
        const int arity = answer.at("arity").get<int>();
        const std::string takes =
            setup.program.single
                ? "the kernel " + setup.signature.name + " takes " + std::to_string(setup.args.size()) +
                      "; a reference has the kernel's parameter list"
                : "the program has " + std::to_string(setup.args.size()) +
                      " arguments; a reference takes the program's arguments, in their order";
        throw launch::CompileError(
            {{spec.source, 1, 1, model::Diagnostic::Severity::Error,
              spec.function + " takes " + std::to_string(arity) + " parameters but " + takes}},
            {});
    }
    result.samplesMs = answer.value("samples", std::vector<double>{});
    result.milliseconds = launch::median(result.samplesMs);
    result.outputs = std::move(outputs);
    return result;
}

} // namespace kp::run
