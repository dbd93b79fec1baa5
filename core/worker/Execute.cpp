#include "Execute.h"

#include "core/cpu/CpuRunner.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Driver.h"
#include "core/run/CudaRunner.h"

namespace kp::worker {

run::RunReport Execution::report() const {
    run::RunReport r{&setup, &result, reference ? &*reference : nullptr, referenceIsCpuBackend, checks, uncheckedBecause};
    return r;
}

std::optional<int> cudaOrdinal(const run::Backend& backend) {
    const auto runnable = run::parseRunBackend(backend.id());
    if (runnable.isCuda()) return runnable.ordinal;
    return std::nullopt;
}

std::unique_ptr<Execution> execute(const model::Playground& playground, const ExecuteOptions& options) {
    const auto ordinal = cudaOrdinal(options.backend);
    if (options.repeat < 1) throw InputError("repeat: must be at least 1, got " + std::to_string(options.repeat));
    if (options.warmup < 0) throw InputError("warmup: must be 0 or more, got " + std::to_string(options.warmup));
    if (ordinal && !cuda::Driver::available()) {
        (void)run::prepare(playground); // a bad playground is reported as such on any machine
        throw cuda::Unavailable(cuda::Driver::unavailableReason());
    }
    std::optional<run::CudaRunner> cudaRunner;
    if (ordinal) cudaRunner.emplace(*ordinal);
    auto execution = std::make_unique<Execution>();
    Execution& e = *execution;
    e.setup = cudaRunner ? run::prepare(playground, cudaRunner->allocator()) : run::prepare(playground);
    const cpu::CpuRunner cpuRunner(cpu::HostCompiler(), 0, options.checkBounds);
    const run::RunOptions runOptions{options.repeat, options.warmup, options.cancel, options.resultAllocator};
    e.result = cudaRunner ? cudaRunner->run(e.setup, runOptions) : cpuRunner.run(e.setup, runOptions);
    if (e.setup.reference) {
        e.reference = run::runReference(e.setup, cpu::HostCompiler());
    } else if (cudaRunner && !e.setup.outputs().empty()) {
        // No reference: the GPU is checked against the CPU backend (project-format.md). A kernel the CPU
        // backend cannot build (an intrinsic it lacks) still ran on the GPU: say why it is unchecked.
        try {
            auto cpu = cpuRunner.run(e.setup);
            e.reference.emplace();
            e.reference->outputs = std::move(cpu.outputs);
            e.reference->milliseconds = cpu.kernelMs.front();
            e.referenceIsCpuBackend = true;
        } catch (const InputError& error) {
            e.uncheckedBecause = std::string("the CPU backend could not run the kernel to compare: ") + error.what();
        }
    }
    if (e.reference) e.checks = run::checkAgainst(e.setup, e.result, *e.reference);
    return execution;
}

} // namespace kp::worker
