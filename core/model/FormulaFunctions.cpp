#include "FormulaFunctions.h"

#include <cmath>
#include <muParser.h>

namespace kp::model {

namespace {

double divup(double a, double b) {
    return std::ceil(a / b);
}
double modulo(double a, double b) {
    return std::fmod(a, b);
}
double floorOf(double a) {
    return std::floor(a);
}
double ceilOf(double a) {
    return std::ceil(a);
}

} // namespace

void defineFormulaFunctions(mu::Parser& parser) {
    parser.DefineFun("divup", divup);
    parser.DefineFun("floor", floorOf);
    parser.DefineFun("ceil", ceilOf);
    parser.DefineOprt("%", modulo, mu::prMUL_DIV, mu::oaLEFT, true);
}

} // namespace kp::model
