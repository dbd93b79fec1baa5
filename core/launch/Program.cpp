#include "Program.h"

#include "RunSetup.h"

#include <algorithm>

namespace kp::launch {

std::uint64_t Program::launchCount() const {
    return static_cast<std::uint64_t>(
        std::count_if(operations.begin(), operations.end(),
                      [](const Operation& o) { return std::holds_alternative<LaunchOperation>(o.what); }));
}

std::vector<std::pair<std::uint32_t, LaunchGeometry>> Program::distinctLaunches() const {
    std::vector<std::pair<std::uint32_t, LaunchGeometry>> distinct;
    for (const auto& operation : operations) {
        const auto* launch = std::get_if<LaunchOperation>(&operation.what);
        if (!launch) continue;
        const std::pair<std::uint32_t, LaunchGeometry> key{launch->kernel, launch->geometry};
        if (std::find(distinct.begin(), distinct.end(), key) == distinct.end()) distinct.push_back(key);
    }
    return distinct;
}

bool Program::argumentsMoved() const {
    for (std::size_t i = 0; i < argumentBuffer.size(); ++i)
        if (argumentBuffer[i] >= 0 &&
            finalPlace[i] != BufferPlace{static_cast<std::uint32_t>(argumentBuffer[i]), 0})
            return true;
    return false;
}

std::string launchPath(const Program& program, std::uint32_t kernel, const LaunchGeometry& geometry) {
    for (const auto& operation : program.operations) {
        const auto* launch = std::get_if<LaunchOperation>(&operation.what);
        if (launch && launch->kernel == kernel && launch->geometry == geometry)
            return program.single ? std::string("launch") : program.steps[operation.step].path + ".launch";
    }
    return "launch";
}

std::vector<std::string> checkLaunches(const Program& program, const LaunchLimits& limits,
                                       const std::function<KernelLimits(std::uint32_t)>& kernel) {
    std::vector<std::string> problems;
    for (const auto& [k, geometry] : program.distinctLaunches()) {
        const KernelLimits own = kernel ? kernel(k) : KernelLimits{};
        auto found =
            validate(geometry, limits, own.staticSharedBytes, own.maxThreadsPerBlock, own.registersPerThread);
        const std::string path = launchPath(program, k, geometry);
        for (auto& p : found) {
            if (p.starts_with("launch")) p = path + p.substr(6);
            if (std::find(problems.begin(), problems.end(), p) == problems.end())
                problems.push_back(std::move(p));
        }
    }
    return problems;
}

void checkSymbolWrites(const Program& program,
                       const std::function<std::uint64_t(std::uint32_t symbol)>& bytes) {
    for (const auto& operation : program.operations)
        if (const auto* write = std::get_if<SymbolOperation>(&operation.what);
            write && write->bytes > bytes(write->symbol))
            throw SetupError({program.steps[operation.step].path +
                              ".symbol: " + std::to_string(write->bytes) + " bytes do not fit " +
                              program.symbols[write->symbol].name + ", which holds " +
                              std::to_string(bytes(write->symbol))});
}

std::vector<StepTiming> stepTimings(const Program& program) {
    std::vector<StepTiming> timings;
    for (const auto& step : program.steps)
        timings.push_back({step.path, step.kind, step.label, step.depth, step.calls, {}});
    return timings;
}

void chargeStep(const Program& program, std::uint32_t step, double ms, std::vector<double>& perStep) {
    for (int at = static_cast<int>(step); at >= 0; at = program.steps[static_cast<std::size_t>(at)].parent)
        perStep[static_cast<std::size_t>(at)] += ms;
}

std::string whereIs(const Program& program, const Operation& operation) {
    const ProgramStep& step = program.steps.at(operation.step);
    if (program.single) return step.label;
    std::string text = step.path + " (" + step.label;
    if (step.depth > 0) text += ", pass " + std::to_string(operation.pass + 1) + " of its loop";
    return text + ")";
}

} // namespace kp::launch
