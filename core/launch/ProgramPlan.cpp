#include "ProgramPlan.h"

#include "ProgramExpressions.h"
#include "core/Lines.h"
#include "core/Overloaded.h"
#include "core/model/Program.h"
#include "core/model/ScalarBinding.h"
#include "core/source/DeviceVariables.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace kp::launch {

namespace {

constexpr std::uint64_t kUint32Max = std::numeric_limits<std::uint32_t>::max();
// A scratch buffer, like an argument, is at most 64 GiB: a shared file must not reserve the machine.
constexpr std::uint64_t kLargestBufferBytes = std::uint64_t{1} << 36;

std::string element(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

std::string joined(const std::vector<std::string>& names) {
    return names.empty() ? "none" : join(names, ", ");
}

bool isIdentifier(std::string_view text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\n");
    return std::string(text.substr(first, last - first + 1));
}

// What a name stands for at a point of the program: a part of one of its buffers.
struct Binding {
    std::uint32_t buffer = 0;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    model::DType dtype = model::DType::Float32;
    model::Shape shape;
};

// A place as a step writes it, "name" or "name + offset", split.
struct PlaceText {
    std::string name;
    std::string offset; // empty: 0
};

std::optional<PlaceText> splitPlace(const std::string& text) {
    const auto plus = text.find('+');
    PlaceText place{trimmed(text.substr(0, plus)),
                    plus == std::string::npos ? "" : trimmed(text.substr(plus + 1))};
    if (!isIdentifier(place.name) || (plus != std::string::npos && place.offset.empty())) return std::nullopt;
    return place;
}

// Every name a step sets (variables and counters), depth first.
void collectVariables(const std::vector<model::Step>& steps,
                      std::vector<std::pair<std::string, std::string>>& out, const std::string& path) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string where = element(path, i);
        if (const auto* set = std::get_if<model::SetStep>(&steps[i].action))
            for (const auto& [name, value] : set->variables)
                out.emplace_back(name, where + ".set." + name);
        if (const auto* loop = std::get_if<model::RepeatStep>(&steps[i].action)) {
            if (!loop->counter.empty()) out.emplace_back(loop->counter, where + ".repeat.counter");
            collectVariables(loop->steps, out, where + ".steps");
        }
    }
}

class Planner {
public:
    Planner(const model::Playground& playground, const std::string& source, std::string sourceName,
            const model::ParseResult& parsed)
        : playground_(playground), sourceName_(std::move(sourceName)), parsed_(parsed),
          deviceVariables_(source::deviceVariables(source)) {}

    Program plan();

private:
    void problem(const std::string& text) { problems_.push_back(text); }
    void declareNames();
    void bindArguments();
    void evaluateVariables();
    void planBuffers();
    void registerSteps(const std::vector<model::Step>& steps, const std::string& path, int depth, int parent);
    void checkStep(const model::Step& step, const std::string& path);
    void checkLaunch(const model::LaunchStep& step, const std::string& path);
    void checkName(const std::string& name, const std::string& where, const std::string& what);
    void checkExpression(const std::string& text, const std::string& where);
    void checkPlace(const std::string& text, const std::string& where);

    void run(const std::vector<model::Step>& steps, std::uint64_t pass);
    void runStep(const model::Step& step, std::uint64_t pass);
    void runLaunch(const model::LaunchStep& step, const std::string& path, std::uint32_t index,
                   std::uint64_t pass);
    void runCopy(const model::CopyStep& step, const std::string& path, std::uint32_t index,
                 std::uint64_t pass);
    void runFill(const model::FillStep& step, const std::string& path, std::uint32_t index,
                 std::uint64_t pass);
    void runSwap(const model::SwapStep& step, const std::string& path);
    void runSymbol(const model::SymbolStep& step, const std::string& path, std::uint32_t index,
                   std::uint64_t pass);
    void runRepeat(const model::RepeatStep& step, const std::string& path, std::uint32_t index);

    void add(Operation operation);
    const Binding& bound(const std::string& name, const std::string& where) const;
    // The place `text` names and how many elements it has up to its buffer's end.
    std::pair<BufferPlace, Binding> place(const std::string& text, const std::string& where);
    std::uint32_t instance(const model::LaunchStep& step, const std::string& path);
    std::string templateArgument(const std::string& text, const std::string& declared,
                                 const std::string& where);
    const model::KernelSignature* kernel(const std::string& name) const;

    const model::Playground& playground_;
    const std::string sourceName_;
    const model::ParseResult& parsed_;
    const std::vector<source::DeviceVariable> deviceVariables_;
    std::vector<std::string> problems_;
    std::vector<std::string> variableNames_;
    std::vector<std::string> bufferNames_;
    std::unique_ptr<ProgramExpressions> expressions_;
    std::map<std::string, Binding> names_;
    std::unordered_map<const model::Step*, std::uint32_t> stepIndex_;
    std::map<std::string, std::uint32_t> instances_;
    Program program_;
};

const model::KernelSignature* Planner::kernel(const std::string& name) const {
    return model::findKernel(parsed_, name);
}

void Planner::declareNames() {
    std::set<std::string> buffers;
    for (const auto& arg : playground_.args)
        if (arg.isArray()) buffers.insert(arg.name);
    for (std::size_t i = 0; i < playground_.buffers.size(); ++i) {
        const auto& buffer = playground_.buffers[i];
        const std::string where = element("buffers", i) + ".name";
        if (!isIdentifier(buffer.name))
            problem(where + ": \"" + buffer.name +
                    "\" is not a name (letters, digits and _, not starting with a digit)");
        else if (!buffers.insert(buffer.name).second)
            problem(where + ": \"" + buffer.name + "\" is already the name of an argument or another buffer");
    }
    bufferNames_.assign(buffers.begin(), buffers.end());

    std::vector<std::pair<std::string, std::string>> declared; // name, where
    for (std::size_t i = 0; i < playground_.args.size(); ++i)
        if (!playground_.args[i].isArray())
            declared.emplace_back(playground_.args[i].name, element("args", i));
    for (std::size_t i = 0; i < playground_.variables.size(); ++i)
        declared.emplace_back(playground_.variables[i].first, "variables." + playground_.variables[i].first);
    collectVariables(playground_.steps, declared, "steps");
    std::set<std::string> variables;
    for (const auto& [name, where] : declared) {
        if (!isIdentifier(name)) {
            problem(where + ": \"" + name +
                    "\" is not a name (letters, digits and _, not starting with a digit)");
            continue;
        }
        if (buffers.contains(name)) {
            problem(where + ": \"" + name + "\" is the name of a buffer; a variable needs a name of its own");
            continue;
        }
        variables.insert(name);
    }
    variableNames_.assign(variables.begin(), variables.end());
    expressions_ = std::make_unique<ProgramExpressions>(variableNames_, bufferNames_);
}

void Planner::bindArguments() {
    program_.argumentBuffer.assign(playground_.args.size(), -1);
    for (std::size_t i = 0; i < playground_.args.size(); ++i) {
        const auto& arg = playground_.args[i];
        if (!arg.isArray()) {
            try {
                if (!arg.value)
                    throw InputError(element("args", i) + ".value: missing; a scalar needs a value");
                expressions_->set(arg.name, model::evaluate(arg, playground_));
            } catch (const InputError& e) {
                problem(e.what());
            }
            continue;
        }
        const auto& array = arg.array();
        const auto index = static_cast<std::uint32_t>(program_.buffers.size());
        program_.buffers.push_back({arg.name, array.dtype, array.shape, static_cast<int>(i)});
        program_.argumentBuffer[i] = static_cast<int>(index);
        names_[arg.name] = {index, 0, model::elementCount(array.shape), array.dtype, array.shape};
        expressions_->setShape(arg.name, array.shape);
    }
}

// The program's variables may use each other in any order (the file keeps them as an object): each
// round gives a value to those whose names have one, until none is left or a round gives none.
void Planner::evaluateVariables() {
    std::vector<std::pair<std::string, std::string>> left;
    for (const auto& variable : playground_.variables)
        if (expressions_->isVariable(variable.first)) left.push_back(variable); // else declareNames said why
    while (!left.empty()) {
        std::vector<std::pair<std::string, std::string>> waiting;
        std::vector<std::string> failures;
        for (const auto& [name, text] : left) {
            try {
                expressions_->set(name, expressions_->evaluate(text, "variables." + name));
            } catch (const InputError& e) {
                waiting.emplace_back(name, text);
                failures.push_back(e.what());
            }
        }
        if (waiting.size() == left.size()) {
            problems_.insert(problems_.end(), failures.begin(), failures.end());
            return;
        }
        left = std::move(waiting);
    }
}

void Planner::planBuffers() {
    for (std::size_t i = 0; i < playground_.buffers.size(); ++i) {
        const auto& spec = playground_.buffers[i];
        const std::string path = element("buffers", i);
        if (!isIdentifier(spec.name) || names_.contains(spec.name)) continue; // declareNames said why
        try {
            if (spec.isView()) {
                const std::string where = path + ".view";
                const auto it = names_.find(spec.of);
                if (it == names_.end())
                    throw InputError(where + ".of: there is no buffer or array argument \"" + spec.of +
                                     "\" before this one (there are: " + joined(bufferNames_) + ")");
                const Binding base = it->second;
                const std::uint64_t offset = expressions_->whole(spec.offset, where + ".offset", 0,
                                                                 base.length, "an offset into " + spec.of);
                const std::uint64_t length =
                    spec.length.empty() ? base.length - offset
                                        : expressions_->whole(spec.length, where + ".length", 1, base.length,
                                                              "a length within " + spec.of);
                if (length == 0)
                    throw InputError(where + ".offset: the view starts at the end of " + spec.of +
                                     " and holds nothing");
                if (offset + length > base.length)
                    throw InputError(where + ": elements " + std::to_string(offset) + " to " +
                                     std::to_string(offset + length - 1) + " are outside " + spec.of +
                                     ", which has " + std::to_string(base.length) + " elements");
                names_[spec.name] = {base.buffer, base.offset + offset, length, base.dtype, {length}};
                expressions_->setShape(spec.name, {length});
                continue;
            }
            if (spec.shape.empty() || spec.shape.size() > 3)
                throw InputError(path + ".array.shape: expected 1 to 3 dimensions, found " +
                                 std::to_string(spec.shape.size()));
            model::Shape shape;
            for (std::size_t d = 0; d < spec.shape.size(); ++d)
                shape.push_back(expressions_->whole(spec.shape[d], element(path + ".array.shape", d), 1,
                                                    kLargestBufferBytes, "a dimension"));
            const std::uint64_t bytes = model::elementCount(shape) * model::byteSize(spec.dtype);
            if (bytes > kLargestBufferBytes || model::elementCount(shape) > kLargestBufferBytes)
                throw InputError(path + ".array.shape: the buffer would take more than 64 GiB");
            const auto index = static_cast<std::uint32_t>(program_.buffers.size());
            program_.buffers.push_back({spec.name, spec.dtype, shape, -1});
            names_[spec.name] = {index, 0, model::elementCount(shape), spec.dtype, shape};
            expressions_->setShape(spec.name, shape);
        } catch (const InputError& e) {
            problem(e.what());
        }
    }
}

void Planner::registerSteps(const std::vector<model::Step>& steps, const std::string& path, int depth,
                            int parent) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto& step = steps[i];
        const std::string where = element(path, i);
        stepIndex_[&step] = static_cast<std::uint32_t>(program_.steps.size());
        const auto index = static_cast<int>(program_.steps.size());
        program_.steps.push_back({where, std::string(model::kindName(step)),
                                  step.title.empty() ? model::describe(step) : step.title, depth, parent, 0});
        checkStep(step, where);
        if (const auto* loop = std::get_if<model::RepeatStep>(&step.action))
            registerSteps(loop->steps, where + ".steps", depth + 1, index);
    }
}

void Planner::checkName(const std::string& name, const std::string& where, const std::string& what) {
    if (names_.contains(name)) return;
    if (expressions_->isVariable(name)) {
        problem(where + ": \"" + name + "\" is a number, not a buffer; " + what);
        return;
    }
    problem(where + ": there is no buffer or array argument \"" + name +
            "\" (there are: " + joined(bufferNames_) + "); " + what);
}

void Planner::checkExpression(const std::string& text, const std::string& where) {
    if (auto why = expressions_->problem(text)) problem(where + ": " + *why);
}

void Planner::checkPlace(const std::string& text, const std::string& where) {
    const auto place = splitPlace(text);
    if (!place) {
        problem(where + ": \"" + text +
                "\" is not a place in a buffer; write a buffer's name, or name + offset "
                "(\"data + 256\")");
        return;
    }
    checkName(place->name, where, "a pointer is a buffer's name, or name + offset");
    if (!place->offset.empty()) checkExpression(place->offset, where);
}

void Planner::checkLaunch(const model::LaunchStep& step, const std::string& path) {
    const std::string base = trimmed(step.kernel.substr(0, step.kernel.find('<')));
    const auto* signature = kernel(base);
    if (!signature) {
        std::vector<std::string> known;
        for (const auto& k : parsed_.kernels)
            known.push_back(k.name);
        problem(path + ".kernel: there is no __global__ function \"" + base + "\" in " + sourceName_ +
                " (it declares: " + joined(known) + ")");
        return;
    }
    if (!step.templateArgs.empty() && step.kernel.find('<') != std::string::npos)
        problem(path + ".template: the kernel's name already gives its template arguments (\"" + step.kernel +
                "\"); give them in one place");
    if (!step.templateArgs.empty() && !signature->isTemplate)
        problem(path + ".template: " + base + " is not a template kernel; remove the template arguments");
    const auto& parameters = signature->parameters;
    if (step.args.size() != parameters.size()) {
        std::string list;
        for (const auto& p : parameters)
            list += (list.empty() ? "" : ", ") + p.typeText + " " + p.name;
        problem(path + ".args: the kernel " + base + "(" + list + ") takes " +
                std::to_string(parameters.size()) + " argument" + (parameters.size() == 1 ? "" : "s") +
                " but the step gives " + std::to_string(step.args.size()));
        return;
    }
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const std::string where = element(path + ".args", i);
        if (parameters[i].pointer)
            checkPlace(step.args[i], where);
        else if (names_.contains(trimmed(step.args[i])))
            problem(where + ": the kernel's parameter " + parameters[i].name + " is the scalar \"" +
                    parameters[i].typeText + "\", so it needs a number, not the buffer \"" +
                    trimmed(step.args[i]) + "\"");
        else
            checkExpression(step.args[i], where);
    }
    if (step.block.empty() || step.block.size() > 3) problem(path + ".block: expected 1 to 3 dimensions");
    if (step.grid.size() > 3) problem(path + ".grid: expected \"auto\" or 1 to 3 dimensions");
    for (std::size_t i = 0; i < step.block.size(); ++i)
        checkExpression(step.block[i], element(path + ".block", i));
    for (std::size_t i = 0; i < step.grid.size(); ++i)
        checkExpression(step.grid[i], element(path + ".grid", i));
    checkExpression(step.sharedBytes, path + ".shared_bytes");
}

void Planner::checkStep(const model::Step& step, const std::string& path) {
    std::visit(
        Overloaded{
            [&](const model::LaunchStep& s) { checkLaunch(s, path + ".launch"); },
            [&](const model::CopyStep& s) {
                checkPlace(s.from, path + ".copy.from");
                checkPlace(s.to, path + ".copy.to");
                if (!s.count.empty()) checkExpression(s.count, path + ".copy.count");
            },
            [&](const model::FillStep& s) {
                checkPlace(s.buffer, path + ".fill.buffer");
                checkExpression(s.value, path + ".fill.value");
                if (!s.count.empty()) checkExpression(s.count, path + ".fill.count");
            },
            [&](const model::SwapStep& s) {
                checkName(s.first, path + ".swap[0]", "a swap exchanges two buffers");
                checkName(s.second, path + ".swap[1]", "a swap exchanges two buffers");
                if (s.first == s.second) problem(path + ".swap: \"" + s.first + "\" is swapped with itself");
            },
            [&](const model::SymbolStep& s) {
                const auto found = std::find_if(deviceVariables_.begin(), deviceVariables_.end(),
                                                [&](const auto& v) { return v.name == s.symbol; });
                if (found == deviceVariables_.end()) {
                    std::vector<std::string> known;
                    for (const auto& v : deviceVariables_)
                        known.push_back(v.name);
                    problem(path + ".symbol.name: " + sourceName_ +
                            " declares no __constant__ or __device__ "
                            "variable \"" +
                            s.symbol + "\" (it declares: " + joined(known) + ")");
                }
                if (s.from.empty() == s.values.empty())
                    problem(path + ".symbol: give either \"from\" (a buffer) or \"values\" (numbers)");
                if (!s.from.empty()) checkPlace(s.from, path + ".symbol.from");
                for (std::size_t i = 0; i < s.values.size(); ++i)
                    checkExpression(s.values[i], element(path + ".symbol.values", i));
            },
            [&](const model::SetStep& s) {
                for (const auto& [name, value] : s.variables)
                    checkExpression(value, path + ".set." + name);
            },
            [&](const model::RepeatStep& s) {
                if (s.times.empty() && s.condition.empty())
                    problem(path + ".repeat: needs \"times\" or \"while\", or it would never end");
                if (!s.times.empty()) checkExpression(s.times, path + ".repeat.times");
                if (!s.condition.empty()) checkExpression(s.condition, path + ".repeat.while");
                if (!s.counter.empty()) checkExpression(s.from, path + ".repeat.from");
                if (!s.next.empty()) checkExpression(s.next, path + ".repeat.next");
                if (!s.next.empty() && s.counter.empty())
                    problem(path +
                            ".repeat.next: there is no counter to give the next value to; add \"counter\"");
                if (s.steps.empty()) problem(path + ".steps: the loop has no steps");
            },
        },
        step.action);
}

const Binding& Planner::bound(const std::string& name, const std::string& where) const {
    const auto it = names_.find(name);
    if (it == names_.end()) throw InputError(where + ": there is no buffer \"" + name + "\"");
    return it->second;
}

std::pair<BufferPlace, Binding> Planner::place(const std::string& text, const std::string& where) {
    const auto spelled = splitPlace(text);
    if (!spelled) throw InputError(where + ": \"" + text + "\" is not a place in a buffer");
    Binding binding = bound(spelled->name, where);
    const std::uint64_t offset = spelled->offset.empty()
                                     ? 0
                                     : expressions_->whole(spelled->offset, where, 0, binding.length,
                                                           "an offset into " + spelled->name);
    binding.offset += offset;
    binding.length -= offset;
    if (offset > 0) binding.shape = {binding.length};
    return {BufferPlace{binding.buffer, binding.offset}, binding};
}

void Planner::add(Operation operation) {
    if (program_.operations.size() >= kMaxOperations)
        throw InputError(program_.steps[operation.step].path + ": the program has run " +
                         std::to_string(kMaxOperations) +
                         " launches, copies and fills, Kernelpad's limit for one run: does a loop end?");
    program_.operations.push_back(std::move(operation));
}

std::string Planner::templateArgument(const std::string& text, const std::string& declared,
                                      const std::string& where) {
    const std::string head = trimmed(declared.substr(0, declared.find('=')));
    if (head.starts_with("typename") || head.starts_with("class") || head.empty()) {
        // A type, as written: letters, digits, _, ::, <, >, *, commas and blanks.
        const bool typeLike = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) ||
                   std::string_view("_:<>*, ").find(c) != std::string_view::npos;
        });
        if (!typeLike) throw InputError(where + ": \"" + text + "\" is not a type for \"" + declared + "\"");
        return trimmed(text);
    }
    const double value = expressions_->evaluate(text, where);
    if (value != std::trunc(value))
        throw InputError(where + ": \"" + text + "\" is " + std::to_string(value) +
                         ", not a whole number, for \"" + declared + "\"");
    if (head.starts_with("bool")) return value != 0 ? "true" : "false";
    return std::to_string(static_cast<long long>(value));
}

std::uint32_t Planner::instance(const model::LaunchStep& step, const std::string& path) {
    const std::string base = trimmed(step.kernel.substr(0, step.kernel.find('<')));
    const auto* signature = kernel(base);
    std::string name = trimmed(step.kernel);
    if (!step.templateArgs.empty()) {
        const auto& declared = signature->templateParameters;
        if (step.templateArgs.size() > declared.size())
            throw InputError(path + ".template: " + base + " has " + std::to_string(declared.size()) +
                             " template parameters but the step gives " +
                             std::to_string(step.templateArgs.size()));
        name = base + "<";
        for (std::size_t i = 0; i < step.templateArgs.size(); ++i)
            name += (i ? ", " : "") +
                    templateArgument(step.templateArgs[i], declared[i], element(path + ".template", i));
        name += ">";
    }
    if (const auto it = instances_.find(name); it != instances_.end()) return it->second;
    KernelInstance made{name, *signature};
    bindTemplateArguments(made.signature, name);
    const auto index = static_cast<std::uint32_t>(program_.kernels.size());
    program_.kernels.push_back(std::move(made));
    instances_[name] = index;
    return index;
}

void Planner::runLaunch(const model::LaunchStep& step, const std::string& path, std::uint32_t index,
                        std::uint64_t pass) {
    LaunchOperation launch;
    launch.kernel = instance(step, path + ".launch");
    const auto& signature = program_.kernels[launch.kernel].signature;
    const auto& parameters = signature.parameters;
    std::optional<model::Shape> firstArray;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const auto& parameter = parameters[i];
        const std::string where = element(path + ".launch.args", i);
        const std::string declared = parameter.typeText + " " + parameter.name;
        LaunchArgument arg;
        arg.pointer = parameter.pointer;
        if (parameter.pointer) {
            const auto [at, binding] = place(step.args[i], where);
            if (parameter.dtype && *parameter.dtype != binding.dtype)
                throw InputError(where + ": the kernel's parameter " + std::to_string(i) + " is \"" +
                                 declared + "\" (" + std::string(model::name(*parameter.dtype)) + ") but \"" +
                                 step.args[i] + "\" holds " + std::string(model::name(binding.dtype)) +
                                 " (buffers are never converted silently)");
            arg.place = at;
            arg.elements = binding.length;
            arg.name = trimmed(step.args[i]);
            if (!firstArray) firstArray = binding.shape;
        } else {
            if (!parameter.unresolvedType.empty() || !parameter.dtype)
                throw InputError(
                    where + ": the kernel's parameter " + std::to_string(i) + " is \"" + declared +
                    "\", and Kernelpad cannot tell which dtype it is; declare it with a built-in type "
                    "such as float or int");
            arg.scalarType = *parameter.dtype;
            arg.bytes =
                model::scalarBytes(arg.scalarType, expressions_->evaluate(step.args[i], where), where);
        }
        launch.args.push_back(std::move(arg));
    }
    auto& g = launch.geometry;
    for (std::size_t d = 0; d < step.block.size() && d < 3; ++d)
        g.block[d] = static_cast<std::uint32_t>(expressions_->whole(
            step.block[d], element(path + ".launch.block", d), 1, kUint32Max, "a block dimension"));
    if (step.grid.empty()) {
        if (!firstArray)
            throw InputError(path +
                             ".launch.grid: \"auto\" covers the first pointer argument, and the kernel takes "
                             "none; give the grid");
        g.grid = autoGrid(*firstArray, g.block);
    }
    for (std::size_t d = 0; d < step.grid.size() && d < 3; ++d)
        g.grid[d] = static_cast<std::uint32_t>(expressions_->whole(
            step.grid[d], element(path + ".launch.grid", d), 1, kUint32Max, "a grid dimension"));
    g.sharedBytes = static_cast<std::uint32_t>(expressions_->whole(
        step.sharedBytes, path + ".launch.shared_bytes", 0, kUint32Max, "a number of bytes"));
    // CUDA's own limits, which every device and the CPU backend share; the runners check the device's.
    LaunchLimits limits;
    limits.maxSharedBytesPerBlock = std::numeric_limits<std::uint64_t>::max();
    if (auto problems = validate(g, limits); !problems.empty()) {
        for (auto& p : problems)
            if (p.starts_with("launch.")) p = path + ".launch." + p.substr(7);
        throw SetupError(problems);
    }
    add({index, pass, std::move(launch)});
}

void Planner::runCopy(const model::CopyStep& step, const std::string& path, std::uint32_t index,
                      std::uint64_t pass) {
    const auto [from, source] = place(step.from, path + ".copy.from");
    const auto [to, target] = place(step.to, path + ".copy.to");
    if (source.dtype != target.dtype)
        throw InputError(path + ".copy: \"" + step.from + "\" holds " +
                         std::string(model::name(source.dtype)) + " and \"" + step.to + "\" " +
                         std::string(model::name(target.dtype)) +
                         "; a copy moves elements of one type (copy through a kernel to convert)");
    const std::uint64_t count =
        step.count.empty()
            ? std::min(source.length, target.length)
            : expressions_->whole(step.count, path + ".copy.count", 1, std::min(source.length, target.length),
                                  "a count that fits both \"" + step.from + "\" (" +
                                      std::to_string(source.length) + " elements) and \"" + step.to + "\" (" +
                                      std::to_string(target.length) + ")");
    if (from.buffer == to.buffer && from.offset < to.offset + count && to.offset < from.offset + count)
        throw InputError(path + ".copy: \"" + step.from + "\" and \"" + step.to +
                         "\" overlap in one buffer; copy through a scratch buffer");
    add({index, pass, CopyOperation{from, to, count}});
}

void Planner::runFill(const model::FillStep& step, const std::string& path, std::uint32_t index,
                      std::uint64_t pass) {
    const auto [to, target] = place(step.buffer, path + ".fill.buffer");
    const std::uint64_t count = step.count.empty()
                                    ? target.length
                                    : expressions_->whole(step.count, path + ".fill.count", 1, target.length,
                                                          "a count within \"" + step.buffer + "\"");
    const double value = expressions_->evaluate(step.value, path + ".fill.value");
    add({index, pass,
         FillOperation{to, count, model::scalarBytes(target.dtype, value, path + ".fill.value")}});
}

void Planner::runSwap(const model::SwapStep& step, const std::string& path) {
    Binding& first = names_.at(step.first);
    Binding& second = names_.at(step.second);
    if (first.dtype != second.dtype || first.length != second.length)
        throw InputError(path + ".swap: \"" + step.first + "\" (" + std::to_string(first.length) + " " +
                         std::string(model::name(first.dtype)) + ") and \"" + step.second + "\" (" +
                         std::to_string(second.length) + " " + std::string(model::name(second.dtype)) +
                         ") differ; only buffers of the same type and size can change places");
    std::swap(first, second);
    expressions_->setShape(step.first, first.shape);
    expressions_->setShape(step.second, second.shape);
}

void Planner::runSymbol(const model::SymbolStep& step, const std::string& path, std::uint32_t index,
                        std::uint64_t pass) {
    const auto declared = std::find_if(deviceVariables_.begin(), deviceVariables_.end(),
                                       [&](const auto& v) { return v.name == step.symbol; });
    auto known = std::find_if(program_.symbols.begin(), program_.symbols.end(),
                              [&](const ProgramSymbol& s) { return s.name == step.symbol; });
    if (known == program_.symbols.end())
        known = program_.symbols.insert(program_.symbols.end(),
                                        {declared->name, model::dtypeOfType(declared->type), declared->line});
    SymbolOperation write;
    write.symbol = static_cast<std::uint32_t>(known - program_.symbols.begin());
    if (!step.from.empty()) {
        const auto [from, source] = place(step.from, path + ".symbol.from");
        if (known->dtype && *known->dtype != source.dtype)
            throw InputError(path + ".symbol.from: " + step.symbol + " is declared \"" + declared->type +
                             "\" (" + std::string(model::name(*known->dtype)) + ") but \"" + step.from +
                             "\" holds " + std::string(model::name(source.dtype)));
        write.from = from;
        write.bytes = source.length * model::byteSize(source.dtype);
    } else {
        if (!known->dtype)
            throw InputError(
                path + ".symbol.values: " + step.symbol + " is declared \"" + declared->type +
                "\", a type Kernelpad cannot write numbers into; fill a buffer and give it as \"from\"");
        for (std::size_t i = 0; i < step.values.size(); ++i) {
            const std::string where = element(path + ".symbol.values", i);
            const auto bytes =
                model::scalarBytes(*known->dtype, expressions_->evaluate(step.values[i], where), where);
            write.values.insert(write.values.end(), bytes.begin(), bytes.end());
        }
        write.bytes = write.values.size();
    }
    add({index, pass, std::move(write)});
}

void Planner::runRepeat(const model::RepeatStep& step, const std::string& path, std::uint32_t index) {
    const std::string where = path + ".repeat";
    const std::uint64_t limit = step.limit ? step.limit : kDefaultLoopLimit;
    const bool counted = !step.times.empty();
    const std::uint64_t times = counted
                                    ? expressions_->whole(step.times, where + ".times", 0, limit,
                                                          "a number of passes (\"limit\" raises the most)")
                                    : 0;
    if (!step.counter.empty())
        expressions_->set(step.counter, expressions_->evaluate(step.from, where + ".from"));
    for (std::uint64_t pass = 0;; ++pass) {
        if (counted && pass >= times) break;
        if (!step.condition.empty() && expressions_->evaluate(step.condition, where + ".while") == 0) break;
        if (pass >= limit) {
            std::string values;
            for (const auto& name : variableNames_)
                if (step.condition.find(name) != std::string::npos)
                    if (const auto v = expressions_->value(name))
                        values += (values.empty() ? " (" : ", ") + name + " = " + std::to_string(*v);
            throw InputError(where + ": the loop has run " + std::to_string(limit) + " passes and \"" +
                             step.condition + "\" still holds" + (values.empty() ? "" : values + ")") +
                             ": does it ever end? Nothing ran. If it should go on, raise its \"limit\"");
        }
        ++program_.steps[index].calls;
        run(step.steps, pass);
        if (!step.counter.empty())
            expressions_->set(step.counter, step.next.empty()
                                                ? *expressions_->value(step.counter) + 1
                                                : expressions_->evaluate(step.next, where + ".next"));
    }
}

void Planner::runStep(const model::Step& step, std::uint64_t pass) {
    const std::uint32_t index = stepIndex_.at(&step);
    const std::string& path = program_.steps[index].path;
    if (!std::holds_alternative<model::RepeatStep>(step.action)) ++program_.steps[index].calls;
    std::visit(
        Overloaded{
            [&](const model::LaunchStep& s) { runLaunch(s, path, index, pass); },
            [&](const model::CopyStep& s) { runCopy(s, path, index, pass); },
            [&](const model::FillStep& s) { runFill(s, path, index, pass); },
            [&](const model::SwapStep& s) { runSwap(s, path); },
            [&](const model::SymbolStep& s) { runSymbol(s, path, index, pass); },
            [&](const model::SetStep& s) { // every value first, then every name: {"a": "b", "b": "a"} swaps
                std::vector<double> values;
                for (const auto& [name, value] : s.variables)
                    values.push_back(expressions_->evaluate(value, path + ".set." + name));
                for (std::size_t i = 0; i < values.size(); ++i)
                    expressions_->set(s.variables[i].first, values[i]);
            },
            [&](const model::RepeatStep& s) { runRepeat(s, path, index); },
        },
        step.action);
}

void Planner::run(const std::vector<model::Step>& steps, std::uint64_t pass) {
    for (const auto& step : steps)
        runStep(step, pass);
}

bool launches(const std::vector<model::Step>& steps) {
    return std::any_of(steps.begin(), steps.end(), [](const model::Step& step) {
        if (std::holds_alternative<model::LaunchStep>(step.action)) return true;
        const auto* loop = std::get_if<model::RepeatStep>(&step.action);
        return loop && launches(loop->steps);
    });
}

Program Planner::plan() {
    declareNames();
    bindArguments();
    evaluateVariables();
    planBuffers();
    if (!launches(playground_.steps)) problem("steps: no step launches a kernel");
    if (!problems_.empty()) throw SetupError(problems_);
    registerSteps(playground_.steps, "steps", 0, -1);
    if (!problems_.empty()) throw SetupError(problems_);
    try {
        run(playground_.steps, 0);
    } catch (const SetupError&) {
        throw;
    } catch (const InputError& e) {
        throw SetupError({e.what()});
    }
    program_.finalPlace.resize(playground_.args.size());
    for (std::size_t i = 0; i < playground_.args.size(); ++i)
        if (playground_.args[i].isArray()) {
            const Binding& binding = names_.at(playground_.args[i].name);
            program_.finalPlace[i] = {binding.buffer, binding.offset};
        }
    return std::move(program_);
}

} // namespace

Program planProgram(const model::Playground& playground, const std::string& source,
                    const std::string& sourceName, const model::ParseResult& parsed) {
    return Planner(playground, source, sourceName, parsed).plan();
}

Program programOf(const RunSetup& setup) {
    return setup.program.single ? singleLaunch(setup) : setup.program;
}

Program singleLaunch(const RunSetup& setup) {
    Program program;
    program.single = true;
    program.kernels.push_back({setup.kernelName, setup.signature});
    program.argumentBuffer.assign(setup.args.size(), -1);
    program.finalPlace.resize(setup.args.size());
    LaunchOperation launch;
    launch.geometry = setup.launch;
    for (std::size_t i = 0; i < setup.args.size(); ++i) {
        const auto& arg = setup.args[i];
        LaunchArgument value;
        value.pointer = arg.isArray;
        if (arg.isArray) {
            const auto index = static_cast<std::uint32_t>(program.buffers.size());
            program.buffers.push_back({arg.name, arg.array.dtype(), arg.array.shape(), static_cast<int>(i)});
            program.argumentBuffer[i] = static_cast<int>(index);
            program.finalPlace[i] = {index, 0};
            value.place = {index, 0};
            value.elements = arg.array.size();
            value.name = arg.name;
        } else {
            value.scalarType = arg.scalarType;
            value.bytes = arg.scalarBytes;
        }
        launch.args.push_back(std::move(value));
    }
    program.steps.push_back({"launch", "launch", setup.kernelName, 0, -1, 1});
    program.operations.push_back({0, 0, std::move(launch)});
    return program;
}

} // namespace kp::launch
