#include "PlaygroundFile.h"

#include "JsonFields.h"
#include "ProgramFile.h"
#include "UnorderedJson.h"
#include "core/io/FileBytes.h"
#include "core/model/ArrayGenerator.h"
#include "core/model/ScalarBinding.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>

namespace kp::io {

namespace fs = std::filesystem;
using model::ArgumentSpec;
using model::DType;
using model::InitSpec;
using model::Playground;

namespace {

constexpr std::string_view formatName = "kernelpad/1";
constexpr std::uintmax_t largestFile = 64u << 20;
// A shared file must not make the app reserve the machine's memory: no array above 64 GiB.
constexpr std::size_t largestArrayBytes = std::size_t{1} << 36;

std::string joinLines(const std::string& file, const std::vector<std::string>& problems) {
    std::string text;
    for (const std::string& problem : problems) {
        if (!text.empty()) text += '\n';
        // "FILE:3:7: ..." for JSON syntax errors, as compilers write them; "FILE: args[1]...: ..." otherwise.
        const bool lineColumn = !problem.empty() && std::isdigit(static_cast<unsigned char>(problem.front()));
        text += file + (lineColumn ? ":" : ": ") + problem;
    }
    return text;
}

// Turns a JSON document into a Playground, collecting every problem instead of stopping at the first.
class Reader : public JsonFields {
public:
    explicit Reader(fs::path folder) : folder_(std::move(folder)) {}

    Playground read(const json& root);

private:
    std::optional<std::string> path(const json& value, const std::string& where);

    void readSource(const json& root, Playground& playground);
    model::CompileSpec readCompile(const json& object);
    model::LaunchSpec readLaunch(const json& object);
    std::optional<std::array<std::uint32_t, 3>> readDimensions(const json& value, const std::string& path);
    ArgumentSpec readArgument(const json& object, const std::string& path, bool& typed);
    std::optional<model::ArraySpec> readArray(const json& object, const std::string& path);
    std::optional<InitSpec> readInit(const json& value, const std::string& path);
    void readRandom(const json& object, const std::string& path, InitSpec& init);
    std::optional<model::ScalarValue> readValue(const json& value, DType dtype, const std::string& path);
    model::ReferenceSpec readReference(const json& object);
    model::CheckSpec readCheck(const json& object);
    std::optional<model::UnorderedSpec> readUnordered(const json& how, const std::string& where);

    void checkReferences(const Playground& playground, const std::vector<bool>& typed);
    void checkOutputs(const Playground& playground, const std::vector<bool>& typed);

    fs::path folder_;
};

std::optional<std::string> Reader::path(const json& value, const std::string& where) {
    auto relative = text(value, where, "a path relative to the playground's folder");
    if (!relative) return std::nullopt;
    if (auto why = model::pathProblem(folder_, *relative)) {
        problem(where, *why);
        return std::nullopt;
    }
    return relative;
}

Playground Reader::read(const json& root) {
    Playground playground;
    playground.folder = folder_;
    playground.extra =
        unknownMembers(root, {"format", "title", "lesson", "source", "code", "kernel", "compile", "launch",
                              "args", "variables", "buffers", "steps", "reference", "check"});
    const bool program = root.contains("steps");
    if (const json* title = find(root, "title"))
        playground.title = text(*title, "title", "a string").value_or("");
    if (const json* lesson = find(root, "lesson")) playground.lesson = path(*lesson, "lesson").value_or("");
    readSource(root, playground);
    if (program) {
        // A program's launch steps name their kernels and launches.
        for (const char* key : {"kernel", "launch"})
            if (root.contains(key))
                problem(key,
                        "a playground with steps launches its kernels in its \"launch\" steps; remove \"" +
                            std::string(key) + "\"");
    } else if (const json* kernel = find(root, "kernel")) {
        playground.kernel =
            text(*kernel, "kernel", "the name of the __global__ function to launch").value_or("");
        if (kernel->is_string() && playground.kernel.empty())
            problem("kernel", "is empty; expected the name of the __global__ function to launch");
    } else {
        problem("kernel", "missing; expected the name of the __global__ function to launch");
    }
    if (!program)
        for (const char* key : {"variables", "buffers"})
            if (root.contains(key))
                problem(key, "belongs to a program: add \"steps\" that use it, or remove it");
    if (const json* compile = find(root, "compile"); compile && isObject(*compile, "compile", "an object"))
        playground.compile = readCompile(*compile);
    if (const json* launch = find(root, "launch");
        !program && launch && isObject(*launch, "launch", "an object"))
        playground.launch = readLaunch(*launch);

    std::vector<bool> typed;
    if (const json* args = find(root, "args")) {
        if (!args->is_array()) problem("args", "expected an array of arguments, found " + describe(*args));
        for (std::size_t i = 0; args->is_array() && i < args->size(); ++i) {
            bool argumentTyped = false;
            playground.args.push_back(readArgument((*args)[i], element("args", i), argumentTyped));
            typed.push_back(argumentTyped);
        }
    }
    if (const json* reference = find(root, "reference");
        reference && isObject(*reference, "reference", "an object {\"source\": ..., \"function\": ...}"))
        playground.reference = readReference(*reference);
    if (const json* check = find(root, "check"); check && isObject(*check, "check", "an object"))
        playground.check = readCheck(*check);

    readProgram(*this, root, playground);
    checkReferences(playground, typed);
    checkOutputs(playground, typed);
    return playground;
}

void Reader::readSource(const json& root, Playground& playground) {
    const json* source = find(root, "source");
    const json* code = find(root, "code");
    if (source && code)
        problem("code", "the playground gives both \"source\" and \"code\"; keep one of them");
    if (!source && !code)
        problem(
            "source",
            "missing; give the kernel's file (\"source\": \"kernel.cu\") or its text (\"code\": \"...\")");
    if (source) playground.source = path(*source, "source");
    if (code) playground.code = text(*code, "code", "the kernel's source text");
}

model::CompileSpec Reader::readCompile(const json& object) {
    model::CompileSpec compile;
    compile.extra = unknownMembers(object, {"options", "defines"});
    if (const json* options = find(object, "options")) {
        if (!options->is_array())
            problem("compile.options", "expected an array of strings, found " + describe(*options));
        for (std::size_t i = 0; options->is_array() && i < options->size(); ++i)
            if (auto option = text((*options)[i], element("compile.options", i), "an NVRTC option string"))
                compile.options.push_back(*option);
    }
    if (const json* defines = find(object, "defines")) {
        if (!isObject(*defines, "compile.defines", "an object of NAME: value")) return compile;
        for (const auto& [name, value] : defines->items()) {
            const std::string where = member("compile.defines", name);
            if (!isIdentifier(name))
                problem(where, "a macro name is letters, digits and _, not starting with a digit");
            if (value.is_string())
                compile.defines.emplace_back(name, value.get<std::string>());
            else if (value.is_number())
                compile.defines.emplace_back(name, value.dump());
            else
                problem(where, "expected a string or a number, found " + describe(value));
        }
    }
    return compile;
}

std::optional<std::array<std::uint32_t, 3>> Reader::readDimensions(const json& value,
                                                                   const std::string& path) {
    if (!value.is_array() || value.empty() || value.size() > 3) {
        problem(path, "expected [x, y, z]: 1 to 3 positive integers, found " + describe(value) +
                          (value.is_array() ? " of " + std::to_string(value.size()) : ""));
        return std::nullopt;
    }
    std::array<std::uint32_t, 3> dimensions{1, 1, 1};
    bool good = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
        auto d = integer(value[i], element(path, i), 1, std::numeric_limits<std::uint32_t>::max(),
                         "a positive integer");
        if (d) dimensions[i] = static_cast<std::uint32_t>(*d);
        good = good && d;
    }
    if (!good) return std::nullopt;
    return dimensions;
}

model::LaunchSpec Reader::readLaunch(const json& object) {
    model::LaunchSpec launch;
    launch.extra = unknownMembers(object, {"grid", "block", "shared_bytes"});
    if (const json* grid = find(object, "grid")) {
        if (grid->is_string()) {
            if (grid->get<std::string>() != "auto")
                problem("launch.grid", "expected \"auto\" or [x, y, z] (1 to 3 positive integers), found " +
                                           describe(*grid));
        } else if (auto dimensions = readDimensions(*grid, "launch.grid")) {
            launch.autoGrid = false;
            launch.grid = *dimensions;
        }
    }
    if (const json* block = find(object, "block"))
        launch.block = readDimensions(*block, "launch.block").value_or(launch.block);
    if (const json* shared = find(object, "shared_bytes"))
        launch.sharedBytes = static_cast<std::uint32_t>(integer(*shared, "launch.shared_bytes", 0,
                                                                std::numeric_limits<std::uint32_t>::max(),
                                                                "a number of bytes (an integer, 0 or more)")
                                                            .value_or(0));
    return launch;
}

std::optional<model::ArraySpec> Reader::readArray(const json& object, const std::string& path) {
    if (!isObject(object, path, "an object {\"dtype\": ..., \"shape\": [...]}")) return std::nullopt;
    model::ArraySpec spec;
    spec.extra = unknownMembers(object, {"dtype", "shape"});
    const auto type = dtype(object, path);
    const json* shape = find(object, "shape");
    const std::string where = member(path, "shape");
    if (!shape) {
        problem(where, "missing; expected 1 to 3 positive integers, e.g. [400] or [64, 64]");
        return std::nullopt;
    }
    if (!shape->is_array() || shape->empty() || shape->size() > 3) {
        problem(where, "expected 1 to 3 positive integers (numpy's shape, row-major), found " +
                           describe(*shape) +
                           (shape->is_array() ? " of " + std::to_string(shape->size()) : ""));
        return std::nullopt;
    }
    spec.shape.clear();
    bool good = true;
    for (std::size_t i = 0; i < shape->size(); ++i) {
        auto d = integer((*shape)[i], element(where, i), 1, largestArrayBytes,
                         "a positive integer of at most 2^36");
        good = good && d;
        spec.shape.push_back(static_cast<std::size_t>(d.value_or(1)));
    }
    if (!good || !type) return std::nullopt;
    spec.dtype = *type;
    std::size_t bytes = model::byteSize(spec.dtype);
    for (std::size_t d : spec.shape) {
        if (bytes > largestArrayBytes / d) {
            problem(where, model::toString(spec.shape) + " of " + std::string(model::name(spec.dtype)) +
                               " is more than 64 GiB; an array may hold at most that");
            return std::nullopt;
        }
        bytes *= d;
    }
    return spec;
}

void Reader::readRandom(const json& object, const std::string& path, InitSpec& init) {
    const auto kind = text(*find(object, "random"), member(path, "random"), "\"uniform\" or \"normal\"");
    if (!kind) return;
    const bool uniform = *kind == "uniform";
    if (!uniform && *kind != "normal") {
        problem(member(path, "random"), "expected \"uniform\" or \"normal\", found " + inQuotes(*kind));
        return;
    }
    init.kind = uniform ? InitSpec::Kind::Uniform : InitSpec::Kind::Normal;
    const std::initializer_list<std::string_view> mine = {"low", "high"};
    const std::initializer_list<std::string_view> other = {"mean", "stddev"};
    for (std::string_view key : uniform ? other : mine)
        if (find(object, key))
            problem(member(path, key),
                    std::string(uniform ? "a uniform" : "a normal") + " distribution takes " +
                        (uniform ? "low and high" : "mean and stddev") + ", not " + std::string(key));
    auto read = [&](std::string_view key, double& target) {
        if (const json* value = find(object, key))
            target = number(*value, member(path, key), "a number").value_or(target);
    };
    read("low", init.low);
    read("high", init.high);
    read("mean", init.mean);
    read("stddev", init.stddev);
    if (uniform && init.low > init.high)
        problem(member(path, "low"),
                "low (" + describe(init.low) + ") is above high (" + describe(init.high) + ")");
    if (!uniform && init.stddev < 0)
        problem(member(path, "stddev"), "expected a number 0 or more, found " + describe(init.stddev));
    if (const json* seed = find(object, "seed"))
        init.seed = integer(*seed, member(path, "seed"), 0, std::numeric_limits<std::uint64_t>::max(),
                            "an integer seed, 0 or more")
                        .value_or(0);
}

std::optional<InitSpec> Reader::readInit(const json& value, const std::string& path) {
    InitSpec init;
    if (value.is_string()) {
        const std::string kind = value.get<std::string>();
        if (kind == "zeros" || kind == "ones") {
            init.kind = kind == "zeros" ? InitSpec::Kind::Zeros : InitSpec::Kind::Ones;
            return init;
        }
    }
    if (!value.is_object()) {
        problem(path, "expected \"zeros\", \"ones\" or an object such as {\"constant\": 1}, found " +
                          describe(value));
        return std::nullopt;
    }
    std::vector<std::string> kinds;
    for (std::string_view key : {"constant", "range", "random", "formula", "file"})
        if (find(value, key)) kinds.emplace_back(key);
    if (kinds.size() != 1) {
        problem(path, kinds.empty()
                          ? "expected one of constant, range, random, formula, file"
                          : "gives both " + kinds[0] + " and " + kinds[1] + "; an init has one kind");
        return std::nullopt;
    }
    const std::string& kind = kinds.front();
    const std::string where = member(path, kind);
    const json& body = *find(value, kind);
    const std::size_t before = problems.size();
    if (kind == "constant") {
        init.kind = InitSpec::Kind::Constant;
        init.constant = number(body, where, "a number").value_or(0);
        init.extra = unknownMembers(value, {"constant"});
    } else if (kind == "range") {
        init.kind = InitSpec::Kind::Range;
        init.extra = unknownMembers(value, {"range"});
        if (isObject(body, where, "an object {\"start\": s, \"step\": d}")) {
            init.rangeExtra = unknownMembers(body, {"start", "step"});
            if (const json* start = find(body, "start"))
                init.start = number(*start, member(where, "start"), "a number").value_or(0);
            if (const json* step = find(body, "step"))
                init.step = number(*step, member(where, "step"), "a number").value_or(1);
        }
    } else if (kind == "random") {
        init.extra = unknownMembers(value, {"random", "low", "high", "mean", "stddev", "seed"});
        readRandom(value, path, init);
    } else if (kind == "formula") {
        init.kind = InitSpec::Kind::Formula;
        init.extra = unknownMembers(value, {"formula"});
        init.formula = text(body, where, "a formula such as \"sin(i*0.1) + j\"").value_or("");
        try {
            if (body.is_string()) model::checkFormula(init.formula, where);
        } catch (const InputError& error) {
            problems.emplace_back(error.what());
        }
    } else {
        init.kind = InitSpec::Kind::File;
        init.extra = unknownMembers(value, {"file"});
        init.file = this->path(body, where).value_or("");
        const std::string extension = fs::path(init.file).extension().string();
        if (!init.file.empty() && extension != ".npy" && extension != ".csv")
            problem(where, inQuotes(init.file) + " is neither a .npy nor a .csv file");
    }
    if (problems.size() != before) return std::nullopt;
    return init;
}

std::optional<model::ScalarValue> Reader::readValue(const json& value, DType type, const std::string& path) {
    if (value.is_number()) {
        const auto n = number(value, path, "a number");
        if (!n) return std::nullopt;
        try {
            model::scalarBytes(type, *n, path);
        } catch (const InputError& error) {
            problems.emplace_back(error.what());
            return std::nullopt;
        }
        return model::ScalarValue{model::ScalarValue::Kind::Number, *n, {}};
    }
    if (value.is_string())
        if (auto parsed = model::scalarValueFromText(value.get<std::string>())) return parsed;
    problem(path,
            "expected a number or one of size(x), rows(x), cols(x), depth(x) naming an array argument x, "
            "found " +
                describe(value));
    return std::nullopt;
}

ArgumentSpec Reader::readArgument(const json& object, const std::string& path, bool& typed) {
    ArgumentSpec arg;
    if (!isObject(object, path, "an object {\"name\": ..., \"array\" or \"scalar\": ...}")) return arg;
    arg.extra = unknownMembers(object, {"name", "array", "scalar", "direction", "init", "value"});
    if (const json* name = find(object, "name"))
        arg.name = identifier(*name, member(path, "name"), "a C identifier").value_or("");
    else
        problem(member(path, "name"), "missing; expected the parameter's name");

    const json* array = find(object, "array");
    const json* scalar = find(object, "scalar");
    if (array && scalar) problem(path, "gives both \"array\" and \"scalar\"; an argument is one of them");
    if (!array && !scalar)
        problem(path, "needs \"array\": {\"dtype\": ..., \"shape\": [...]} or \"scalar\": {\"dtype\": ...}");
    if (array && !scalar) {
        if (auto spec = readArray(*array, member(path, "array"))) {
            arg.type = *spec;
            typed = true;
        }
    } else if (scalar && !array && isObject(*scalar, member(path, "scalar"), "an object {\"dtype\": ...}")) {
        model::ScalarSpec spec;
        spec.extra = unknownMembers(*scalar, {"dtype"});
        if (auto type = dtype(*scalar, member(path, "scalar"))) {
            spec.dtype = *type;
            arg.type = spec;
            typed = true;
        }
    }
    const bool isScalar = scalar && !array;

    if (const json* direction = find(object, "direction")) {
        const std::string where = member(path, "direction");
        auto spelled = text(*direction, where, "\"in\", \"out\" or \"inout\"");
        if (spelled) arg.direction = model::directionFromName(*spelled);
        if (spelled && !arg.direction)
            problem(where, "expected \"in\", \"out\" or \"inout\", found " + inQuotes(*spelled));
        if (isScalar) problem(where, "a scalar is passed by value and has no direction; remove it");
    }
    if (const json* init = find(object, "init")) {
        const std::string where = member(path, "init");
        if (isScalar)
            problem(where, "a scalar takes a \"value\", not an init");
        else if (arg.direction == model::Direction::Out)
            problem(where,
                    "an out argument is allocated and zero-filled, so it takes no init: remove the init, or "
                    "make the direction \"inout\"");
        else
            arg.init = readInit(*init, where);
    }
    const json* value = find(object, "value");
    if (value && !isScalar)
        problem(member(path, "value"), "an array's contents come from \"init\"; \"value\" is for scalars");
    if (!value && isScalar)
        problem(member(path, "value"),
                "missing; a scalar needs a number or size(x), rows(x), cols(x), depth(x)");
    if (value && isScalar && typed) arg.value = readValue(*value, arg.scalar().dtype, member(path, "value"));
    return arg;
}

model::ReferenceSpec Reader::readReference(const json& object) {
    model::ReferenceSpec reference;
    reference.extra = unknownMembers(object, {"source", "function"});
    if (const json* source = find(object, "source"))
        reference.source = path(*source, "reference.source").value_or("");
    else
        problem("reference.source", "missing; expected the C++ file that holds the reference function");
    if (const json* function = find(object, "function"))
        reference.function = identifier(*function, "reference.function", "a C++ function name").value_or("");
    else
        problem("reference.function", "missing; expected the name of the reference function");
    return reference;
}

model::CheckSpec Reader::readCheck(const json& object) {
    model::CheckSpec check;
    check.extra = unknownMembers(object, {"outputs", "rtol", "atol", "unordered"});
    if (const json* outputs = find(object, "outputs")) {
        if (!outputs->is_array())
            problem("check.outputs", "expected an array of argument names, found " + describe(*outputs));
        for (std::size_t i = 0; outputs->is_array() && i < outputs->size(); ++i)
            check.outputs.push_back(
                text((*outputs)[i], element("check.outputs", i), "an argument name").value_or(""));
    }
    for (auto [key, target] : {std::pair{"rtol", &check.rtol}, std::pair{"atol", &check.atol}})
        if (const json* value = find(object, key)) {
            const std::string where = member("check", key);
            *target = number(*value, where, "a tolerance, 0 or more");
            if (*target && **target < 0)
                problem(where, "expected a tolerance, 0 or more, found " + describe(*value));
        }
    if (const json* unordered = find(object, "unordered");
        unordered && isObject(*unordered, "check.unordered", "an object of output names"))
        for (const auto& [name, how] : unordered->items())
            if (auto spec = readUnordered(how, member("check.unordered", name)))
                check.unordered[name] = *spec;
    return check;
}

std::optional<model::UnorderedSpec> Reader::readUnordered(const json& how, const std::string& where) {
    using Kind = model::UnorderedSpec::Kind;
    const std::string expected = R"("multiset", "multiset_per_row" or {"min": a, "max": b})";
    if (how.is_string() && how == "multiset") return model::UnorderedSpec{Kind::Multiset};
    if (how.is_string() && how == "multiset_per_row") return model::UnorderedSpec{Kind::MultisetPerRow};
    if (!how.is_object() || !how.contains("min") || !how.contains("max")) {
        problem(where, "expected " + expected + ", found " + describe(how));
        return std::nullopt;
    }
    for (const auto& [key, value] : how.items())
        if (key != "min" && key != "max")
            problem(member(where, key), "unknown member; a range has \"min\" and \"max\"");
    const auto low = number(how["min"], member(where, "min"), "a number");
    const auto high = number(how["max"], member(where, "max"), "a number");
    if (!low || !high) return std::nullopt;
    if (*low > *high) {
        problem(where, "min " + describe(how["min"]) + " is above max " + describe(how["max"]));
        return std::nullopt;
    }
    return model::UnorderedSpec{Kind::Range, *low, *high};
}

std::string namesOf(const Playground& playground, const std::vector<bool>& typed,
                    bool (*wanted)(const ArgumentSpec&)) {
    std::string names;
    for (std::size_t i = 0; i < playground.args.size(); ++i)
        if (typed[i] && wanted(playground.args[i]))
            names += (names.empty() ? "" : ", ") + playground.args[i].name;
    return names.empty() ? "none" : names;
}

void Reader::checkReferences(const Playground& playground, const std::vector<bool>& typed) {
    std::map<std::string, std::size_t> seen;
    bool anyArray = false;
    for (std::size_t i = 0; i < playground.args.size(); ++i) {
        const ArgumentSpec& arg = playground.args[i];
        anyArray = anyArray || (typed[i] && arg.isArray());
        if (arg.name.empty()) continue;
        if (auto [it, fresh] = seen.emplace(arg.name, i); !fresh)
            problem(member(element("args", i), "name"), inQuotes(arg.name) + " is also the name of args[" +
                                                            std::to_string(it->second) +
                                                            "]; names must differ");
    }
    for (std::size_t i = 0; i < playground.args.size(); ++i) {
        const ArgumentSpec& arg = playground.args[i];
        if (!arg.value || arg.value->kind == model::ScalarValue::Kind::Number) continue;
        const std::string where = member(element("args", i), "value");
        const auto target = seen.find(arg.value->array);
        const std::string arrays =
            namesOf(playground, typed, [](const ArgumentSpec& a) { return a.isArray(); });
        if (target == seen.end())
            problem(where, model::toString(*arg.value) + " names no argument " + inQuotes(arg.value->array) +
                               "; the array arguments are: " + arrays);
        else if (typed[target->second] && !playground.args[target->second].isArray())
            problem(where, model::toString(*arg.value) + " names the scalar argument " +
                               inQuotes(arg.value->array) + "; it must name an array argument (" + arrays +
                               ")");
    }
    if (!playground.isProgram() && playground.launch.autoGrid && !anyArray && !playground.args.empty())
        problem("launch.grid",
                "\"auto\" sizes the grid from the first array argument, and there is none: give the "
                "grid as [x, y, z]");
}

void Reader::checkOutputs(const Playground& playground, const std::vector<bool>& typed) {
    if (!playground.check) return;
    const std::string outputs = namesOf(playground, typed, [](const ArgumentSpec& a) {
        return a.isArray() && a.direction != model::Direction::In;
    });
    std::set<std::string> seen;
    for (std::size_t i = 0; i < playground.check->outputs.size(); ++i) {
        const std::string& name = playground.check->outputs[i];
        const std::string where = element("check.outputs", i);
        if (name.empty()) continue;
        if (!seen.insert(name).second) problem(where, inQuotes(name) + " is listed twice");
        const ArgumentSpec* it = playground.find(name);
        if (!it) {
            problem(where,
                    "no argument is named " + inQuotes(name) + "; the out and inout arrays are: " + outputs);
            continue;
        }
        if (!typed[static_cast<std::size_t>(it - playground.args.data())]) continue;
        if (!it->isArray())
            problem(where,
                    inQuotes(name) + " is a scalar; check compares out and inout arrays (" + outputs + ")");
        else if (it->direction == model::Direction::In)
            problem(where, inQuotes(name) +
                               " is an in argument, which the kernel does not write back; check compares "
                               "out and inout arrays: make it \"inout\" or remove it from outputs");
    }
    for (const auto& [name, how] : playground.check->unordered) {
        const std::string where = member("check.unordered", name);
        const ArgumentSpec* it = playground.find(name);
        if (!it)
            problem(where,
                    "no argument is named " + inQuotes(name) + "; the out and inout arrays are: " + outputs);
        else if (typed[static_cast<std::size_t>(it - playground.args.data())] &&
                 (!it->isArray() || it->direction == model::Direction::In))
            problem(where, inQuotes(name) +
                               " is not an out or inout array; the out and inout arrays are: " + outputs);
        else if (!playground.check->outputs.empty() && !seen.contains(name))
            problem(where,
                    inQuotes(name) + " is not among check.outputs, so it is not compared: add it there");
    }
}

// nlohmann reports a syntax error by byte offset; people and editors want line and column.
std::string lineColumn(std::string_view text, std::size_t byte) {
    const std::size_t offset = std::min(byte > 0 ? byte - 1 : 0, text.size());
    const std::string_view before = text.substr(0, offset);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t lineStart = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    return std::to_string(line) + ":" + std::to_string(offset - lineStart + 1);
}

std::string syntaxMessage(const json::parse_error& error) {
    // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error while ..." -> the
    // reason.
    const std::string text = error.what();
    const std::size_t at = text.find("parse error");
    const std::size_t colon = at == std::string::npos ? std::string::npos : text.find(": ", at);
    return colon == std::string::npos ? text : text.substr(colon + 2);
}

// A number too large for a double (1e400). nlohmann names it ("number overflow parsing '1e400'") but gives
// no position, so the first place it is spelled stands in for one.
std::string overflowMessage(std::string_view text, const json::out_of_range& error) {
    const std::string what = error.what();
    const std::size_t open = what.find('\'');
    const std::size_t close = open == std::string::npos ? std::string::npos : what.find('\'', open + 1);
    const std::string number =
        close == std::string::npos ? std::string() : what.substr(open + 1, close - open - 1);
    const std::size_t at = number.empty() ? std::string_view::npos : text.find(number);
    return lineColumn(text, at == std::string_view::npos ? 1 : at + 1) + ": invalid JSON: the number " +
           (number.empty() ? std::string() : number + " ") +
           "is too large for a double (at most about 1.8e308)";
}

// Copying, comparing and printing nlohmann values recurses once per level, so a file of nested brackets
// would overflow the stack long before the size limit; no playground needs more than a few levels.
constexpr std::size_t deepestNesting = 256;

// The byte offset of the bracket that opens one level too many, outside strings; npos when there is none.
std::size_t tooDeep(std::string_view text) {
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepestNesting) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

json parseJson(std::string_view text, const std::string& file) {
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
        throw PlaygroundError(file, {"the file is empty; a playground file is a JSON object starting with "
                                     "{\"format\": \"kernelpad/1\", ...}"});
    if (const std::size_t zero = text.find('\0'); zero != std::string_view::npos)
        throw PlaygroundError(file, {lineColumn(text, zero + 1) +
                                     ": this is not a text file (it holds a zero byte); a "
                                     "playground file is JSON text"});
    if (const std::size_t deep = tooDeep(text); deep != std::string_view::npos)
        throw PlaygroundError(file, {lineColumn(text, deep + 1) + ": the JSON nests more than " +
                                     std::to_string(deepestNesting) +
                                     " levels of [ and {; a playground needs a few"});
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& error) {
        const std::string where = lineColumn(text, error.byte);
        const bool truncated = error.byte > text.size();
        throw PlaygroundError(file, {where + ": invalid JSON: " + syntaxMessage(error) +
                                     (truncated ? " (is the file cut short?)" : "")});
    } catch (const json::out_of_range& error) {
        throw PlaygroundError(file, {overflowMessage(text, error)});
    }
}

// Where a newer Kernelpad wrote the file, say so rather than listing problems it would not have.
void checkFormat(const json& root, const std::string& file) {
    const json* format = find(root, "format");
    if (!format)
        throw PlaygroundError(file,
                              {"format: missing; a playground file starts with \"format\": \"kernelpad/1\""});
    if (format->is_string() && format->get<std::string>() == formatName) return;
    const std::string spelled = format->is_string() ? format->get<std::string>() : "";
    if (spelled.starts_with("kernelpad/")) {
        const std::string version = spelled.substr(10);
        const bool newer = !version.empty() &&
                           std::all_of(version.begin(), version.end(),
                                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
                           version != "0" && version != "1";
        if (newer)
            throw PlaygroundError(file,
                                  {"format: the file is written in " + inQuotes(spelled) +
                                   ", which a newer Kernelpad writes; this one reads \"kernelpad/1\": open "
                                   "the file with a newer Kernelpad"});
    }
    throw PlaygroundError(file, {"format: expected \"kernelpad/1\", found " + describe(*format)});
}

ordered dimensionsJson(const std::array<std::uint32_t, 3>& dimensions) {
    return ordered::array({dimensions[0], dimensions[1], dimensions[2]});
}

ordered initJson(const InitSpec& init) {
    ordered out = ordered::object();
    switch (init.kind) {
    case InitSpec::Kind::Zeros:
        return "zeros";
    case InitSpec::Kind::Ones:
        return "ones";
    case InitSpec::Kind::Constant:
        out["constant"] = numberJson(init.constant);
        break;
    case InitSpec::Kind::Range: {
        ordered range = {{"start", numberJson(init.start)}, {"step", numberJson(init.step)}};
        appendExtra(range, init.rangeExtra);
        out["range"] = range;
        break;
    }
    case InitSpec::Kind::Uniform:
        out = {{"random", "uniform"},
               {"low", numberJson(init.low)},
               {"high", numberJson(init.high)},
               {"seed", init.seed}};
        break;
    case InitSpec::Kind::Normal:
        out = {{"random", "normal"},
               {"mean", numberJson(init.mean)},
               {"stddev", numberJson(init.stddev)},
               {"seed", init.seed}};
        break;
    case InitSpec::Kind::Formula:
        out["formula"] = init.formula;
        break;
    case InitSpec::Kind::File:
        out["file"] = init.file;
        break;
    }
    appendExtra(out, init.extra);
    return out;
}

ordered argumentJson(const ArgumentSpec& arg) {
    ordered out = {{"name", arg.name}};
    if (arg.isArray()) {
        ordered array = {{"dtype", std::string(model::name(arg.array().dtype))},
                         {"shape", arg.array().shape}};
        appendExtra(array, arg.array().extra);
        out["array"] = array;
    } else {
        ordered scalar = {{"dtype", std::string(model::name(arg.scalar().dtype))}};
        appendExtra(scalar, arg.scalar().extra);
        out["scalar"] = scalar;
    }
    if (arg.direction) out["direction"] = std::string(model::name(*arg.direction));
    if (arg.init) out["init"] = initJson(*arg.init);
    if (arg.value)
        out["value"] = arg.value->kind == model::ScalarValue::Kind::Number
                           ? numberJson(arg.value->number)
                           : ordered(model::toString(*arg.value));
    appendExtra(out, arg.extra);
    return out;
}

ordered compileJson(const model::CompileSpec& compile) {
    ordered out = ordered::object();
    out["options"] = compile.options; // always written, even empty: it tells the reader where options go
    if (!compile.defines.empty()) {
        ordered defines = ordered::object();
        for (const auto& [name, value] : compile.defines)
            defines[name] = value;
        out["defines"] = defines;
    }
    appendExtra(out, compile.extra);
    return out;
}

ordered launchJson(const model::LaunchSpec& launch) {
    ordered out = {{"grid", launch.autoGrid ? ordered("auto") : dimensionsJson(launch.grid)},
                   {"block", dimensionsJson(launch.block)},
                   {"shared_bytes", launch.sharedBytes}};
    appendExtra(out, launch.extra);
    return out;
}

} // namespace

nlohmann::ordered_json unorderedJson(const model::UnorderedSpec& how) {
    switch (how.kind) {
    case model::UnorderedSpec::Kind::Multiset:
        return "multiset";
    case model::UnorderedSpec::Kind::MultisetPerRow:
        return "multiset_per_row";
    case model::UnorderedSpec::Kind::Range:
        break;
    }
    return {{"min", numberJson(how.min)}, {"max", numberJson(how.max)}};
}

PlaygroundError::PlaygroundError(std::string file, std::vector<std::string> problems)
    : InputError(joinLines(file, problems)), file_(std::move(file)), problems_(std::move(problems)) {}

Playground parsePlayground(std::string_view text, const fs::path& file) {
    const std::string name = file.string();
    const json root = parseJson(text, name);
    if (!root.is_object())
        throw PlaygroundError(
            name, {"the file holds " + describe(root) +
                   ", not a playground: a JSON object starting with {\"format\": \"kernelpad/1\", ...}"});
    checkFormat(root, name);
    Reader reader(fs::absolute(file).parent_path().lexically_normal());
    Playground playground = reader.read(root);
    if (!reader.problems.empty()) throw PlaygroundError(name, std::move(reader.problems));
    return playground;
}

Playground readPlayground(const fs::path& file) {
    std::error_code error;
    const std::uintmax_t size = fs::file_size(file, error);
    if (!error && size > largestFile)
        throw PlaygroundError(file.string(),
                              {"the file is " + std::to_string(size >> 20) +
                               " MiB; a playground file is at most 64 MiB (keep large data in .npy files)"});
    const std::vector<std::byte> bytes = readFileBytes(file);
    return parsePlayground(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), file);
}

std::string serializePlayground(const Playground& playground) {
    ordered out = {{"format", formatName}};
    if (!playground.title.empty()) out["title"] = playground.title;
    if (!playground.lesson.empty()) out["lesson"] = playground.lesson;
    if (playground.source) out["source"] = *playground.source;
    if (playground.code) out["code"] = *playground.code;
    if (!playground.isProgram()) out["kernel"] = playground.kernel;
    if (ordered compile = compileJson(playground.compile); !compile.empty()) out["compile"] = compile;
    if (!playground.isProgram()) out["launch"] = launchJson(playground.launch);
    out["args"] = ordered::array();
    for (const ArgumentSpec& arg : playground.args)
        out["args"].push_back(argumentJson(arg));
    if (playground.isProgram()) writeProgram(playground, out);
    if (playground.reference) {
        ordered reference = {{"source", playground.reference->source},
                             {"function", playground.reference->function}};
        appendExtra(reference, playground.reference->extra);
        out["reference"] = reference;
    }
    if (playground.check) {
        ordered check = {{"outputs", playground.check->outputs}};
        if (playground.check->rtol) check["rtol"] = *playground.check->rtol;
        if (playground.check->atol) check["atol"] = *playground.check->atol;
        if (!playground.check->unordered.empty()) {
            ordered unordered = ordered::object();
            for (const auto& [name, how] : playground.check->unordered)
                unordered[name] = unorderedJson(how);
            check["unordered"] = unordered;
        }
        appendExtra(check, playground.check->extra);
        out["check"] = check;
    }
    appendExtra(out, playground.extra);
    return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void writePlayground(const Playground& playground, const fs::path& file) {
    const std::string text = serializePlayground(playground);
    writeFileAtomically(file, std::as_bytes(std::span(text.data(), text.size())));
}

void writePlayground(const Playground& playground, const fs::path& file, const fs::path& sourceFile,
                     std::string_view sourceText) {
    const std::string text = serializePlayground(playground);
    const FileContent files[] = {{sourceFile, std::as_bytes(std::span(sourceText.data(), sourceText.size()))},
                                 {file, std::as_bytes(std::span(text.data(), text.size()))}};
    writeFilesAtomically(files);
}

} // namespace kp::io
