#include "RunSetup.h"

#include "ProgramPlan.h"
#include "core/Bytes.h"
#include "core/Lines.h"
#include "core/io/FileBytes.h"
#include "core/io/InitialArray.h"
#include "core/model/Diagnostic.h"
#include "core/model/ScalarBinding.h"
#include "core/model/SignatureParser.h"

#include <algorithm>
#include <limits>

namespace kp::launch {

namespace {
std::string argPath(std::size_t index, const std::string& name) {
    return "args[" + std::to_string(index) + "] \"" + name + "\"";
}

} // namespace

// What run::execute holds at once, read off its code. Every array as prepare() makes it (inputs
// filled, outputs zeroed; pinned on CUDA): A. The CPU backend adds a working copy of every array (A)
// and the outputs' results (O), and frees the working copies when it returns; the reference then makes
// its own copy of every array (A) and keeps the outputs' (O): 2A + O either way. A CUDA run without a
// reference is checked against the CPU backend, whose working copies and results come on top of the
// CUDA results: 2A + 2O. Writing --out serialises one output at a time (at most O more, while the
// working or reference copies are gone). The old guess of 2A fell short: runs were measured at 2.9 to
// 3.9 times their arrays (3A and 4A when every array is an output); a CPU run of one 256 MiB inout
// array peaks at 3.0 times it (maximum resident size), with or without a reference.
void checkHostMemory(const model::Playground& playground, const std::vector<model::Parameter>& parameters,
                     std::uint64_t availableBytes) {
    if (availableBytes == 0) return;
    double arrays = 0, outputs = 0, largest = 0;
    std::string largestName;
    for (std::size_t i = 0; i < playground.args.size(); ++i) {
        const auto& spec = playground.args[i];
        if (!spec.isArray()) continue;
        double bytes = static_cast<double>(model::byteSize(spec.array().dtype));
        for (std::size_t d : spec.array().shape)
            bytes *= static_cast<double>(d);
        arrays += bytes;
        const bool isConst = i < parameters.size() && parameters[i].isConst;
        if (spec.direction.value_or(model::inferDirection(isConst)) != model::Direction::In) outputs += bytes;
        if (bytes > largest) {
            largest = bytes;
            largestName = argPath(i, spec.name);
        }
    }
    const bool checkedOnTheCpu = !playground.reference.has_value();
    const double needed = 2 * arrays + (checkedOnTheCpu ? 2 : 1) * outputs;
    const auto available = static_cast<double>(availableBytes);
    if (needed <= available) return;
    throw SetupError(
        {largestName + ": a run needs about " + humanBytes(needed) + " of memory, but " +
         humanBytes(available) + " is available. The arrays take " + humanBytes(arrays) + " (this one " +
         humanBytes(largest) + "); a run holds them twice (as prepared, and the CPU backend's or the " +
         "reference's copies) and the outputs (" + humanBytes(outputs) + ") " +
         (checkedOnTheCpu ? "twice more (the results, and the CPU backend's that a GPU run is checked "
                            "against)"
                          : "once more (the results)") +
         ". Make the arrays smaller."});
}

namespace {

std::string parameterList(const model::KernelSignature& kernel) {
    std::string text;
    for (const auto& p : kernel.parameters)
        text += (text.empty() ? "" : ", ") + p.typeText + " " + p.name;
    return "(" + text + ")";
}

// The kernel's base name: "scale" for "scale<float>" or "ns::scale<int, 4>".
std::string baseName(const std::string& kernelName) {
    std::string name = kernelName.substr(0, kernelName.find('<'));
    if (const auto colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
    name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return c == ' '; }), name.end());
    return name;
}

void readSource(const model::Playground& playground, RunSetup& setup) {
    if (playground.code) {
        setup.source = *playground.code;
        setup.sourceName = "<code>";
        return;
    }
    if (!playground.source)
        throw SetupError({"source: the playground names neither \"source\" nor \"code\""});
    const auto path = model::resolveInside(playground.folder, *playground.source, "source");
    setup.source = io::readTextFile(path);
    setup.sourceName = *playground.source;
}

const model::KernelSignature& findKernel(const model::ParseResult& parsed, const RunSetup& setup) {
    const std::string name = baseName(setup.kernelName);
    if (const auto* kernel = model::findKernel(parsed, name)) return *kernel;
    std::string known;
    for (const auto& k : parsed.kernels)
        known += (known.empty() ? "" : ", ") + k.name;
    std::string message = "kernel: there is no __global__ function \"" + name + "\" in " + setup.sourceName;
    message += known.empty() ? " (it declares none)" : " (it declares: " + known + ")";
    std::vector<std::string> problems{message};
    for (const auto& problem : parsed.problems)
        problems.push_back(model::toString(problem));
    throw SetupError(problems);
}

} // namespace

void bindTemplateArguments(model::KernelSignature& signature, const std::string& kernelName) {
    if (!signature.isTemplate) return;
    const auto open = kernelName.find('<');
    const auto close = kernelName.rfind('>');
    const std::vector<std::string> given =
        open != std::string::npos && close != std::string::npos && close > open
            ? model::splitTopLevel(std::string_view(kernelName).substr(open + 1, close - open - 1))
            : std::vector<std::string>{};
    for (std::size_t i = 0; i < signature.templateParameters.size(); ++i) {
        const std::string& declared = signature.templateParameters[i];
        const auto equals = declared.find('=');
        const auto head = model::splitTopLevel(declared.substr(0, equals)).front();
        if (!head.starts_with("typename") && !head.starts_with("class")) continue;
        const auto nameAt = head.find_last_of(" \t");
        if (nameAt == std::string::npos) continue;
        const std::string name = head.substr(nameAt + 1);
        const std::string argument = i < given.size() && !given[i].empty() ? given[i]
                                     : equals != std::string::npos
                                         ? model::splitTopLevel(declared.substr(equals + 1)).front()
                                         : std::string();
        const auto dtype = argument.empty() ? std::nullopt : model::dtypeOfType(argument);
        if (!dtype) continue;
        for (auto& parameter : signature.parameters)
            if (parameter.unresolvedType == name) {
                parameter.dtype = dtype;
                parameter.unresolvedType.clear();
            }
    }
}

namespace {

// A mismatch between one argument and its parameter, or an empty string.
std::string mismatch(const model::ArgumentSpec& arg, const model::Parameter& parameter, std::size_t index,
                     const model::KernelSignature& signature) {
    const std::string where = argPath(index, arg.name);
    const std::string declared = parameter.typeText + " " + parameter.name;
    if (parameter.pointer && !arg.isArray())
        return where + ": the kernel's parameter " + std::to_string(index) + " is the pointer \"" + declared +
               "\", so it needs an array, not a scalar";
    if (!parameter.pointer && arg.isArray())
        return where + ": the kernel's parameter " + std::to_string(index) + " is the scalar \"" + declared +
               "\", so it needs a value, not an array";
    // A value's bytes must be the kernel's type: one Kernelpad cannot name is refused, never guessed.
    if (!parameter.pointer && !parameter.unresolvedType.empty())
        return where + ": the kernel's parameter " + std::to_string(index) + " is \"" + declared +
               "\", and Kernelpad cannot tell which dtype \"" + parameter.unresolvedType +
               "\" is: it is not a built-in type, nor a typedef, using alias or #define of one before the "
               "kernel" +
               (signature.isTemplate ? " (a template kernel's type parameters take their dtypes from the "
                                       "kernel's name with its arguments, as in \"" +
                                           signature.name + "<float>\")"
                                     : std::string()) +
               "; declare the parameter with a built-in type such as float or int";
    const model::DType given = arg.isArray() ? arg.array().dtype : arg.scalar().dtype;
    if (parameter.dtype && *parameter.dtype != given)
        return where + ": the kernel's parameter " + std::to_string(index) + " is \"" + declared + "\" (" +
               std::string(model::name(*parameter.dtype)) + ") but the playground gives " +
               std::string(model::name(given)) +
               (arg.isArray() ? "; make the element type " : "; make the type ") +
               std::string(model::name(*parameter.dtype)) + " (arguments are never converted silently)";
    if (arg.isArray() && parameter.isConst && arg.direction && *arg.direction != model::Direction::In)
        return where + ": direction \"" + std::string(model::name(*arg.direction)) +
               "\", but the kernel's \"" + declared +
               "\" points to const memory it cannot write; make it \"in\" or drop the const";
    return {};
}

std::uint32_t blocksFor(std::size_t extent, std::uint32_t block) {
    if (block == 0) return 1; // validate() reports the zero block
    const std::size_t blocks = (extent + block - 1) / block;
    return static_cast<std::uint32_t>(
        std::min<std::size_t>(blocks, std::numeric_limits<std::uint32_t>::max()));
}

} // namespace

SetupError::SetupError(std::vector<std::string> problems)
    : InputError(join(problems, "\n")), problems_(std::move(problems)) {}

const RunArgument* RunSetup::find(std::string_view name) const {
    for (const auto& arg : args)
        if (arg.name == name) return &arg;
    return nullptr;
}

std::vector<std::string> RunSetup::outputs() const {
    std::vector<std::string> names;
    for (const auto& arg : args)
        if (arg.copiedOut()) names.push_back(arg.name);
    return names;
}

std::vector<std::string> RunSetup::checkedOutputs() const {
    return check.outputs.empty() ? outputs() : check.outputs;
}

std::array<std::uint32_t, 3> autoGrid(const model::Shape& shape, const std::array<std::uint32_t, 3>& block) {
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    // x runs along the last (contiguous) dimension, as threadIdx.x does in coalesced kernels.
    for (std::size_t axis = 0; axis < shape.size() && axis < 3; ++axis)
        grid[axis] = blocksFor(shape[shape.size() - 1 - axis], block[axis]);
    return grid;
}

RunSetup prepareSource(const model::Playground& playground) {
    RunSetup setup;
    setup.kernelName = playground.kernel;
    setup.compile = playground.compile;
    setup.reference = playground.reference;
    setup.check = playground.check.value_or(model::CheckSpec{});
    setup.folder = playground.folder;
    readSource(playground, setup);
    return setup;
}

RunSetup prepareKernel(const model::Playground& playground) {
    RunSetup setup = prepareSource(playground);
    const auto parsed = model::parseKernels(setup.source, setup.sourceName);
    if (playground.isProgram()) {
        setup.program = planProgram(playground, setup.source, setup.sourceName, parsed);
        setup.signature = model::programSignature(playground);
        setup.kernelName = setup.program.kernels.front().name; // a program launches something (planProgram)
        return setup;
    }
    setup.signature = findKernel(parsed, setup);
    bindTemplateArguments(setup.signature, setup.kernelName);
    setup.program.single = true;
    setup.program.kernels = {{setup.kernelName, setup.signature}};
    return setup;
}

namespace {

RunArgument makeArgument(const model::Playground& playground, std::size_t i,
                         const model::Parameter& parameter,
                         const std::shared_ptr<model::HostAllocator>& allocator, const MadeArrays& made) {
    const auto& spec = playground.args[i];
    RunArgument arg;
    arg.name = spec.name;
    arg.parameter = parameter;
    arg.isArray = spec.isArray();
    if (arg.isArray) {
        arg.direction = spec.direction.value_or(model::inferDirection(parameter.isConst));
        std::optional<model::Array> given;
        if (made && (given = made(i, allocator)))
            arg.array = std::move(*given);
        else if (arg.direction == model::Direction::Out || !spec.init)
            arg.array = model::Array(spec.array().dtype, spec.array().shape, allocator);
        else
            arg.array = io::initialArray(spec.array(), *spec.init, playground.folder,
                                         "args[" + std::to_string(i) + "].init", allocator);
        return arg;
    }
    const std::string where = "args[" + std::to_string(i) + "].value";
    arg.scalarType = spec.scalar().dtype;
    if (!spec.value) throw SetupError({argPath(i, spec.name) + ": a scalar argument needs a \"value\""});
    arg.scalarValue = model::evaluate(spec, playground);
    arg.scalarBytes = model::scalarBytes(arg.scalarType, arg.scalarValue, where);
    return arg;
}

void checkOutputs(const RunSetup& setup) {
    for (const auto& name : setup.check.outputs) {
        const auto* arg = setup.find(name);
        if (!arg || !arg->copiedOut())
            throw SetupError({"check.outputs: \"" + name + "\" is not an out or inout array argument"});
    }
}

// A program's arguments are its own, not a kernel's: their files give their types, and the launch steps
// were matched parameter by parameter when the program was planned (prepareKernel).
RunSetup prepareProgram(const model::Playground& playground,
                        const std::shared_ptr<model::HostAllocator>& allocator, const MadeArrays& made) {
    RunSetup setup = prepareKernel(playground);
    const auto& parameters = setup.signature.parameters;
    checkHostMemory(playground, parameters, availableMemoryBytes());
    for (std::size_t i = 0; i < parameters.size(); ++i)
        setup.args.push_back(makeArgument(playground, i, parameters[i], allocator, made));
    const auto first =
        std::find_if(setup.program.operations.begin(), setup.program.operations.end(),
                     [](const Operation& o) { return std::holds_alternative<LaunchOperation>(o.what); });
    setup.launch = std::get<LaunchOperation>(first->what).geometry; // planProgram found a launch
    checkOutputs(setup);
    return setup;
}

} // namespace

RunSetup prepare(const model::Playground& playground, const std::shared_ptr<model::HostAllocator>& allocator,
                 const MadeArrays& made) {
    if (playground.isProgram()) return prepareProgram(playground, allocator, made);
    RunSetup setup = prepareKernel(playground);
    const auto& parameters = setup.signature.parameters;

    std::vector<std::string> problems;
    if (playground.args.size() != parameters.size()) {
        std::string given;
        for (const auto& arg : playground.args)
            given += (given.empty() ? "" : ", ") + arg.name;
        problems.push_back("args: the kernel " + setup.signature.name + parameterList(setup.signature) +
                           " takes " + std::to_string(parameters.size()) + " argument" +
                           (parameters.size() == 1 ? "" : "s") + " but the playground gives " +
                           std::to_string(playground.args.size()) +
                           (given.empty() ? "" : " (" + given + ")"));
        throw SetupError(problems);
    }
    for (std::size_t i = 0; i < parameters.size(); ++i)
        if (auto problem = mismatch(playground.args[i], parameters[i], i, setup.signature); !problem.empty())
            problems.push_back(problem);
    if (!problems.empty()) throw SetupError(problems);

    checkHostMemory(playground, parameters, availableMemoryBytes());
    for (std::size_t i = 0; i < parameters.size(); ++i)
        setup.args.push_back(makeArgument(playground, i, parameters[i], allocator, made));

    setup.launch.block = playground.launch.block;
    setup.launch.sharedBytes = playground.launch.sharedBytes;
    if (playground.launch.autoGrid) {
        const auto first = std::find_if(setup.args.begin(), setup.args.end(),
                                        [](const RunArgument& a) { return a.isArray; });
        if (first == setup.args.end())
            throw SetupError(
                {"launch.grid: \"auto\" covers the first array argument, but the kernel takes no array; "
                 "give the grid as [x, y, z]"});
        setup.launch.grid = autoGrid(first->array.shape(), setup.launch.block);
    } else {
        setup.launch.grid = playground.launch.grid;
    }
    checkOutputs(setup);
    return setup; // its program is its launch as it stands when it runs: programOf()
}

} // namespace kp::launch
