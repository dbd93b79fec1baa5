// Editing a program's steps as a tree: where a step is (a path of indices), and the edits the step list
// in the app offers: add, duplicate, delete, move up and down (in and out of loops), a new step of each
// kind with sensible values, and a single launch made into the first step of a program. Plain values, so
// that tests reach every edit without a widget.
#pragma once

#include "Playground.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kp::model {

// {2, 0} is steps[2].steps[0]: the first step inside the third step's loop.
using StepPath = std::vector<std::size_t>;

// "steps[2].steps[0]", as messages and the run's timings name the step.
std::string jsonPath(const StepPath& path);
// The path whose JSON path `text` starts with ("steps[2].steps[0].launch.args[1]: ..."), if any.
std::optional<StepPath> stepPathIn(const std::string& text);

// The step at `path`, or nullptr when there is none.
Step* stepAt(std::vector<Step>& steps, const StepPath& path);
const Step* stepAt(const std::vector<Step>& steps, const StepPath& path);

// Adds `step` after the one at `after`, or at the end of a loop's steps when `after` is a loop, or at the
// end when `after` is empty. Returns where it went.
StepPath insertStep(std::vector<Step>& steps, const StepPath& after, Step step);
// A copy of the step at `path` right after it; returns the copy's path.
StepPath duplicateStep(std::vector<Step>& steps, const StepPath& path);
// Removes the step at `path`; returns the path of the step to select next (empty when none is left).
StepPath removeStep(std::vector<Step>& steps, const StepPath& path);
// Moves the step one place up (`up`) or down. A step at a loop's edge leaves the loop; a step next to a
// loop enters it (at its end going up, at its start going down). Returns its new path (the same when it
// cannot move).
StepPath moveStep(std::vector<Step>& steps, const StepPath& path, bool up);

enum class StepKind { Launch, Copy, Fill, Swap, Symbol, Set, Repeat };
// A new step of `kind` that fits the playground: a launch of its first kernel with its arrays and scalars
// by name, a copy between its first two arrays, a loop of 10 passes, ...
Step newStep(StepKind kind, const Playground& playground, const std::vector<KernelSignature>& kernels);

// The single launch of `playground` as a program of one launch step (its kernel, grid, block, shared
// memory and every argument by name): what "Make it a program" does. The playground keeps its arguments;
// an array without a direction gets the one `kernel`'s parameter gave it.
Playground asProgram(const Playground& playground, const KernelSignature& kernel);

} // namespace kp::model
