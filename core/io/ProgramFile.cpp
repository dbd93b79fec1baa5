#include "ProgramFile.h"

#include "core/Overloaded.h"

#include <limits>

namespace kp::io {

namespace {

constexpr std::string_view kStepKinds =
    "\"launch\", \"copy\", \"fill\", \"swap\", \"symbol\", \"set\" or \"repeat\"";

class ProgramReader {
public:
    explicit ProgramReader(JsonFields& fields) : fields_(fields) {}

    std::vector<model::Step> steps(const json& value, const std::string& path, int depth);
    std::vector<model::BufferSpec> buffers(const json& value);
    std::vector<std::pair<std::string, std::string>> assignments(const json& value, const std::string& path);

private:
    std::optional<model::Step> step(const json& value, const std::string& path, int depth);
    model::LaunchStep launch(const json& object, const std::string& path);
    model::CopyStep copy(const json& object, const std::string& path);
    model::FillStep fill(const json& object, const std::string& path);
    model::SwapStep swap(const json& value, const std::string& path);
    model::SymbolStep symbol(const json& object, const std::string& path);
    model::RepeatStep repeat(const json& object, const json& step, const std::string& path, int depth);
    std::vector<std::string> expressions(const json& value, const std::string& path, std::size_t most,
                                         const std::string& what);
    std::string expressionOr(const json& object, std::string_view key, const std::string& path,
                             const std::string& fallback);
    std::string place(const json& object, std::string_view key, const std::string& path, bool required);

    JsonFields& fields_;
};

std::vector<std::string> ProgramReader::expressions(const json& value, const std::string& path,
                                                    std::size_t most, const std::string& what) {
    if (!value.is_array() || value.empty() || value.size() > most) {
        fields_.problem(path, "expected " + what + ", found " + describe(value) +
                                  (value.is_array() ? " of " + std::to_string(value.size()) : ""));
        return {};
    }
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < value.size(); ++i)
        texts.push_back(fields_.expression(value[i], element(path, i)).value_or("1"));
    return texts;
}

std::string ProgramReader::expressionOr(const json& object, std::string_view key, const std::string& path,
                                        const std::string& fallback) {
    const json* value = find(object, key);
    if (!value) return fallback;
    return fields_.expression(*value, member(path, key)).value_or(fallback);
}

std::string ProgramReader::place(const json& object, std::string_view key, const std::string& path,
                                 bool required) {
    const json* value = find(object, key);
    if (!value) {
        if (required)
            fields_.problem(member(path, key), "missing; expected a buffer's name, or name + offset");
        return {};
    }
    return fields_.text(*value, member(path, key), "a buffer's name, or name + offset (\"data + 256\")")
        .value_or("");
}

model::LaunchStep ProgramReader::launch(const json& object, const std::string& path) {
    model::LaunchStep s;
    s.extra = unknownMembers(object, {"kernel", "template", "grid", "block", "shared_bytes", "args"});
    if (const json* kernel = find(object, "kernel"))
        s.kernel =
            fields_.text(*kernel, member(path, "kernel"), "the name of a __global__ function").value_or("");
    else
        fields_.problem(member(path, "kernel"),
                        "missing; expected the name of the __global__ function to launch");
    if (const json* templateArgs = find(object, "template")) {
        if (!templateArgs->is_array())
            fields_.problem(member(path, "template"),
                            "expected an array of template arguments, found " + describe(*templateArgs));
        for (std::size_t i = 0; templateArgs->is_array() && i < templateArgs->size(); ++i)
            s.templateArgs.push_back(
                fields_.expression((*templateArgs)[i], element(member(path, "template"), i)).value_or("0"));
    }
    const json* grid = find(object, "grid");
    if (grid && !(grid->is_string() && grid->get<std::string>() == "auto"))
        s.grid = expressions(*grid, member(path, "grid"), 3,
                             "\"auto\" or [x, y, z]: 1 to 3 numbers or expressions");
    if (const json* block = find(object, "block"))
        s.block = expressions(*block, member(path, "block"), 3, "[x, y, z]: 1 to 3 numbers or expressions");
    s.sharedBytes = expressionOr(object, "shared_bytes", path, "0");
    if (const json* args = find(object, "args")) {
        if (!args->is_array())
            fields_.problem(member(path, "args"),
                            "expected an array with one entry per kernel parameter, found " +
                                describe(*args));
        for (std::size_t i = 0; args->is_array() && i < args->size(); ++i)
            s.args.push_back(fields_.expression((*args)[i], element(member(path, "args"), i)).value_or(""));
    } else {
        fields_.problem(member(path, "args"),
                        "missing; expected one entry per kernel parameter: a buffer's name "
                        "for a pointer, a number or an expression for a value");
    }
    return s;
}

model::CopyStep ProgramReader::copy(const json& object, const std::string& path) {
    model::CopyStep s;
    s.extra = unknownMembers(object, {"from", "to", "count"});
    s.from = place(object, "from", path, true);
    s.to = place(object, "to", path, true);
    s.count = expressionOr(object, "count", path, "");
    return s;
}

model::FillStep ProgramReader::fill(const json& object, const std::string& path) {
    model::FillStep s;
    s.extra = unknownMembers(object, {"buffer", "value", "count"});
    s.buffer = place(object, "buffer", path, true);
    s.value = expressionOr(object, "value", path, "0");
    s.count = expressionOr(object, "count", path, "");
    return s;
}

model::SwapStep ProgramReader::swap(const json& value, const std::string& path) {
    model::SwapStep s;
    if (!value.is_array() || value.size() != 2) {
        fields_.problem(path, "expected the two buffers to swap, [\"a\", \"b\"], found " + describe(value));
        return s;
    }
    s.first = fields_.identifier(value[0], element(path, 0), "a buffer's name").value_or("");
    s.second = fields_.identifier(value[1], element(path, 1), "a buffer's name").value_or("");
    return s;
}

model::SymbolStep ProgramReader::symbol(const json& object, const std::string& path) {
    model::SymbolStep s;
    s.extra = unknownMembers(object, {"name", "from", "values"});
    if (const json* name = find(object, "name"))
        s.symbol =
            fields_
                .identifier(*name, member(path, "name"), "the name of a __constant__ or __device__ variable")
                .value_or("");
    else
        fields_.problem(member(path, "name"),
                        "missing; expected the __constant__ or __device__ variable to set");
    s.from = place(object, "from", path, false);
    if (const json* values = find(object, "values")) {
        if (!values->is_array() || values->empty())
            fields_.problem(member(path, "values"),
                            "expected an array of numbers, found " + describe(*values));
        for (std::size_t i = 0; values->is_array() && i < values->size(); ++i)
            s.values.push_back(
                fields_.expression((*values)[i], element(member(path, "values"), i)).value_or("0"));
    }
    if (s.from.empty() == s.values.empty())
        fields_.problem(path, "give either \"from\" (a buffer to copy) or \"values\" (numbers), one of them");
    return s;
}

model::RepeatStep ProgramReader::repeat(const json& object, const json& step, const std::string& path,
                                        int depth) {
    model::RepeatStep s;
    const std::string where = member(path, "repeat");
    s.extra = unknownMembers(object, {"times", "while", "counter", "from", "next", "limit"});
    s.times = expressionOr(object, "times", where, "");
    if (const json* condition = find(object, "while"))
        s.condition =
            fields_.text(*condition, member(where, "while"), "a condition (\"m > 1\")").value_or("");
    if (const json* counter = find(object, "counter"))
        s.counter = fields_.identifier(*counter, member(where, "counter"), "a variable's name").value_or("");
    s.from = expressionOr(object, "from", where, "0");
    s.next = expressionOr(object, "next", where, "");
    if (const json* limit = find(object, "limit"))
        s.limit =
            fields_.integer(*limit, member(where, "limit"), 1, 100000000, "a number of passes from 1 to 10^8")
                .value_or(0);
    if (s.times.empty() && s.condition.empty())
        fields_.problem(where,
                        "needs \"times\" (a number of passes) or \"while\" (a condition), or it never ends");
    if (const json* steps = find(step, "steps"))
        s.steps = this->steps(*steps, member(path, "steps"), depth + 1);
    else
        fields_.problem(member(path, "steps"), "missing; a repeat runs the steps listed here");
    return s;
}

std::optional<model::Step> ProgramReader::step(const json& value, const std::string& path, int depth) {
    if (!fields_.isObject(value, path, "a step: an object with one of " + std::string(kStepKinds)))
        return std::nullopt;
    static constexpr std::array<std::string_view, 7> kinds{"launch", "copy", "fill",  "swap",
                                                           "symbol", "set",  "repeat"};
    std::vector<std::string_view> given;
    for (const auto kind : kinds)
        if (value.contains(std::string(kind))) given.push_back(kind);
    if (given.size() != 1) {
        fields_.problem(path, given.empty() ? "names no step; expected one of " + std::string(kStepKinds)
                                            : "names " + std::to_string(given.size()) +
                                                  " kinds of step; a step is one of them (make more steps)");
        return std::nullopt;
    }
    const std::string_view kind = given.front();
    model::Step step;
    step.extra = unknownMembers(value, {kind, "title", "steps"});
    if (const json* title = find(value, "title"))
        step.title = fields_.text(*title, member(path, "title"), "a string").value_or("");
    if (kind != "repeat" && value.contains("steps"))
        fields_.problem(member(path, "steps"), "only a repeat holds steps");
    const json& body = value.at(std::string(kind));
    const std::string where = member(path, kind);
    if (kind == "swap") {
        step.action = swap(body, where);
        return step;
    }
    if (kind == "set") {
        step.action = model::SetStep{assignments(body, where), json::object()};
        return step;
    }
    if (!fields_.isObject(body, where, "an object")) return std::nullopt;
    if (kind == "launch") step.action = launch(body, where);
    if (kind == "copy") step.action = copy(body, where);
    if (kind == "fill") step.action = fill(body, where);
    if (kind == "symbol") step.action = symbol(body, where);
    if (kind == "repeat") step.action = repeat(body, value, path, depth);
    return step;
}

std::vector<std::pair<std::string, std::string>> ProgramReader::assignments(const json& value,
                                                                            const std::string& path) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!fields_.isObject(value, path, "an object of NAME: value")) return out;
    if (value.empty()) fields_.problem(path, "is empty; expected NAME: value");
    for (const auto& [name, text] : value.items()) {
        if (!isIdentifier(name))
            fields_.problem(member(path, name),
                            "a variable's name is letters, digits and _, not starting with a digit");
        if (auto expression = fields_.expression(text, member(path, name)))
            out.emplace_back(name, *expression);
    }
    return out;
}

std::vector<model::Step> ProgramReader::steps(const json& value, const std::string& path, int depth) {
    std::vector<model::Step> out;
    if (!value.is_array()) {
        fields_.problem(path, "expected an array of steps, found " + describe(value));
        return out;
    }
    if (value.empty()) fields_.problem(path, "is empty; expected at least one step");
    for (std::size_t i = 0; i < value.size(); ++i)
        if (auto s = step(value[i], element(path, i), depth)) out.push_back(std::move(*s));
    return out;
}

std::vector<model::BufferSpec> ProgramReader::buffers(const json& value) {
    std::vector<model::BufferSpec> out;
    if (!value.is_array()) {
        fields_.problem("buffers", "expected an array of buffers, found " + describe(value));
        return out;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string path = element("buffers", i);
        if (!fields_.isObject(value[i], path, "a buffer {\"name\": ..., \"array\" or \"view\": ...}"))
            continue;
        model::BufferSpec buffer;
        buffer.extra = unknownMembers(value[i], {"name", "array", "view"});
        if (const json* name = find(value[i], "name"))
            buffer.name = fields_.identifier(*name, member(path, "name"), "a buffer's name").value_or("");
        else
            fields_.problem(member(path, "name"), "missing; expected the buffer's name");
        const json* array = find(value[i], "array");
        const json* view = find(value[i], "view");
        if ((array != nullptr) == (view != nullptr)) {
            fields_.problem(
                path, "needs one of \"array\": {\"dtype\": ..., \"shape\": [...]} (scratch memory) or "
                      "\"view\": {\"of\": ..., \"offset\": ..., \"length\": ...} (a part of another buffer)");
        } else if (array && fields_.isObject(*array, member(path, "array"),
                                             "an object {\"dtype\": ..., \"shape\": [...]}")) {
            buffer.dtype = fields_.dtype(*array, member(path, "array")).value_or(model::DType::Float32);
            if (const json* shape = find(*array, "shape"))
                buffer.shape = expressions(*shape, member(path, "array.shape"), 3,
                                           "1 to 3 dimensions, numbers or expressions");
            else
                fields_.problem(member(path, "array.shape"), "missing; expected 1 to 3 dimensions");
        } else if (view && fields_.isObject(*view, member(path, "view"),
                                            "an object {\"of\": ..., \"offset\": ...}")) {
            if (const json* of = find(*view, "of"))
                buffer.of = fields_.identifier(*of, member(path, "view.of"), "a buffer's name").value_or("");
            else
                fields_.problem(member(path, "view.of"), "missing; expected the buffer the view is part of");
            buffer.offset = expressionOr(*view, "offset", member(path, "view"), "0");
            buffer.length = expressionOr(*view, "length", member(path, "view"), "");
        }
        out.push_back(std::move(buffer));
    }
    return out;
}

ordered dimensionsJson(const std::vector<std::string>& dimensions) {
    ordered out = ordered::array();
    for (const auto& d : dimensions)
        out.push_back(expressionJson(d));
    return out;
}

ordered stepJson(const model::Step& step);

ordered stepsJson(const std::vector<model::Step>& steps) {
    ordered out = ordered::array();
    for (const auto& step : steps)
        out.push_back(stepJson(step));
    return out;
}

ordered launchJson(const model::LaunchStep& s) {
    ordered out = {{"kernel", s.kernel}};
    if (!s.templateArgs.empty()) out["template"] = dimensionsJson(s.templateArgs);
    out["grid"] = s.grid.empty() ? ordered("auto") : dimensionsJson(s.grid);
    out["block"] = dimensionsJson(s.block);
    if (s.sharedBytes != "0") out["shared_bytes"] = expressionJson(s.sharedBytes);
    out["args"] = dimensionsJson(s.args);
    appendExtra(out, s.extra);
    return out;
}

ordered stepJson(const model::Step& step) {
    ordered out = ordered::object();
    if (!step.title.empty()) out["title"] = step.title;
    std::visit(Overloaded{
                   [&](const model::LaunchStep& s) { out["launch"] = launchJson(s); },
                   [&](const model::CopyStep& s) {
                       ordered copy = {{"from", s.from}, {"to", s.to}};
                       if (!s.count.empty()) copy["count"] = expressionJson(s.count);
                       appendExtra(copy, s.extra);
                       out["copy"] = copy;
                   },
                   [&](const model::FillStep& s) {
                       ordered fill = {{"buffer", s.buffer}, {"value", expressionJson(s.value)}};
                       if (!s.count.empty()) fill["count"] = expressionJson(s.count);
                       appendExtra(fill, s.extra);
                       out["fill"] = fill;
                   },
                   [&](const model::SwapStep& s) {
                       out["swap"] = ordered::array({s.first, s.second});
                   },
                   [&](const model::SymbolStep& s) {
                       ordered symbol = {{"name", s.symbol}};
                       if (!s.from.empty()) symbol["from"] = s.from;
                       if (!s.values.empty()) symbol["values"] = dimensionsJson(s.values);
                       appendExtra(symbol, s.extra);
                       out["symbol"] = symbol;
                   },
                   [&](const model::SetStep& s) {
                       ordered set = ordered::object();
                       for (const auto& [name, value] : s.variables)
                           set[name] = expressionJson(value);
                       out["set"] = set;
                   },
                   [&](const model::RepeatStep& s) {
                       ordered repeat = ordered::object();
                       if (!s.times.empty()) repeat["times"] = expressionJson(s.times);
                       if (!s.counter.empty()) {
                           repeat["counter"] = s.counter;
                           repeat["from"] = expressionJson(s.from);
                       }
                       if (!s.condition.empty()) repeat["while"] = s.condition;
                       if (!s.next.empty()) repeat["next"] = expressionJson(s.next);
                       if (s.limit) repeat["limit"] = s.limit;
                       appendExtra(repeat, s.extra);
                       out["repeat"] = repeat;
                       out["steps"] = stepsJson(s.steps);
                   },
               },
               step.action);
    appendExtra(out, step.extra);
    return out;
}

} // namespace

void readProgram(JsonFields& fields, const json& root, model::Playground& playground) {
    ProgramReader reader(fields);
    if (const json* variables = find(root, "variables"))
        playground.variables = reader.assignments(*variables, "variables");
    if (const json* buffers = find(root, "buffers")) playground.buffers = reader.buffers(*buffers);
    if (const json* steps = find(root, "steps")) playground.steps = reader.steps(*steps, "steps", 0);
}

void writeProgram(const model::Playground& playground, ordered& out) {
    if (!playground.variables.empty()) {
        ordered variables = ordered::object();
        for (const auto& [name, value] : playground.variables)
            variables[name] = expressionJson(value);
        out["variables"] = variables;
    }
    if (!playground.buffers.empty()) {
        ordered buffers = ordered::array();
        for (const auto& buffer : playground.buffers) {
            ordered entry = {{"name", buffer.name}};
            if (buffer.isView()) {
                ordered view = {{"of", buffer.of}, {"offset", expressionJson(buffer.offset)}};
                if (!buffer.length.empty()) view["length"] = expressionJson(buffer.length);
                entry["view"] = view;
            } else {
                entry["array"] = {{"dtype", std::string(model::name(buffer.dtype))},
                                  {"shape", dimensionsJson(buffer.shape)}};
            }
            appendExtra(entry, buffer.extra);
            buffers.push_back(entry);
        }
        out["buffers"] = buffers;
    }
    out["steps"] = stepsJson(playground.steps);
}

} // namespace kp::io
