// What every formula a user writes may use beyond muparser's own functions, the same in an array's
// formula fill, a program's expressions and a sweep's operation count: `a % b` (the remainder, as
// fmod), floor(x), ceil(x) and divup(a, b) (a / b rounded up, the grid of a launch).
#pragma once

namespace mu {
class Parser;
}

namespace kp::model {

void defineFormulaFunctions(mu::Parser& parser);

} // namespace kp::model
