#include "ProgramExpressions.h"

#include "core/Error.h"
#include "core/Lines.h"
#include "core/model/FormulaFunctions.h"

#include <cmath>
#include <limits>
#include <muParser.h>
#include <regex>
#include <sstream>

namespace kp::launch {

namespace {

// size(x), rows(x), cols(x), depth(x): the functions of a buffer, whose argument is a name.
const std::regex& dimensionCall() {
    static const std::regex call(R"(\b(size|rows|cols|depth)\s*\(\s*([A-Za-z_]\w*)\s*\))");
    return call;
}

std::string dimensionVariable(const std::string& function, const std::string& buffer) {
    return "_kp_" + function + "_" + buffer;
}

std::string number(double value) {
    std::ostringstream out;
    out.precision(15);
    out << value;
    return out.str();
}

} // namespace

ProgramExpressions::ProgramExpressions(const std::vector<std::string>& variables,
                                       const std::vector<std::string>& buffers)
    : buffers_(buffers) {
    for (const auto& name : variables)
        values_[name] = std::numeric_limits<double>::quiet_NaN();
    for (const auto& buffer : buffers)
        for (const char* function : {"size", "rows", "cols", "depth"})
            dimensions_[dimensionVariable(function, buffer)] = std::numeric_limits<double>::quiet_NaN();
}

ProgramExpressions::~ProgramExpressions() = default;

void ProgramExpressions::set(const std::string& name, double value) {
    values_[name] = value; // the name is known: the constructor made every variable
}

std::optional<double> ProgramExpressions::value(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end() || std::isnan(it->second)) return std::nullopt;
    return it->second;
}

void ProgramExpressions::setShape(const std::string& buffer, const model::Shape& shape) {
    const auto at = [&](std::size_t fromEnd) {
        return fromEnd < shape.size() ? static_cast<double>(shape[shape.size() - 1 - fromEnd]) : 1.0;
    };
    // rows = d0, cols = d1 (1 for 1-D), depth = d2 (1 below 3-D), as ScalarBinding reads them.
    dimensions_[dimensionVariable("size", buffer)] = static_cast<double>(model::elementCount(shape));
    dimensions_[dimensionVariable("rows", buffer)] = shape.empty() ? 1.0 : static_cast<double>(shape[0]);
    dimensions_[dimensionVariable("cols", buffer)] = shape.size() >= 2 ? static_cast<double>(shape[1]) : 1.0;
    dimensions_[dimensionVariable("depth", buffer)] = shape.size() >= 3 ? at(0) : 1.0;
}

std::string ProgramExpressions::rewrite(const std::string& text) const {
    std::string out;
    auto begin = std::sregex_iterator(text.begin(), text.end(), dimensionCall());
    std::size_t copied = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
        const auto& match = *it;
        const auto variable = dimensionVariable(match[1].str(), match[2].str());
        if (!dimensions_.contains(variable)) continue; // muparser then names what is unknown
        out += text.substr(copied, static_cast<std::size_t>(match.position(0)) - copied) + variable;
        copied = static_cast<std::size_t>(match.position(0) + match.length(0));
    }
    return out + text.substr(copied);
}

mu::Parser& ProgramExpressions::parserFor(const std::string& text) {
    auto& parser = parsers_[text];
    if (parser) return *parser;
    parser = std::make_unique<mu::Parser>();
    for (auto& [name, value] : values_)
        parser->DefineVar(name, &value);
    for (auto& [name, value] : dimensions_)
        parser->DefineVar(name, &value);
    model::defineFormulaFunctions(*parser);
    parser->DefineConst("true", 1);
    parser->DefineConst("false", 0);
    parser->SetExpr(rewrite(text));
    return *parser;
}

std::string ProgramExpressions::unknownName(const std::string& text, const std::string& token) const {
    std::smatch call;
    if (std::regex_search(text, call, dimensionCall()) &&
        !dimensions_.contains(dimensionVariable(call[1].str(), call[2].str())))
        return call[1].str() + "(" + call[2].str() + "): there is no buffer or array argument called " +
               call[2].str() + " (there are: " + join(buffers_, ", ") + ")";
    for (const auto& buffer : buffers_)
        if (buffer == token)
            return token + " is a buffer, and an expression needs a number: its size is size(" + token +
                   "), its dimensions rows(" + token + "), cols(" + token + ") and depth(" + token + ")";
    std::vector<std::string> names;
    for (const auto& [name, value] : values_)
        names.push_back(name);
    return "\"" + token + "\" is not a variable here" +
           (names.empty() ? std::string(" (the program has none)")
                          : " (the variables are: " + join(names, ", ") + ")") +
           "; functions of buffers are size(x), rows(x), cols(x), depth(x)";
}

std::optional<std::string> ProgramExpressions::problem(const std::string& text) {
    if (text.find_first_not_of(" \t") == std::string::npos)
        return "is empty; expected a number or an expression";
    try {
        mu::Parser& parser = parserFor(text);
        // Parses, but takes a name it does not know for a variable (with no storage): those are errors here.
        for (const auto& [name, pointer] : parser.GetUsedVar())
            if (!values_.contains(name) && !dimensions_.contains(name)) {
                parsers_.erase(text);
                return "\"" + text + "\": " + unknownName(text, name);
            }
        return std::nullopt;
    } catch (const mu::Parser::exception_type& error) {
        parsers_.erase(text);
        if (error.GetCode() == mu::ecUNASSIGNABLE_TOKEN)
            return "\"" + text + "\": " + unknownName(text, error.GetToken());
        return "\"" + text + "\" is not an expression: " + error.GetMsg();
    }
}

double ProgramExpressions::evaluate(const std::string& text, const std::string& where) {
    if (auto why = problem(text)) throw InputError(where + ": " + *why);
    mu::Parser& parser = parserFor(text);
    for (const auto& [name, pointer] : parser.GetUsedVar())
        if (std::isnan(*pointer))
            throw InputError(where + ": \"" + text + "\" uses " + name +
                             ", which has no value yet: give it one in a \"set\" step before this one, or "
                             "in the program's \"variables\"");
    double result = 0;
    try {
        result = parser.Eval();
    } catch (const mu::Parser::exception_type& error) {
        throw InputError(where + ": \"" + text + "\" cannot be evaluated: " + error.GetMsg());
    }
    if (!std::isfinite(result))
        throw InputError(where + ": \"" + text + "\" is " + number(result) +
                         " (a division by zero?); it must be a finite number");
    return result;
}

std::uint64_t ProgramExpressions::whole(const std::string& text, const std::string& where,
                                        std::uint64_t lowest, std::uint64_t highest,
                                        const std::string& what) {
    const double value = evaluate(text, where);
    if (value != std::trunc(value))
        throw InputError(where + ": \"" + text + "\" is " + number(value) + ", not a whole number; " + what +
                         " is one (round it with divup(a, b), floor(x) or ceil(x))");
    if (value < static_cast<double>(lowest) || value > static_cast<double>(highest))
        throw InputError(where + ": \"" + text + "\" is " + number(value) + "; " + what + " is from " +
                         std::to_string(lowest) + " to " + std::to_string(highest));
    return static_cast<std::uint64_t>(value);
}

} // namespace kp::launch
