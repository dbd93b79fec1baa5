// Turns a playground's steps into a launch::Program (Program.h): prepare() calls planProgram for a
// playground with steps and singleLaunch for one without; the step list in the app plans as you type to
// show what is wrong, where, before a run is asked for.
#pragma once

#include "Program.h"
#include "RunSetup.h"
#include "core/model/Playground.h"
#include "core/model/SignatureParser.h"

namespace kp::launch {

// The arguments are the playground's own (their shapes and values; no array is made), `sourceName` names
// the source in messages and `parsed` holds its kernels, `source` its text. Throws SetupError listing every
// problem with its JSON path ("steps[2].launch.args[1]:
// ..."): names that are neither an argument nor a buffer, kernels the source lacks, a wrong number of
// arguments, a dtype that differs from the parameter's, a view or offset outside its buffer, a symbol the
// source does not declare, an expression that does not evaluate, a loop that runs past its limit.
Program planProgram(const model::Playground& playground, const std::string& source,
                    const std::string& sourceName, const model::ParseResult& parsed);

// The program of a single-launch playground: its kernel, launched once with its arguments.
Program singleLaunch(const RunSetup& setup);

// What the backends run: a program's operations as planned, or a single launch as `setup` holds it now
// (its kernel, launch and arguments, which a caller may change after prepare()).
Program programOf(const RunSetup& setup);

} // namespace kp::launch
