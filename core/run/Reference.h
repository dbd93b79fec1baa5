// A playground's CPU reference (project-format.md): a C++ function with the kernel's parameter list,
// compiled with the host compiler and called once on copies of the same inputs. Its outputs are what
// Check compares a backend's outputs with.
#pragma once

#include "core/cpu/HostCompiler.h"
#include "core/launch/RunResult.h"
#include "core/launch/RunSetup.h"

#include <string>
#include <utility>
#include <vector>

namespace kp::run {

struct ReferenceResult {
    launch::NamedArrays outputs;   // out and inout arrays, parameter order
    double milliseconds = 0;       // the call alone (the median of the calls)
    std::vector<double> samplesMs; // every timed call
    double compileMs = 0;
    bool compileFromCache = false;

    const model::Array* output(std::string_view name) const { return launch::find(outputs, name); }
};

// Compiles the setup's reference (or finds it in the compiler's cache) without running it: what
// runReference() does first. Throws as runReference() does for a reference that is missing or does not
// compile.
cpu::HostCompileResult compileReference(const launch::RunSetup& setup, const cpu::HostCompiler& compiler);

// Throws launch::SetupError when the setup has no reference or names a function that is not an identifier,
// launch::CompileError (diagnostics in the reference's own file and lines) when it does not compile or its
// parameter count differs from the kernel's, InputError when the file cannot be read.
// `repeat` timed calls after `warmup` untimed ones, each on the same inputs (sweeps time the reference as
// they time a backend); the outputs are the last call's. In arrays are fresh copies in every call, or, with
// `inputsInPlace`, the arrays themselves (cpu::ChildInputs: a reference that writes one runs again on
// copies).
ReferenceResult runReference(const launch::RunSetup& setup, const cpu::HostCompiler& compiler, int repeat = 1,
                             int warmup = 0, bool inputsInPlace = false);

} // namespace kp::run
