// What the readers of Kernelpad's JSON files share: typed getters that, instead of throwing at the first
// bad field, note a problem starting with the field's JSON path ("args[2].array.shape[1]: ...") and go on,
// so that a file's every problem is reported at once; and the writer's number and unknown-member rules.
// PlaygroundFile reads the playground with it, ProgramFile the program's steps.
#pragma once

#include "core/model/DType.h"

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kp::io {

using nlohmann::json;
using ordered = nlohmann::ordered_json;

// "path.key" ("key" at the root), "path[index]".
std::string member(const std::string& path, std::string_view key);
std::string element(const std::string& path, std::size_t index);
// The member `key` of an object, or nullptr.
const json* find(const json& object, std::string_view key);
// The members of `object` not in `known`: kept and written back, so newer files keep what they hold.
json unknownMembers(const json& object, std::initializer_list<std::string_view> known);
// What a person sees of a wrong value: short, and the kind of JSON value for containers.
std::string describe(const json& value);
std::string inQuotes(const std::string& text);
// Letters, digits and _, not starting with a digit.
bool isIdentifier(const std::string& text);
// Every scalar dtype name, and a word on the vector types: what a bad "dtype" is told to be.
std::string dtypeList();

// Whole numbers without ".0" (400, not 400.0); others as doubles.
ordered numberJson(double value);
// An expression's text as the file holds it: a number where it is one ("256"), else the string.
ordered expressionJson(const std::string& text);
// Adds the members of `extra` that `object` does not have.
void appendExtra(ordered& object, const json& extra);

class JsonFields {
public:
    std::vector<std::string> problems;

    void problem(const std::string& path, const std::string& message) {
        problems.push_back(path + ": " + message);
    }

    bool isObject(const json& value, const std::string& path, const std::string& expected);
    std::optional<std::string> text(const json& value, const std::string& path, const std::string& expected);
    std::optional<std::string> identifier(const json& value, const std::string& path,
                                          const std::string& what);
    std::optional<double> number(const json& value, const std::string& path, const std::string& expected);
    std::optional<std::uint64_t> integer(const json& value, const std::string& path, std::uint64_t lowest,
                                         std::uint64_t highest, const std::string& expected);
    // The "dtype" member of `object`.
    std::optional<model::DType> dtype(const json& object, const std::string& path);
    // A number or an expression's text ("divup(n, 256)"), as text.
    std::optional<std::string> expression(const json& value, const std::string& path);
};

} // namespace kp::io
