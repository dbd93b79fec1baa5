#include "ArgumentFit.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace kp::model {

namespace {

std::string lowered(std::string_view name) {
    std::string out(name);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// What a scalar's name says it counts, if anything: "n", "numElements", "n_items", "size" and "count"
// an array's elements; "width", "cols" and "nx" its columns; "height", "rows" and "ny" its rows.
std::optional<ScalarValue::Kind> countedBy(std::string_view name) {
    const std::string low = lowered(name);
    static constexpr std::array<std::string_view, 6> kCols{"width", "cols",  "columns",
                                                           "nx",    "ncols", "num_cols"};
    static constexpr std::array<std::string_view, 5> kRows{"height", "rows", "ny", "nrows", "num_rows"};
    static constexpr std::array<std::string_view, 2> kDepth{"depth", "nz"};
    const auto in = [&](const auto& names) {
        return std::find(names.begin(), names.end(), low) != names.end();
    };
    if (in(kCols) || low == "numcols") return ScalarValue::Kind::Cols;
    if (in(kRows) || low == "numrows") return ScalarValue::Kind::Rows;
    if (in(kDepth)) return ScalarValue::Kind::Depth;
    // "n", or "n" before a capital, an underscore or a digit ("nElems", "n_items", "n2").
    const bool nSomething = name == "n" || name == "N" ||
                            (name.size() > 1 && (name[0] == 'n' || name[0] == 'N') &&
                             (std::isupper(static_cast<unsigned char>(name[1])) || name[1] == '_' ||
                              std::isdigit(static_cast<unsigned char>(name[1]))));
    // A word at either end ("numElements", "arrayLen", "totalCount"), but not a block's or a tile's size.
    static constexpr std::array<std::string_view, 6> kWords{"size",     "count", "len",
                                                            "elements", "num",   "total"};
    static constexpr std::array<std::string_view, 6> kNot{"block",  "tile", "warp",
                                                          "thread", "step", "stride"};
    const std::string_view view = low;
    const bool counting =
        std::any_of(kWords.begin(), kWords.end(),
                    [&](std::string_view word) { return view.starts_with(word) || view.ends_with(word); }) &&
        std::none_of(kNot.begin(), kNot.end(),
                     [&](std::string_view word) { return view.find(word) != std::string_view::npos; });
    if (nSomething || counting) return ScalarValue::Kind::Size;
    return std::nullopt;
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
    // 1 rather than 0: a count of 0 or a factor of 0 makes a kernel silently do nothing. A count is
    // bound to an array in fitArguments, once every array is known.
    arg.value = ScalarValue{ScalarValue::Kind::Number, 1, {}};
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
    std::vector<std::size_t> defaulted; // the parameters given a new default
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
        defaulted.push_back(i);
    }
    // A new scalar whose name says it counts is bound to the first array, before or after it.
    const auto firstArray =
        std::find_if(fitted.begin(), fitted.end(), [](const ArgumentSpec& a) { return a.isArray(); });
    for (const std::size_t i : defaulted) {
        const auto kind = countedBy(fitted[i].name);
        if (fitted[i].isArray() || !kind || firstArray == fitted.end()) continue;
        fitted[i].value = ScalarValue{*kind, 0, firstArray->name};
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
