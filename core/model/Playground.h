// A playground as plain values: the kernel, its arguments, launch, compile options, reference and check,
// exactly what a *.kpad.json file holds (docs/project-format.md). io/PlaygroundFile reads and writes it;
// the GUI edits it, the worker and the CLI run it. Every struct keeps the JSON members it does not know
// in `extra`, so that a file written by a newer Kernelpad keeps them when this one saves it.
#pragma once

#include "DType.h"
#include "KernelSignature.h"
#include "Program.h"
#include "core/model/Array.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kp::model {

// PyCUDA's drv.In / drv.Out / drv.InOut: what is copied to the device and what comes back.
enum class Direction { In, Out, InOut };

std::string_view name(Direction direction); // "in", "out", "inout"
std::optional<Direction> directionFromName(std::string_view name);
// For an argument whose file gives no direction: a pointer to const is only read (In); any other pointer
// may be read and written, so it is both copied in and copied back (InOut).
Direction inferDirection(bool pointeeConst);

// How an in/inout array is filled before a run. An argument without one is filled with zeros.
struct InitSpec {
    enum class Kind { Zeros, Ones, Constant, Range, Uniform, Normal, Formula, File };
    Kind kind = Kind::Zeros;
    double constant = 0;         // Constant
    double start = 0, step = 1;  // Range: start + index * step
    double low = 0, high = 1;    // Uniform, over [low, high)
    double mean = 0, stddev = 1; // Normal
    std::uint64_t seed = 0;      // Uniform, Normal
    std::string formula;         // Formula: muparser text over i, j, k, c, n, pi, e
    std::string file;            // File: .npy or .csv, relative to the playground's folder
    nlohmann::json extra = nlohmann::json::object();      // unknown members of the init object
    nlohmann::json rangeExtra = nlohmann::json::object(); // unknown members of {"range": {...}}

    bool operator==(const InitSpec&) const = default;
};

struct ArraySpec {
    DType dtype = DType::Float32;
    Shape shape{1};
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const ArraySpec&) const = default;
};

struct ScalarSpec {
    DType dtype = DType::Int32;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const ScalarSpec&) const = default;
};

// A scalar argument's value: a number, or a dimension of an array argument ("size(a)"), so that changing
// a shape keeps the kernel's bounds consistent. Integers beyond 2^53 are not exact (stored as double).
struct ScalarValue {
    enum class Kind { Number, Size, Rows, Cols, Depth };
    Kind kind = Kind::Number;
    double number = 0; // Number
    std::string array; // Size, Rows, Cols, Depth: the array argument's name

    bool operator==(const ScalarValue&) const = default;
};

std::string toString(const ScalarValue& value); // "400", "2.5", "size(a)"
// Parses "size(a)", "rows(a)", "cols(a)", "depth(a)" (spaces allowed around the name); nullopt otherwise.
std::optional<ScalarValue> scalarValueFromText(std::string_view text);

struct ArgumentSpec {
    std::string name; // a C identifier: outputs are written as NAME.npy
    std::variant<ArraySpec, ScalarSpec> type;
    std::optional<Direction> direction; // arrays only; absent: inferDirection() from the kernel's signature
    std::optional<InitSpec> init;       // in/inout arrays only; absent: zeros
    std::optional<ScalarValue> value;   // scalars only, where it is required
    nlohmann::json extra = nlohmann::json::object();

    bool isArray() const { return std::holds_alternative<ArraySpec>(type); }
    const ArraySpec& array() const { return std::get<ArraySpec>(type); }
    const ScalarSpec& scalar() const { return std::get<ScalarSpec>(type); }

    bool operator==(const ArgumentSpec&) const = default;
};

struct LaunchSpec {
    bool autoGrid = true; // enough blocks to cover the first array argument's shape
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{256, 1, 1};
    std::uint32_t sharedBytes = 0;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const LaunchSpec&) const = default;
};

struct CompileSpec {
    std::vector<std::string> options; // NVRTC options, as given
    // NAME -> value, passed as -DNAME=value; numbers in the file are kept as their JSON text ("400").
    std::vector<std::pair<std::string, std::string>> defines;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const CompileSpec&) const = default;
};

// The options as a command line would show them ("-DN=400 --use_fast_math"), empty when there are
// none: what the app shows before a playground's first run, since a shared file chooses them.
std::string describe(const CompileSpec& compile);

struct ReferenceSpec {
    std::string source;   // C++ file, relative to the playground's folder
    std::string function; // called once on the host with the kernel's parameter list
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const ReferenceSpec&) const = default;
};

// How an output is compared when the kernel does not define the order of its elements, as when threads
// race through atomicAdd for the next free slot: honest nondeterminism, not a wrong result.
struct UnorderedSpec {
    enum class Kind {
        Multiset,       // "multiset": the same values in any order
        MultisetPerRow, // "multiset_per_row": each row (the last dimension) the same values in any order
        Range,          // {"min": a, "max": b}: every value within [a, b], whatever the reference holds
    };
    Kind kind = Kind::Multiset;
    double min = 0;
    double max = 0;
    bool operator==(const UnorderedSpec&) const = default;
};

struct CheckSpec {
    std::vector<std::string> outputs;               // out/inout array arguments; empty: all of them
    std::map<std::string, UnorderedSpec> unordered; // by output name; the others compare element by element
    // Absent: each output's dtype decides (run::defaultTolerance, torch.testing's choices).
    std::optional<double> rtol;
    std::optional<double> atol;
    nlohmann::json extra = nlohmann::json::object();

    bool operator==(const CheckSpec&) const = default;
};

// A playground is one kernel launched once, or a program (README, "Programs"): named buffers and steps
// over them, where `steps` is not empty. A program names its kernels in its launch steps, so `kernel` and
// `launch` are left as they are.
struct Playground {
    std::string title;
    std::string lesson;                // optional path to a text shown beside the editor
    std::optional<std::string> source; // path of the kernel's source; exactly one of source and code
    std::optional<std::string> code;   // inline kernel source
    std::string kernel;                // the __global__ function to launch
    CompileSpec compile;
    LaunchSpec launch;
    std::vector<ArgumentSpec> args; // in the kernel's parameter order (a program's: in the reference's)
    // A program's variables (each a number or an expression over the arguments' sizes and values), its
    // scratch buffers and views, and its steps.
    std::vector<std::pair<std::string, std::string>> variables;
    std::vector<BufferSpec> buffers;
    std::vector<Step> steps;
    std::optional<ReferenceSpec> reference;
    std::optional<CheckSpec> check;
    nlohmann::json extra = nlohmann::json::object();
    // The folder of the JSON file: every relative path in the playground is resolved against it.
    std::filesystem::path folder;

    bool isProgram() const { return !steps.empty(); }
    const ArgumentSpec* find(std::string_view argumentName) const;
    // `relative` inside `folder` (see resolveInside); throws InputError for paths that leave it.
    std::filesystem::path resolve(const std::string& relative) const;

    bool operator==(const Playground&) const = default;
};

// A program's arguments as a parameter list ("float* a, float* total, int n"): what its reference takes and
// what the argument panel edits, as a kernel's signature would be. No pointer is to const: each array's
// direction is its own, given in the file, not read from a declaration.
KernelSignature programSignature(const Playground& playground);

// Why a path may not be used, or nullopt when `relative` stays inside `folder`: absolute paths, paths
// that climb out with "..", and paths that leave through a symbolic link are refused, so that a shared
// playground never reads or writes outside its own folder tree.
std::optional<std::string> pathProblem(const std::filesystem::path& folder, const std::string& relative);
// folder / relative, normalised; throws InputError (naming `where`, e.g. "args[1].init.file") otherwise.
std::filesystem::path resolveInside(const std::filesystem::path& folder, const std::string& relative,
                                    const std::string& where = {});

} // namespace kp::model
