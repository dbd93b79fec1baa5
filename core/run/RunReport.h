// The account of one run that `kernelpad-cli run` writes as timings.json and prints with --json
// (project-format.md): backend, every timing sample, the reference's time and the check. The app's
// run history keeps the same object.
#pragma once

#include "Check.h"
#include "Reference.h"
#include "core/launch/RunResult.h"
#include "core/launch/RunSetup.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace kp::run {

struct RunReport {
    const launch::RunSetup* setup = nullptr;
    const launch::RunResult* result = nullptr;
    const ReferenceResult* reference = nullptr; // none: no reference_ms
    bool referenceIsCpuBackend = false;         // the CPU backend stood in for a missing reference
    std::vector<CheckResult> checks;            // empty: no check was made
    std::string uncheckedBecause;               // why no check was made, where one was meant to be

    bool passed() const; // every check passed (true when there was none)
    nlohmann::ordered_json toJson() const;
};

// Compares every checked output of `result` with the reference's, with the playground's tolerances.
std::vector<CheckResult> checkAgainst(const launch::RunSetup& setup, const launch::RunResult& result,
                                      const ReferenceResult& reference);

} // namespace kp::run
