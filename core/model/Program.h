// A playground's program (the "buffers", "variables" and "steps" members): what a notebook's host code
// did around its launches. Scratch buffers and views over the arguments, then steps over them: launches of
// the source's kernels, copies, fills, swaps, writes of __constant__ and __device__ symbols, variables and
// loops. Plain values as the file holds them, expressions kept as their text; launch::planProgram
// evaluates them and unrolls the steps into what a backend runs.
#pragma once

#include "DType.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace kp::model {

// A buffer of the program beside its arguments. Scratch memory is allocated where the kernels run, set
// to zeros at the start of every run and never copied to or from the host; a view is a part of another
// buffer (an offset and a length, in elements) passed wherever a buffer can be.
struct BufferSpec {
    std::string name;
    // Scratch: its element type and shape, 1 to 3 expressions ("divup(size(in), 512)").
    DType dtype = DType::Float32;
    std::vector<std::string> shape;
    // A view: the buffer or argument it is part of (empty for scratch), where it starts and how many
    // elements it has (empty: up to the end of `of`).
    std::string of;
    std::string offset = "0";
    std::string length;
    nlohmann::json extra = nlohmann::json::object();

    bool isView() const { return !of.empty(); }
    bool operator==(const BufferSpec&) const = default;
};

// A launch of one of the source's kernels. Every number may be an expression over the program's
// variables, its scalar arguments and the sizes of its buffers (size(x), rows(x), cols(x), depth(x)).
struct LaunchStep {
    std::string kernel;                    // "reduce", or an instance written out ("reduce<float, 256>")
    std::vector<std::string> templateArgs; // appended as <...>: types as written, numbers evaluated
    std::vector<std::string> grid;         // 1 to 3 expressions; empty: "auto", covering the first array
    std::vector<std::string> block{"256"}; // 1 to 3 expressions
    std::string sharedBytes = "0";         // dynamic shared memory per block
    // One per kernel parameter: for a pointer, a buffer's name, optionally "+ offset" in elements
    // ("data + 256"); for a scalar, an expression.
    std::vector<std::string> args;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const LaunchStep&) const = default;
};

// Copies `count` elements (empty: all of `from`, or of `to` when that is shorter) between buffers of the
// same element size. `from` and `to` are places: "name" or "name + offset".
struct CopyStep {
    std::string from;
    std::string to;
    std::string count;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const CopyStep&) const = default;
};

// Sets every element of a buffer (or a view, or `count` elements from a place) to `value`.
struct FillStep {
    std::string buffer;
    std::string value = "0";
    std::string count; // empty: to the end of the buffer
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const FillStep&) const = default;
};

// Exchanges two buffers of the same type and size, as host code swaps two device pointers: nothing is
// copied, the names change places (the two buffers of an iterative stencil).
struct SwapStep {
    std::string first;
    std::string second;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const SwapStep&) const = default;
};

// Writes a __constant__ or __device__ variable of the source, as cudaMemcpyToSymbol does: from a buffer
// (`from`, its elements up to the symbol's size) or from numbers (`values`, of the symbol's element type).
struct SymbolStep {
    std::string symbol;
    std::string from;
    std::vector<std::string> values;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const SymbolStep&) const = default;
};

// Gives variables new values, all at once: every value is worked out before any is assigned, so the order
// of the names does not matter ({"m": "divup(m, 512)"}; {"a": "b", "b": "a"} exchanges them).
struct SetStep {
    std::vector<std::pair<std::string, std::string>> variables;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const SetStep&) const = default;
};

struct Step;

// Runs its steps again and again: `times` times, or while `condition` holds, with an optional counter
// that starts at `from` and takes `next` after each pass (counter + 1 when empty). A loop stops with an
// error after `limit` passes (0: the default, launch::kDefaultLoopLimit), so a condition that never turns
// false is a message, not a hang.
struct RepeatStep {
    std::string times;
    std::string condition;
    std::string counter;
    std::string from = "0";
    std::string next;
    std::uint64_t limit = 0;
    std::vector<Step> steps;
    nlohmann::json extra = nlohmann::json::object(); // unknown members of the "repeat" object

    bool operator==(const RepeatStep&) const;
};

struct Step {
    std::variant<LaunchStep, CopyStep, FillStep, SwapStep, SymbolStep, SetStep, RepeatStep> action;
    std::string title; // what the step is for, in the user's words; shown in the step list and the timeline
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const Step&) const = default;
};

inline bool RepeatStep::operator==(const RepeatStep& other) const {
    return times == other.times && condition == other.condition && counter == other.counter &&
           from == other.from && next == other.next && limit == other.limit && steps == other.steps &&
           extra == other.extra;
}

// The pieces of a comma list at the top level ("float, f(a, b), 256" -> "float", "f(a, b)", "256": a comma
// inside brackets or a template's angle brackets belongs to its piece), each trimmed; empty pieces stay.
std::vector<std::string> splitTopLevel(std::string_view list);

// "launch", "copy", "fill", "swap", "symbol", "set", "repeat": the step's key in the file.
std::string_view kindName(const Step& step);

// What the step does, in one line: "reduce<<<divup(m, 512), 256>>>(in, partial, m)", "swap a, b",
// "repeat while m > 1".
std::string describe(const Step& step);

} // namespace kp::model
