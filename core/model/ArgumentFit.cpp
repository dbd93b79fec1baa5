#include "ArgumentFit.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace kp::model {

namespace {

bool looksLikeCount(std::string_view name) {
    static constexpr std::array<std::string_view, 12> kCounts{
        "n",   "N",        "size",        "count",        "len",   "length",
        "num", "elements", "numElements", "num_elements", "width", "nx"};
    return std::find(kCounts.begin(), kCounts.end(), name) != kCounts.end();
}

ArgumentSpec defaultFor(const Parameter& parameter, const std::vector<ArgumentSpec>& fitted,
                        std::size_t elements) {
    ArgumentSpec arg;
    arg.name = parameter.name;
    if (parameter.pointer) {
        // The shape of the arrays already there, so that a new array matches them.
        Shape shape{elements};
        for (const auto& other : fitted)
            if (other.isArray()) {
                shape = other.array().shape;
                break;
            }
        arg.type = ArraySpec{parameter.dtype.value_or(DType::Float32), shape};
        if (parameter.isConst) {
            arg.direction = Direction::In;
            InitSpec init;
            init.kind = InitSpec::Kind::Uniform;
            init.seed = fitted.size() + 1;
            arg.init = init;
        } else {
            arg.direction = Direction::Out;
        }
        return arg;
    }
    arg.type = ScalarSpec{parameter.dtype.value_or(DType::Int32)};
    ScalarValue value;
    const auto firstArray =
        std::find_if(fitted.begin(), fitted.end(), [](const ArgumentSpec& a) { return a.isArray(); });
    if (looksLikeCount(parameter.name) && firstArray != fitted.end()) {
        value.kind = ScalarValue::Kind::Size;
        value.array = firstArray->name;
    }
    arg.value = value;
    return arg;
}

} // namespace

bool fits(const ArgumentSpec& argument, const Parameter& parameter) {
    if (argument.isArray() != parameter.pointer) return false;
    if (!parameter.dtype) return true;
    return argument.isArray() ? argument.array().dtype == *parameter.dtype
                              : argument.scalar().dtype == *parameter.dtype;
}

std::vector<ArgumentSpec> fitArguments(const KernelSignature& kernel,
                                       const std::vector<ArgumentSpec>& previous,
                                       std::size_t defaultElements) {
    const auto named = [&](std::string_view name) {
        return std::find_if(previous.begin(), previous.end(),
                            [&](const ArgumentSpec& a) { return a.name == name; });
    };
    const auto inSignature = [&](std::string_view name) {
        return std::any_of(kernel.parameters.begin(), kernel.parameters.end(),
                           [&](const Parameter& p) { return p.name == name; });
    };
    std::vector<ArgumentSpec> fitted;
    std::vector<std::string> renamedFrom(kernel.parameters.size());
    for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
        const auto& parameter = kernel.parameters[i];
        if (const auto same = named(parameter.name); same != previous.end() && fits(*same, parameter)) {
            fitted.push_back(*same);
            continue;
        }
        if (i < previous.size() && !inSignature(previous[i].name) && fits(previous[i], parameter)) {
            fitted.push_back(previous[i]);
            renamedFrom[i] = previous[i].name;
            fitted.back().name = parameter.name;
            continue;
        }
        fitted.push_back(defaultFor(parameter, fitted, defaultElements));
    }
    // A renamed array keeps its bindings: size(old) becomes size(new).
    for (std::size_t i = 0; i < fitted.size(); ++i) {
        if (renamedFrom[i].empty() || !fitted[i].isArray()) continue;
        for (auto& arg : fitted)
            if (arg.value && arg.value->kind != ScalarValue::Kind::Number &&
                arg.value->array == renamedFrom[i])
                arg.value->array = fitted[i].name;
    }
    return fitted;
}

} // namespace kp::model
