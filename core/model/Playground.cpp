#include "Playground.h"

#include "core/Error.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace kp::model {

namespace fs = std::filesystem;

std::string_view name(Direction direction) {
    switch (direction) {
    case Direction::In:
        return "in";
    case Direction::Out:
        return "out";
    case Direction::InOut:
        return "inout";
    }
    return "in";
}

std::optional<Direction> directionFromName(std::string_view text) {
    if (text == "in") return Direction::In;
    if (text == "out") return Direction::Out;
    if (text == "inout") return Direction::InOut;
    return std::nullopt;
}

Direction inferDirection(bool pointeeConst) {
    return pointeeConst ? Direction::In : Direction::InOut;
}

namespace {

std::string_view functionName(ScalarValue::Kind kind) {
    switch (kind) {
    case ScalarValue::Kind::Size:
        return "size";
    case ScalarValue::Kind::Rows:
        return "rows";
    case ScalarValue::Kind::Cols:
        return "cols";
    case ScalarValue::Kind::Depth:
        return "depth";
    case ScalarValue::Kind::Number:
        break;
    }
    return {};
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

bool isUnder(const fs::path& inner, const fs::path& outer) {
    const fs::path relative = inner.lexically_relative(outer);
    return !relative.empty() && *relative.begin() != "..";
}

} // namespace

std::string toString(const ScalarValue& value) {
    if (value.kind != ScalarValue::Kind::Number)
        return std::string(functionName(value.kind)) + "(" + value.array + ")";
    // Shortest text that reads back as the same double: %.17g is exact, but integers print plainly.
    if (std::abs(value.number) < 1e15 && value.number == std::trunc(value.number))
        return std::to_string(static_cast<long long>(value.number));
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value.number);
    return text;
}

std::optional<ScalarValue> scalarValueFromText(std::string_view text) {
    text = trim(text);
    const std::size_t open = text.find('(');
    if (open == std::string_view::npos || text.back() != ')') return std::nullopt;
    const std::string_view function = trim(text.substr(0, open));
    const std::string_view argument = trim(text.substr(open + 1, text.size() - open - 2));
    for (auto kind : {ScalarValue::Kind::Size, ScalarValue::Kind::Rows, ScalarValue::Kind::Cols,
                      ScalarValue::Kind::Depth}) {
        if (function == functionName(kind) && !argument.empty())
            return ScalarValue{kind, 0, std::string(argument)};
    }
    return std::nullopt;
}

const ArgumentSpec* Playground::find(std::string_view argumentName) const {
    for (const ArgumentSpec& arg : args)
        if (arg.name == argumentName) return &arg;
    return nullptr;
}

fs::path Playground::resolve(const std::string& relative) const {
    return resolveInside(folder, relative);
}

std::optional<std::string> pathProblem(const fs::path& folder, const std::string& relative) {
    if (relative.empty()) return "the path is empty";
    for (char c : relative)
        if (std::iscntrl(static_cast<unsigned char>(c)))
            return "the path \"" + relative + "\" holds a control character";
    const fs::path path(relative);
    if (path.has_root_name() || path.has_root_directory())
        return "the path \"" + relative +
               "\" is absolute; a playground names files relative to its own folder: move the file into "
               "the playground's folder and give its relative path";
    const fs::path normal = path.lexically_normal();
    if (!normal.empty() && *normal.begin() == "..")
        return "the path \"" + relative +
               "\" leaves the playground's folder; a playground may only name files in its folder or "
               "below it: copy the file there";
    // A symbolic link inside the folder may still point outside it: compare the real locations too.
    std::error_code error;
    const fs::path realFolder = fs::weakly_canonical(folder.empty() ? fs::path(".") : folder, error);
    if (error) return std::nullopt; // the folder itself is gone: opening the file will say so
    const fs::path real = fs::weakly_canonical(realFolder / normal, error);
    if (!error && real != realFolder && !isUnder(real, realFolder))
        return "the path \"" + relative + "\" leads outside the playground's folder (to " + real.string() +
               ") through a symbolic link; a playground may only name files in its folder or below it";
    return std::nullopt;
}

fs::path resolveInside(const fs::path& folder, const std::string& relative, const std::string& where) {
    if (auto problem = pathProblem(folder, relative))
        throw InputError((where.empty() ? std::string() : where + ": ") + *problem);
    return (folder / fs::path(relative)).lexically_normal();
}

std::string describe(const CompileSpec& compile) {
    std::string text;
    for (const auto& [name, value] : compile.defines)
        text += (text.empty() ? "" : " ") + ("-D" + name + (value.empty() ? "" : "=" + value));
    for (const auto& option : compile.options)
        text += (text.empty() ? "" : " ") + option;
    return text;
}

} // namespace kp::model

namespace kp::model {

KernelSignature programSignature(const Playground& playground) {
    KernelSignature signature;
    signature.name = playground.title.empty() ? std::string("program") : playground.title;
    for (const auto& arg : playground.args) {
        Parameter parameter;
        parameter.name = arg.name;
        if (arg.isArray()) {
            parameter.pointer = true;
            parameter.dtype = arg.array().dtype;
            parameter.typeText = std::string(cudaName(arg.array().dtype)) + "*";
        } else {
            parameter.dtype = arg.scalar().dtype;
            parameter.typeText = std::string(cudaName(arg.scalar().dtype));
        }
        signature.parameters.push_back(std::move(parameter));
    }
    return signature;
}

} // namespace kp::model
