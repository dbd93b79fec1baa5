#include "JsonFields.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace kp::io {

std::string member(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string element(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

const json* find(const json& object, std::string_view key) {
    const auto it = object.find(std::string(key));
    return it == object.end() ? nullptr : &*it;
}

json unknownMembers(const json& object, std::initializer_list<std::string_view> known) {
    json extra = json::object();
    for (const auto& [key, value] : object.items())
        if (std::find(known.begin(), known.end(), key) == known.end()) extra[key] = value;
    return extra;
}

std::string describe(const json& value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "an array";
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

std::string inQuotes(const std::string& text) {
    return "\"" + text + "\"";
}

bool isIdentifier(const std::string& text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string dtypeList() {
    std::string list;
    for (const model::DType type : model::allDTypes())
        if (!model::isVector(type)) list += (list.empty() ? "" : ", ") + std::string(model::name(type));
    return list + " or a CUDA vector type (char1 .. double4: float4, uchar3, int2, ...)";
}

ordered numberJson(double value) {
    if (std::abs(value) < 0x1.0p53 && value == std::trunc(value)) return static_cast<std::int64_t>(value);
    return value;
}

ordered expressionJson(const std::string& text) {
    // Only a number that reads back as the same text is written as a number ("1e3" stays a string).
    std::istringstream in(text);
    double value = 0;
    if (!(in >> value) || !in.eof() || !std::isfinite(value)) return text;
    const ordered number = numberJson(value);
    return number.dump() == text ? number : ordered(text);
}

void appendExtra(ordered& object, const json& extra) {
    if (!extra.is_object()) return;
    for (const auto& [key, value] : extra.items())
        if (!object.contains(key)) object[key] = ordered::parse(value.dump());
}

bool JsonFields::isObject(const json& value, const std::string& path, const std::string& expected) {
    if (value.is_object()) return true;
    problem(path, "expected " + expected + ", found " + describe(value));
    return false;
}

std::optional<std::string> JsonFields::text(const json& value, const std::string& path,
                                            const std::string& expected) {
    if (value.is_string()) return value.get<std::string>();
    problem(path, "expected " + expected + ", found " + describe(value));
    return std::nullopt;
}

std::optional<std::string> JsonFields::identifier(const json& value, const std::string& path,
                                                  const std::string& what) {
    auto name = text(value, path, what);
    if (name && !isIdentifier(*name)) {
        problem(path, "expected " + what + " (letters, digits and _, not starting with a digit), found " +
                          describe(value));
        return std::nullopt;
    }
    return name;
}

std::optional<double> JsonFields::number(const json& value, const std::string& path,
                                         const std::string& expected) {
    if (value.is_number() && std::isfinite(value.get<double>())) return value.get<double>();
    problem(path, "expected " + expected + ", found " + describe(value));
    return std::nullopt;
}

std::optional<std::uint64_t> JsonFields::integer(const json& value, const std::string& path,
                                                 std::uint64_t lowest, std::uint64_t highest,
                                                 const std::string& expected) {
    std::optional<std::uint64_t> result;
    if (value.is_number_unsigned()) {
        result = value.get<std::uint64_t>();
    } else if (value.is_number_float()) {
        // 400.0 is a whole number as some writers spell it; 2.5 and 1e30 are not.
        const double d = value.get<double>();
        if (d >= 0 && d < 0x1.0p53 && d == std::trunc(d)) result = static_cast<std::uint64_t>(d);
    }
    if (!result || *result < lowest || *result > highest) {
        problem(path, "expected " + expected + ", found " + describe(value));
        return std::nullopt;
    }
    return result;
}

std::optional<model::DType> JsonFields::dtype(const json& object, const std::string& path) {
    const json* value = find(object, "dtype");
    const std::string where = member(path, "dtype");
    if (!value) {
        problem(where, "missing; expected one of " + dtypeList());
        return std::nullopt;
    }
    auto spelled = text(*value, where, "a dtype name (" + dtypeList() + ")");
    if (!spelled) return std::nullopt;
    auto type = model::dtypeFromName(*spelled);
    if (!type) problem(where, "unknown dtype " + inQuotes(*spelled) + "; expected one of " + dtypeList());
    return type;
}

std::optional<std::string> JsonFields::expression(const json& value, const std::string& path) {
    if (value.is_number() && std::isfinite(value.get<double>()))
        return numberJson(value.get<double>()).dump();
    if (value.is_string() && value.get<std::string>().find_first_not_of(" \t") != std::string::npos)
        return value.get<std::string>();
    problem(path, "expected a number or an expression (\"divup(size(a), 256)\"), found " + describe(value));
    return std::nullopt;
}

} // namespace kp::io
