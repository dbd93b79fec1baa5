// A playground's program in its file: the "variables", "buffers" and "steps" members (README, "Programs").
// PlaygroundFile reads and writes the rest of the playground and calls these for a playground with steps.
// Reading checks the shape of every field, with its JSON path; what the fields mean together (names that
// exist, sizes that fit) is launch::planProgram's to check, when the source is known.
#pragma once

#include "JsonFields.h"
#include "core/model/Playground.h"

namespace kp::io {

// Reads the program's members of `root` into `playground`, noting problems in `fields`.
void readProgram(JsonFields& fields, const json& root, model::Playground& playground);
// Writes the program's members into `out`, in the order the README gives them.
void writeProgram(const model::Playground& playground, ordered& out);

} // namespace kp::io
