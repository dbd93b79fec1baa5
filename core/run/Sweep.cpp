#include "Sweep.h"

#include "GridCoverage.h"
#include "core/Error.h"
#include "core/launch/RunSetup.h"
#include "core/model/FormulaFunctions.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <muParser.h>
#include <set>

namespace kp::run {

namespace {

using json = nlohmann::json;

// Larger than any array a host could hold, small enough to stay exact in a double.
constexpr double kLargestValue = 1e12;

[[noreturn]] void bad(const std::string& path, const std::string& problem) {
    throw InputError(path + ": " + problem);
}

std::string shown(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", value);
    return buffer;
}

double numberAt(const json& object, const std::string& key, const std::string& where) {
    const auto& value = object.at(key);
    if (!value.is_number()) bad(where + "." + key, "expected a number, found " + value.dump());
    return value.get<double>();
}

int wholeAt(const json& object, const std::string& key, const std::string& where) {
    const auto& value = object.at(key);
    if (!value.is_number_integer()) bad(where + "." + key, "expected a whole number, found " + value.dump());
    return value.get<int>();
}

std::string textAt(const json& object, const std::string& key, const std::string& where) {
    const auto& value = object.at(key);
    if (!value.is_string()) bad(where + "." + key, "expected text, found " + value.dump());
    return value.get<std::string>();
}

// The argument spec of an array called `name`, with its index.
std::pair<std::size_t, const model::ArgumentSpec*> arrayNamed(const model::Playground& playground,
                                                              const std::string& name) {
    for (std::size_t i = 0; i < playground.args.size(); ++i)
        if (playground.args[i].isArray() && (name.empty() || playground.args[i].name == name))
            return {i, &playground.args[i]};
    return {0, nullptr};
}

// `shape` grown or shrunk to hold about `elements`: a 1-D shape exactly, more dimensions each scaled by
// the same factor, so that a square stays a square and an image keeps its aspect ratio.
model::Shape scaled(const model::Shape& shape, std::int64_t elements) {
    if (shape.size() == 1) return {static_cast<std::size_t>(elements)};
    const double factor =
        std::pow(static_cast<double>(elements) / static_cast<double>(model::elementCount(shape)),
                 1.0 / static_cast<double>(shape.size()));
    model::Shape out;
    for (const auto d : shape)
        out.push_back(static_cast<std::size_t>(std::max(1.0, std::round(static_cast<double>(d) * factor))));
    return out;
}

} // namespace

std::string_view name(SweepParameter parameter) {
    return parameter == SweepParameter::ProblemSize ? "size" : "block";
}

std::string_view name(SweepScale scale) {
    return scale == SweepScale::Log ? "log" : "linear";
}

namespace {

// The value among `values` whose name() is the member's text; else an error naming the member.
template <typename E>
E namedAt(const json& in, const std::string& key, const std::string& where, std::initializer_list<E> values,
          const std::string& hint) {
    const auto text = textAt(in, key, where);
    for (const E value : values)
        if (name(value) == text) return value;
    bad(where + "." + key, "\"" + text + "\" is not a " + key + "; " + hint);
}

} // namespace

json SweepSpec::toJson() const {
    json out = {{"parameter", name(parameter)},
                {"scale", name(scale)},
                {"from", from},
                {"to", to},
                {"steps", steps},
                {"repeat", repeat},
                {"warmup", warmup}};
    if (!values.empty()) out["values"] = values;
    if (!backends.empty()) out["backends"] = backends;
    if (!array.empty()) out["array"] = array;
    if (!flops.empty()) out["flops"] = flops;
    return out;
}

SweepSpec SweepSpec::fromJson(const json& in, const std::string& where) {
    if (!in.is_object()) bad(where, "expected an object");
    SweepSpec spec;
    if (in.contains("parameter"))
        spec.parameter =
            namedAt(in, "parameter", where, {SweepParameter::ProblemSize, SweepParameter::BlockSize},
                    "use \"size\" (the problem size) or \"block\" (blockDim.x)");
    if (spec.parameter == SweepParameter::BlockSize) spec.from = 32, spec.to = 1024, spec.steps = 6;
    if (in.contains("scale"))
        spec.scale =
            namedAt(in, "scale", where, {SweepScale::Log, SweepScale::Linear}, "use \"log\" or \"linear\"");
    if (in.contains("from")) spec.from = numberAt(in, "from", where);
    if (in.contains("to")) spec.to = numberAt(in, "to", where);
    if (in.contains("steps")) spec.steps = wholeAt(in, "steps", where);
    if (in.contains("repeat")) spec.repeat = wholeAt(in, "repeat", where);
    if (in.contains("warmup")) spec.warmup = wholeAt(in, "warmup", where);
    if (in.contains("array")) spec.array = textAt(in, "array", where);
    if (in.contains("flops")) spec.flops = textAt(in, "flops", where);
    if (in.contains("values")) {
        const auto& values = in.at("values");
        if (!values.is_array()) bad(where + ".values", "expected an array of numbers");
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (!values[i].is_number())
                bad(where + ".values[" + std::to_string(i) + "]",
                    "expected a number, found " + values[i].dump());
            spec.values.push_back(values[i].get<double>());
        }
    }
    if (in.contains("backends")) {
        const auto& backends = in.at("backends");
        if (!backends.is_array()) bad(where + ".backends", "expected an array of backend ids");
        for (std::size_t i = 0; i < backends.size(); ++i) {
            const auto path = where + ".backends[" + std::to_string(i) + "]";
            if (!backends[i].is_string())
                bad(path, "expected a backend id such as \"cuda:0\", \"cpu\", \"cpu:1\" or \"reference\"");
            try {
                spec.backends.push_back(parseBackend(backends[i].get<std::string>()).id());
            } catch (const InputError& e) {
                bad(path, e.what());
            }
        }
    }
    if (spec.repeat < 1) bad(where + ".repeat", "must be at least 1, got " + std::to_string(spec.repeat));
    if (spec.warmup < 0) bad(where + ".warmup", "must be 0 or more, got " + std::to_string(spec.warmup));
    (void)sweepValues(spec); // a range that cannot be swept is reported where it is written
    return spec;
}

std::vector<std::int64_t> sweepValues(const SweepSpec& spec) {
    std::set<std::int64_t> out;
    const auto check = [](double value, const std::string& path) {
        if (!std::isfinite(value) || value < 1) bad(path, "must be 1 or more, got " + shown(value));
        if (value > kLargestValue)
            bad(path, shown(value) + " is more than this sweep can hold (" + shown(kLargestValue) + ")");
    };
    if (!spec.values.empty()) {
        for (std::size_t i = 0; i < spec.values.size(); ++i) {
            check(spec.values[i], "sweep.values[" + std::to_string(i) + "]");
            out.insert(std::llround(spec.values[i]));
        }
        return {out.begin(), out.end()};
    }
    check(spec.from, "sweep.from");
    check(spec.to, "sweep.to");
    if (spec.to < spec.from)
        bad("sweep.to", shown(spec.to) + " is below sweep.from (" + shown(spec.from) + "); a sweep goes up");
    if (spec.steps < 2 || spec.steps > 1000)
        bad("sweep.steps", "must be from 2 to 1000 points, got " + std::to_string(spec.steps));
    for (int i = 0; i < spec.steps; ++i) {
        const double t = static_cast<double>(i) / (spec.steps - 1);
        const double value = spec.scale == SweepScale::Log ? spec.from * std::pow(spec.to / spec.from, t)
                                                           : spec.from + t * (spec.to - spec.from);
        out.insert(std::llround(value));
    }
    return {out.begin(), out.end()};
}

double evaluateFlops(const std::string& formula, double n) {
    mu::Parser parser;
    double variable = n;
    try {
        parser.DefineVar("n", &variable);
        model::defineFormulaFunctions(parser);
        parser.SetExpr(formula);
        const double value = parser.Eval();
        if (!std::isfinite(value) || value < 0)
            bad("sweep.flops", "the formula \"" + formula + "\" gives " + shown(value) +
                                   " at n = " + shown(n) + "; a count of operations is 0 or more");
        return value;
    } catch (const mu::Parser::exception_type& error) {
        bad("sweep.flops",
            "the formula \"" + formula + "\" is not valid: " + error.GetMsg() +
                ". It may use n (the swept array's elements), numbers, + - * / ^ and sqrt, log, ...");
    }
}

namespace {

// A program's launches have their own blocks: a block-size sweep sets the program's variable "block", which
// its launch steps use where the sweep is to change them.
std::vector<std::pair<std::string, std::string>>::iterator blockVariable(model::Playground& playground) {
    return std::find_if(playground.variables.begin(), playground.variables.end(),
                        [](const auto& variable) { return variable.first == "block"; });
}

} // namespace

SweepPlan planSweep(const model::Playground& playground, const SweepSpec& spec) {
    const auto values = sweepValues(spec);
    if (spec.parameter == SweepParameter::BlockSize && playground.isProgram()) {
        auto copy = playground;
        if (blockVariable(copy) == copy.variables.end())
            bad("sweep.parameter",
                "a block-size sweep of a program sets its variable \"block\", and this program has none: add "
                "\"block\" to its variables and use it in the launch steps whose block the sweep should "
                "change");
    }
    if (!spec.flops.empty()) (void)evaluateFlops(spec.flops, 1000);
    for (const auto& id : spec.backends)
        if (parseBackend(id).kind == Backend::Kind::Reference && !playground.reference)
            throw InputError("sweep.backends: \"reference\" is named but the playground has no reference");

    SweepPlan plan;
    const auto [leadIndex, lead] = arrayNamed(playground, spec.array);
    if (!lead) {
        if (!spec.array.empty()) {
            std::string names;
            for (const auto& arg : playground.args)
                if (arg.isArray()) names += (names.empty() ? "" : ", ") + arg.name;
            bad("sweep.array", "\"" + spec.array + "\" is not an array argument of the playground" +
                                   (names.empty() ? std::string() : " (its arrays: " + names + ")"));
        }
        throw launch::SetupError({"args: the playground has no array argument to sweep"});
    }
    plan.array = lead->name;

    // The dimensions of the swept array, and the arrays made only of them: those follow its size.
    const model::Shape& leadShape = lead->array().shape;
    const std::set<std::size_t> leadDims(leadShape.begin(), leadShape.end());
    std::vector<std::size_t> followers;
    bool autoGrid = playground.launch.autoGrid;
    if (spec.parameter == SweepParameter::ProblemSize) {
        for (std::size_t i = 0; i < playground.args.size(); ++i) {
            const auto& arg = playground.args[i];
            if (!arg.isArray()) continue;
            const auto& shape = arg.array().shape;
            if (i != leadIndex &&
                !std::all_of(shape.begin(), shape.end(), [&](std::size_t d) { return leadDims.contains(d); }))
                continue;
            if (arg.init && arg.init->kind == model::InitSpec::Kind::File)
                bad("args[" + std::to_string(i) + "].init.file",
                    "\"" + arg.init->file + "\" has a fixed shape, so " + arg.name +
                        " cannot change size in a sweep; fill it with a generator (random, range, formula) "
                        "instead");
            followers.push_back(i);
            plan.resized.push_back(arg.name);
        }
        // A number that equals the swept size will not follow it: say how to make it follow.
        const std::uint64_t baseElements = model::elementCount(leadShape);
        for (std::size_t i = 0; i < playground.args.size(); ++i) {
            const auto& arg = playground.args[i];
            if (arg.isArray() || !arg.value || arg.value->kind != model::ScalarValue::Kind::Number) continue;
            const double number = arg.value->number;
            if (number == static_cast<double>(baseElements) ||
                leadDims.contains(static_cast<std::size_t>(number)))
                plan.notes.push_back("args[" + std::to_string(i) + "] " + arg.name + " is the number " +
                                     shown(number) + ", a size of " + lead->name + ": it stays " +
                                     shown(number) + " at every point. Write size(" + lead->name +
                                     ") (or rows, cols) to make it follow.");
        }
    }
    // A fixed grid would leave larger arrays, or the same array with smaller blocks, uncovered unless
    // the kernel strides over them.
    if (!playground.isProgram() && !playground.launch.autoGrid) {
        const auto kernel = launch::prepareKernel(playground);
        if (!readsGridDim(kernel.source, kernel.signature.line)) {
            autoGrid = true;
            plan.notes.push_back(
                "launch.grid is fixed at [" + std::to_string(playground.launch.grid[0]) + ", " +
                std::to_string(playground.launch.grid[1]) + ", " + std::to_string(playground.launch.grid[2]) +
                "] and the kernel does not loop over gridDim: the sweep uses grid \"auto\" so that "
                "every point is covered.");
        }
    }

    std::set<std::uint64_t> seen;
    std::vector<std::int64_t> merged;
    for (const auto value : values) {
        SweepPoint point{value, 0, playground};
        point.playground.launch.autoGrid = autoGrid;
        if (spec.parameter == SweepParameter::ProblemSize) {
            const model::Shape newShape = scaled(leadShape, value);
            std::map<std::size_t, std::size_t> dimension; // old size -> new, along the swept array's axes
            for (std::size_t d = 0; d < leadShape.size(); ++d)
                dimension.emplace(leadShape[d], newShape[d]);
            for (const auto i : followers) {
                auto& shape = std::get<model::ArraySpec>(point.playground.args[i].type).shape;
                for (auto& d : shape)
                    d = dimension.at(d);
            }
            point.elements = model::elementCount(newShape);
            if (!seen.insert(point.elements).second) {
                merged.push_back(value);
                continue;
            }
        } else if (point.playground.isProgram()) {
            blockVariable(point.playground)->second = std::to_string(value);
            point.elements = model::elementCount(leadShape);
        } else {
            point.playground.launch.block[0] =
                static_cast<std::uint32_t>(std::min<std::int64_t>(value, 0xffffffff));
            point.elements = model::elementCount(leadShape);
        }
        plan.points.push_back(std::move(point));
    }
    if (!merged.empty())
        plan.notes.push_back(std::to_string(merged.size()) + (merged.size() == 1 ? " value" : " values") +
                             " rounded to a shape already in the sweep and " +
                             (merged.size() == 1 ? "was" : "were") + " left out: " + lead->name +
                             " keeps its aspect ratio, so not every element count is a shape.");
    return plan;
}

} // namespace kp::run
