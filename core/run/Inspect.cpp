#include "Inspect.h"

#include "Execute.h"
#include "core/Error.h"
#include "core/cpu/CpuRunner.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Driver.h"
#include "core/launch/RunSetup.h"
#include "core/run/CompiledCode.h"
#include "core/run/CudaRunner.h"

#include <future>
#include <map>
#include <memory>

namespace kp::run {

namespace {

using nlohmann::json;

json attributesJson(const cuda::KernelAttributes& a) {
    return {{"registers_per_thread", a.registersPerThread},
            {"static_shared_bytes", a.staticSharedBytes},
            {"local_bytes_per_thread", a.localBytesPerThread},
            {"const_bytes", a.constBytes},
            {"max_threads_per_block", a.maxThreadsPerBlock},
            {"max_dynamic_shared_bytes", a.maxDynamicSharedBytes},
            {"ptx_version", a.ptxVersion},
            {"binary_version", a.binaryVersion}};
}

cuda::KernelAttributes attributesFrom(const json& j) {
    return {j.at("registers_per_thread").get<int>(),
            j.at("static_shared_bytes").get<int>(),
            j.at("local_bytes_per_thread").get<int>(),
            j.at("const_bytes").get<int>(),
            j.at("max_threads_per_block").get<int>(),
            j.at("max_dynamic_shared_bytes").get<int>(),
            j.at("ptx_version").get<int>(),
            j.at("binary_version").get<int>()};
}

json limitsJson(const launch::LaunchLimits& l) {
    return {{"backend", l.backend},
            {"max_threads_per_block", l.maxThreadsPerBlock},
            {"max_block", l.maxBlock},
            {"max_grid", l.maxGrid},
            {"max_shared_bytes_per_block", l.maxSharedBytesPerBlock}};
}

launch::LaunchLimits limitsFrom(const json& j) {
    return {j.at("backend").get<std::string>(), j.at("max_threads_per_block").get<std::uint32_t>(),
            j.at("max_block").get<std::array<std::uint32_t, 3>>(),
            j.at("max_grid").get<std::array<std::uint32_t, 3>>(),
            j.at("max_shared_bytes_per_block").get<std::uint64_t>()};
}

// One runner per device for the worker's life: creating a context for every keystroke would cost more
// than the compile.
const run::CudaRunner& runnerFor(int ordinal) {
    static std::map<int, std::unique_ptr<run::CudaRunner>> runners;
    auto& runner = runners[ordinal];
    if (!runner) runner = std::make_unique<run::CudaRunner>(ordinal);
    return *runner;
}

} // namespace

json Inspection::toJson() const {
    json diagnosticsJson = json::array();
    for (const auto& d : diagnostics)
        diagnosticsJson.push_back(model::toJson(d));
    return {{"backend", backend},
            {"diagnostics", diagnosticsJson},
            {"attributes", attributes ? attributesJson(*attributes) : json()},
            {"device", device ? cuda::toJson(*device) : json()},
            {"limits", limitsJson(limits)},
            {"execution", execution},
            {"compile_ms", compileMs}};
}

Inspection Inspection::fromJson(const json& j) {
    try {
        Inspection inspection;
        inspection.backend = j.at("backend").get<std::string>();
        for (const auto& d : j.at("diagnostics"))
            inspection.diagnostics.push_back(model::diagnosticFromJson(d));
        if (!j.at("attributes").is_null()) inspection.attributes = attributesFrom(j.at("attributes"));
        if (!j.at("device").is_null()) inspection.device = cuda::devicePropertiesFromJson(j.at("device"));
        inspection.limits = limitsFrom(j.at("limits"));
        inspection.execution = j.at("execution").get<std::string>();
        inspection.compileMs = j.at("compile_ms").get<double>();
        return inspection;
    } catch (const json::exception& e) {
        throw InputError(std::string("inspection: ") + e.what());
    }
}

namespace {

// The setup to compile: a program whose steps cannot be planned yet (a step being typed) still has its
// source compiled; the steps' own problems are the step list's to show (it plans as you type).
launch::RunSetup setupToCompile(const model::Playground& playground) {
    if (!playground.isProgram()) return launch::prepareKernel(playground);
    try {
        return launch::prepareKernel(playground);
    } catch (const launch::SetupError&) {
        return launch::prepareSource(playground);
    }
}

} // namespace

Inspection inspect(const model::Playground& playground, const run::Backend& backend) {
    const auto ordinal = cudaOrdinal(backend);
    const launch::RunSetup setup = setupToCompile(playground);
    Inspection inspection;
    if (ordinal) {
        if (!cuda::Driver::available()) throw cuda::Unavailable(cuda::Driver::unavailableReason());
        const auto& runner = runnerFor(*ordinal);
        const auto inspected = runner.inspect(setup);
        inspection.backend = runner.backendName();
        inspection.diagnostics.insert(inspection.diagnostics.end(), inspected.compiled.diagnostics.begin(),
                                      inspected.compiled.diagnostics.end());
        if (!setup.program.kernels.empty()) inspection.attributes = inspected.attributes;
        inspection.device = runner.properties();
        inspection.limits = runner.limits();
        inspection.compileMs = inspected.compiled.milliseconds;
        return inspection;
    }
    const cpu::CpuRunner runner;
    // Code that runs here but that a GPU would refuse (throw, host-only calls) is shown as such: NVRTC reads
    // it while the host compiler checks it (a third of the wait, each on its own core).
    auto gpuErrors = std::async(std::launch::async, [&setup] { return gpuCompilerErrors(setup); });
    const auto compiled = runner.check(setup); // the run builds the library
    inspection.backend = runner.backendName();
    inspection.diagnostics.insert(inspection.diagnostics.end(), compiled.compiled.diagnostics.begin(),
                                  compiled.compiled.diagnostics.end());
    for (auto& error : gpuErrors.get())
        inspection.diagnostics.push_back(std::move(error));
    inspection.limits = runner.limits();
    inspection.execution = compiled.execution;
    inspection.compileMs = compiled.compiled.milliseconds;
    return inspection;
}

} // namespace kp::run
