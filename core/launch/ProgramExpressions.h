// The expressions of a program (sizes, grids, counts, loop conditions): muparser's arithmetic, comparisons
// and ?: over the program's variables, plus the sizes of its buffers as size(x), rows(x), cols(x) and
// depth(x), and the integer helpers host code uses: divup(a, b) (CUDA samples' iDivUp), ceil, floor and
// a % b. planProgram evaluates them as it unrolls the steps; the step list checks them as you type.
#pragma once

#include "core/model/Array.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mu {
class Parser;
}

namespace kp::launch {

class ProgramExpressions {
public:
    // `variables` are every name an expression may use (scalar arguments, the program's variables and
    // loop counters), all without a value until set(); `buffers` every buffer an expression may measure.
    ProgramExpressions(const std::vector<std::string>& variables, const std::vector<std::string>& buffers);
    ~ProgramExpressions();
    ProgramExpressions(const ProgramExpressions&) = delete;
    ProgramExpressions& operator=(const ProgramExpressions&) = delete;

    bool isVariable(const std::string& name) const { return values_.contains(name); }
    void set(const std::string& name, double value);
    std::optional<double> value(const std::string& name) const;
    void setShape(const std::string& buffer, const model::Shape& shape);

    // The value of `text`; an InputError starting with `where` when it does not parse, names something
    // unknown, uses a variable that has no value yet or is not a finite number.
    double evaluate(const std::string& text, const std::string& where);
    // The same, which must be a whole number in [lowest, highest] ("a positive integer" says `what`).
    std::uint64_t whole(const std::string& text, const std::string& where, std::uint64_t lowest,
                        std::uint64_t highest, const std::string& what);
    // Parses `text` without evaluating it: the problem, or nullopt.
    std::optional<std::string> problem(const std::string& text);

private:
    mu::Parser& parserFor(const std::string& text);
    std::string rewrite(const std::string& text) const; // size(x) -> its variable
    std::string unknownName(const std::string& text, const std::string& token) const;

    std::map<std::string, double> values_;     // node-stable: the parsers point into it
    std::map<std::string, double> dimensions_; // "size(x)" and the like, by their variable's name
    std::vector<std::string> buffers_;
    std::unordered_map<std::string, std::unique_ptr<mu::Parser>> parsers_;
};

} // namespace kp::launch
