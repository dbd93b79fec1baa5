#include "RunReport.h"

#include "core/io/UnorderedJson.h"
#include "core/model/Playground.h"

namespace kp::run {

namespace {

nlohmann::ordered_json checkJson(const CheckResult& check) {
    nlohmann::ordered_json first = nlohmann::ordered_json::array();
    for (const auto& m : check.first)
        first.push_back({{"index", m.index}, {"actual", m.actual}, {"expected", m.expected}});
    nlohmann::ordered_json out = {{"output", check.output},         {"passed", check.passed},
                                  {"mismatches", check.mismatches}, {"max_abs", check.maxAbs},
                                  {"max_rel", check.maxRel},        {"rtol", check.tolerance.rtol},
                                  {"atol", check.tolerance.atol},   {"first", first}};
    // As the playground declares it: "multiset", "multiset_per_row" or {"min": a, "max": b}.
    if (check.unordered) out["unordered"] = io::unorderedJson(*check.unordered);
    return out;
}

nlohmann::ordered_json transfersJson(const std::vector<launch::TransferTiming>& transfers) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& t : transfers)
        out.push_back({{"argument", t.argument}, {"bytes", t.bytes}, {"ms", t.milliseconds}});
    return out;
}

} // namespace

bool RunReport::passed() const {
    return std::all_of(checks.begin(), checks.end(), [](const CheckResult& c) { return c.passed; });
}

nlohmann::ordered_json RunReport::toJson() const {
    nlohmann::ordered_json out;
    out["backend"] = result->backend;
    if (!result->execution.empty()) out["execution"] = result->execution; // how the CPU backend ran it
    out["kernel_ms"] = result->kernelMs;
    out["h2d_ms"] = result->h2dMs;
    out["d2h_ms"] = result->d2hMs;
    if (reference) out[referenceIsCpuBackend ? "cpu_backend_ms" : "reference_ms"] = reference->milliseconds;
    if (!checks.empty()) {
        nlohmann::ordered_json check;
        check["passed"] = passed();
        // What the outputs were compared with: the playground's reference function, or the same kernel
        // on the CPU backend (a GPU run without a reference).
        check["against"] = referenceIsCpuBackend ? "cpu" : "reference";
        std::size_t mismatches = 0;
        double maxAbs = 0, maxRel = 0;
        nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
        for (const auto& c : checks) {
            mismatches += c.mismatches;
            maxAbs = std::max(maxAbs, c.maxAbs);
            maxRel = std::max(maxRel, c.maxRel);
            outputs.push_back(checkJson(c));
        }
        check["mismatches"] = mismatches;
        check["max_abs"] = maxAbs;
        check["max_rel"] = maxRel;
        check["outputs"] = outputs;
        out["check"] = check;
    }
    if (!uncheckedBecause.empty()) out["unchecked_because"] = uncheckedBecause;
    out["kernel"] = setup->kernelName;
    out["launch"] = {{"grid", setup->launch.grid},
                     {"block", setup->launch.block},
                     {"shared_bytes", setup->launch.sharedBytes}};
    out["compile_ms"] = result->compileMs;
    out["compile_cached"] = result->compileFromCache;
    if (reference) out["reference_compile_ms"] = reference->compileMs;
    if (!setup->program.single) {
        nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
        for (const auto& kernel : setup->program.kernels)
            kernels.push_back(kernel.name);
        out["kernels"] = kernels;
        out["launches"] = setup->program.launchCount();
        nlohmann::ordered_json steps = nlohmann::ordered_json::array();
        for (const auto& step : result->steps)
            steps.push_back({{"path", step.path},
                             {"kind", step.kind},
                             {"label", step.label},
                             {"depth", step.depth},
                             {"calls", step.calls},
                             {"ms", step.ms}});
        out["steps"] = steps;
        if (result->untimedOperations > 0) out["untimed_operations"] = result->untimedOperations;
    }
    out["h2d_by_argument"] = transfersJson(result->h2dByArgument);
    out["d2h_by_argument"] = transfersJson(result->d2hByArgument);
    out["cancelled"] = result->cancelled;
    return out;
}

std::vector<CheckResult> checkAgainst(const launch::RunSetup& setup, const launch::RunResult& result,
                                      const ReferenceResult& reference) {
    std::vector<CheckResult> checks;
    for (const auto& name : setup.checkedOutputs()) {
        const auto* actual = result.output(name);
        const auto* expected = reference.output(name);
        if (!actual || !expected)
            throw InputError("check: the output \"" + name + "\" is missing from the run");
        checks.push_back(checkOutput(setup.check, name, *actual, *expected));
    }
    return checks;
}

} // namespace kp::run
