#include "Execute.h"

#include "core/cpu/CpuRunner.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Driver.h"
#include "core/run/CudaRunner.h"

namespace kp::run {

RunReport Execution::report() const {
    RunReport r{&setup, &result,         reference ? &*reference : nullptr, referenceIsCpuBackend,
                checks, uncheckedBecause};
    return r;
}

std::optional<int> cudaOrdinal(const run::Backend& backend) {
    const auto runnable = run::parseRunBackend(backend.id());
    if (runnable.isCuda()) return runnable.ordinal;
    return std::nullopt;
}

std::unique_ptr<Execution> execute(const model::Playground& playground, const ExecuteOptions& options) {
    const auto ordinal = cudaOrdinal(options.backend);
    if (options.repeat < 1)
        throw InputError("repeat: must be at least 1, got " + std::to_string(options.repeat));
    if (options.warmup < 0)
        throw InputError("warmup: must be 0 or more, got " + std::to_string(options.warmup));
    if (ordinal && !cuda::Driver::available()) {
        (void)launch::prepare(playground); // a bad playground is reported as such on any machine
        throw cuda::Unavailable(cuda::Driver::unavailableReason());
    }
    std::unique_ptr<launch::Runner> runner;
    if (ordinal) runner = std::make_unique<CudaRunner>(*ordinal);
    const cpu::CpuRunner cpuRunner(cpu::HostCompiler(), 0, options.checkBounds);
    auto execution = std::make_unique<Execution>();
    Execution& e = *execution;
    const launch::Runner& chosen = runner ? *runner : static_cast<const launch::Runner&>(cpuRunner);
    e.setup = launch::prepare(playground, chosen.allocator());
    e.result = chosen.run(e.setup, {options.repeat, options.warmup, options.cancel, options.resultAllocator});
    if (e.setup.reference) {
        e.reference = run::runReference(e.setup, cpu::HostCompiler());
    } else if (runner && !e.setup.outputs().empty()) {
        // No reference: the GPU is checked against the CPU backend (project-format.md). A kernel the CPU
        // backend cannot build (an intrinsic it lacks) still ran on the GPU: say why it is unchecked.
        try {
            auto cpu = cpuRunner.run(e.setup);
            e.reference.emplace();
            e.reference->outputs = std::move(cpu.outputs);
            e.reference->milliseconds = cpu.kernelMs.front();
            e.referenceIsCpuBackend = true;
        } catch (const InputError& error) {
            e.uncheckedBecause =
                std::string("the CPU backend could not run the kernel to compare: ") + error.what();
        }
    }
    if (e.reference) e.checks = run::checkAgainst(e.setup, e.result, *e.reference);
    return execution;
}

} // namespace kp::run
