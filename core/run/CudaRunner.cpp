#include "CudaRunner.h"

#include "core/cuda/Compiler.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/DeviceMemory.h"
#include "core/cuda/Event.h"
#include "core/cuda/Launch.h"
#include "core/cuda/Module.h"
#include "core/cuda/PinnedAllocator.h"
#include "core/cuda/Stream.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/launch/ProgramPlan.h"
#include "core/launch/Repeats.h"
#include "core/source/SynchronisingCall.h"

#include <algorithm>
#include <cstring>

namespace kp::run {

namespace {

template <class... F> struct Overloaded : F... { using F::operator()...; };

// A program times each operation with an event after it, up to this many; the rest are timed together.
constexpr std::size_t kTimedOperations = 8192;

cuda::CompileOptions compileOptions(const launch::RunSetup& setup, const cuda::DeviceProperties& device) {
    cuda::CompileOptions options;
    options.arch = device.arch();
    options.device = device.ordinal;
    options.extraOptions = setup.compile.options;
    for (const auto& [name, value] : setup.compile.defines)
        options.defines[name] = value;
    // A C++ kernel's symbol is mangled, and a template is only instantiated when named: ask NVRTC. A
    // variable a program writes is named the same way, as its address.
    const launch::Program program = launch::programOf(setup);
    for (const auto& kernel : program.kernels)
        if (!kernel.signature.externC) options.nameExpressions.push_back(kernel.name);
    for (const auto& symbol : program.symbols)
        options.nameExpressions.push_back("&" + symbol.name);
    return options;
}

std::string symbolName(const launch::KernelInstance& kernel, const cuda::CompileResult& compiled) {
    if (kernel.signature.externC) return kernel.signature.name;
    const auto lowered = compiled.loweredNames.find(kernel.name);
    if (lowered == compiled.loweredNames.end() || lowered->second.empty())
        throw launch::SetupError({"kernel: NVRTC found no function for \"" + kernel.name + "\""});
    return lowered->second;
}

std::string globalName(const launch::ProgramSymbol& symbol, const cuda::CompileResult& compiled) {
    const auto lowered = compiled.loweredNames.find("&" + symbol.name);
    return lowered == compiled.loweredNames.end() || lowered->second.empty() ? symbol.name : lowered->second;
}

cuda::Module loadModule(const cuda::CompileResult& compiled) {
    if (!compiled.cubin.empty())
        return cuda::Module::fromImage(
            {reinterpret_cast<const char*>(compiled.cubin.data()), compiled.cubin.size()});
    return cuda::Module::fromImage(compiled.ptx);
}

cuda::LaunchConfig launchConfig(const launch::LaunchGeometry& g) {
    return {{g.grid[0], g.grid[1], g.grid[2]}, {g.block[0], g.block[1], g.block[2]}, g.sharedBytes};
}

// A kernel that syncs its grid runs with a cooperative launch, which needs every block resident on the
// GPU at once: more blocks than the device holds is refused before anything runs, saying how many fit.
void checkCooperative(const launch::LaunchGeometry& g, const std::string& path, int line,
                      const std::string& sourceName, const cuda::Kernel& kernel,
                      const cuda::DeviceProperties& device) {
    const std::uint64_t blocks = g.blocks();
    const int threads = static_cast<int>(g.threadsPerBlock());
    const int perSm = kernel.occupancy(threads, g.sharedBytes).activeBlocksPerMultiprocessor;
    const std::uint64_t fit = std::uint64_t(std::max(perSm, 0)) * std::uint64_t(device.multiprocessors);
    if (blocks <= fit) return;
    throw launch::SetupError(
        {path + ".grid: the kernel synchronises its whole grid (a grid group, " + sourceName + ":" +
         std::to_string(line) + "), which needs every block on the GPU at once; " + device.name + " holds " +
         std::to_string(fit) + " blocks of " + std::to_string(threads) + " threads of this kernel (" +
         std::to_string(perSm) + " per SM x " + std::to_string(device.multiprocessors) +
         " SMs) but the grid has " + std::to_string(blocks) + ": use at most " + std::to_string(fit) +
         " blocks, with a grid-stride loop for the rest of the data"});
}

// Every launch's parameter buffer, built once the buffers have their device addresses: the driver reads
// each parameter through a pointer, so a launch in the replay is a lookup, not a rebuild.
class ParameterTable {
public:
    void add(const std::vector<launch::LaunchArgument>& args, const std::vector<CUdeviceptr>& base,
             const launch::Program& program) {
        starts_.push_back(offsets_.size());
        for (const auto& arg : args) {
            if (arg.pointer) {
                const CUdeviceptr address =
                    base[arg.place.buffer] +
                    arg.place.offset * model::byteSize(program.buffers[arg.place.buffer].dtype);
                append(&address, sizeof address, alignof(CUdeviceptr));
            } else {
                append(arg.bytes.data(), arg.bytes.size(), model::alignment(arg.scalarType));
            }
        }
    }
    void finish() {
        pointers_.clear();
        for (const std::size_t offset : offsets_)
            pointers_.push_back(bytes_.data() + offset);
    }
    void** parameters(std::size_t launch) { return pointers_.data() + starts_[launch]; }

private:
    void append(const void* value, std::size_t size, std::size_t alignment) {
        const std::size_t at = (bytes_.size() + alignment - 1) / alignment * alignment;
        bytes_.resize(at + size);
        std::memcpy(bytes_.data() + at, value, size);
        offsets_.push_back(at);
    }
    std::vector<std::byte> bytes_;
    std::vector<std::size_t> offsets_;
    std::vector<std::size_t> starts_;
    std::vector<void*> pointers_;
};

} // namespace

CudaRunner::CudaRunner(int device, cuda::CompileCache* cache)
    : device_(cuda::Device::get(device)), context_(std::make_shared<cuda::Context>(device_)),
      properties_(device_.properties()), cache_(cache),
      allocator_(std::make_shared<cuda::PinnedAllocator>(context_)) {}

std::string CudaRunner::backendName() const {
    return "cuda:" + std::to_string(properties_.ordinal) + " " + properties_.name;
}

cuda::CompileResult CudaRunner::compile(const launch::RunSetup& setup) const {
    const cuda::Compiler compiler(cache_);
    auto compiled = compiler.compile(setup.source, setup.sourceName, compileOptions(setup, properties_));
    if (!compiled.ok) throw launch::CompileError(compiled.diagnostics, compiled.log);
    return compiled;
}

CudaRunner::Inspected CudaRunner::inspect(const launch::RunSetup& setup) const {
    context_->makeCurrent();
    Inspected inspected{compile(setup), {}};
    if (setup.program.kernels.empty())
        return inspected; // a program whose steps did not plan: its source alone
    const cuda::Module module = loadModule(inspected.compiled);
    inspected.attributes =
        module.kernel(symbolName(launch::programOf(setup).kernels.front(), inspected.compiled)).attributes();
    return inspected;
}

launch::RunResult CudaRunner::run(const launch::RunSetup& setup, const launch::RunOptions& options) const {
    context_->makeCurrent();
    const launch::Program program = launch::programOf(setup);
    launch::RunResult result;
    result.backend = backendName();
    const auto compiled = compile(setup);
    result.compileMs = compiled.milliseconds;
    result.compileFromCache = compiled.fromCache != cuda::CompileResult::CacheHit::None;

    // The kernels, each launch checked against the device and its kernel before anything runs.
    const cuda::Module module = loadModule(compiled);
    std::vector<cuda::Kernel> kernels;
    std::vector<cuda::KernelAttributes> attributes;
    for (const auto& kernel : program.kernels) {
        kernels.push_back(module.kernel(symbolName(kernel, compiled)));
        attributes.push_back(kernels.back().attributes());
    }
    if (auto problems = launch::checkLaunches(
            program, limits(),
            [&](std::uint32_t k) {
                return launch::KernelLimits{static_cast<std::uint64_t>(attributes[k].staticSharedBytes),
                                            static_cast<std::uint32_t>(attributes[k].maxThreadsPerBlock),
                                            attributes[k].registersPerThread};
            });
        !problems.empty())
        throw launch::SetupError(problems);
    const int gridLine = source::gridGroupLine(setup.source);
    std::vector<std::uint32_t> mostShared(kernels.size(), 0);
    for (const auto& [k, geometry] : program.distinctLaunches()) {
        mostShared[k] = std::max(mostShared[k], geometry.sharedBytes);
        if (gridLine > 0)
            checkCooperative(geometry, launch::launchPath(program, k, geometry), gridLine, setup.sourceName,
                             kernels[k], properties_);
    }
    // Past 48 KiB of static and dynamic together, a block needs the opt-in (its default dynamic limit is 48
    // KiB - static).
    for (std::size_t k = 0; k < kernels.size(); ++k)
        if (mostShared[k] + static_cast<std::uint64_t>(attributes[k].staticSharedBytes) > 48 * 1024)
            kernels[k].setMaxDynamicSharedBytes(static_cast<int>(mostShared[k]));

    // The symbols a program writes, each write checked to fit before anything runs.
    std::vector<cuda::Module::Global> globals;
    for (const auto& symbol : program.symbols)
        globals.push_back(module.global(globalName(symbol, compiled)));
    for (const auto& operation : program.operations)
        if (const auto* write = std::get_if<launch::SymbolOperation>(&operation.what);
            write && write->bytes > globals[write->symbol].bytes)
            throw launch::SetupError({program.steps[operation.step].path +
                                      ".symbol: " + std::to_string(write->bytes) + " bytes do not fit " +
                                      program.symbols[write->symbol].name + ", which holds " +
                                      std::to_string(globals[write->symbol].bytes)});

    // Device memory for every buffer, once for every repeat: it stays on the device from step to step.
    std::vector<cuda::DeviceBuffer> buffers;
    std::vector<CUdeviceptr> base;
    buffers.reserve(program.buffers.size());
    for (const auto& buffer : program.buffers) {
        buffers.emplace_back(buffer.bytes());
        base.push_back(buffers.back().address());
    }
    const auto address = [&](const launch::BufferPlace& place) {
        return base[place.buffer] + place.offset * model::byteSize(program.buffers[place.buffer].dtype);
    };
    ParameterTable parameters;
    std::vector<cuda::LaunchConfig> configs;
    for (const auto& operation : program.operations)
        if (const auto* launch = std::get_if<launch::LaunchOperation>(&operation.what)) {
            parameters.add(launch->args, base, program);
            configs.push_back(launchConfig(launch->geometry));
            configs.back().cooperative = gridLine > 0;
        }
    parameters.finish();
    // Results land in arrays of their own, so an inout input stays as generated for the next repeat.
    for (const auto& arg : setup.args)
        if (arg.copiedOut())
            result.outputs.emplace_back(arg.name, model::Array(arg.array.dtype(), arg.array.shape(),
                                                               allocator_, model::Array::Uninitialized{}));

    const cuda::Stream stream = cuda::Stream::create();
    const cuda::Event start = cuda::Event::create();
    const cuda::Event afterLaunch = cuda::Event::create();
    std::vector<cuda::Event> afterCopyIn, afterCopyOut, afterOperation;
    for (const auto& arg : setup.args) {
        if (arg.copiedIn()) afterCopyIn.push_back(cuda::Event::create());
        if (arg.copiedOut()) afterCopyOut.push_back(cuda::Event::create());
    }
    const std::size_t timed = program.single ? 0 : std::min(program.operations.size(), kTimedOperations);
    for (std::size_t i = 0; i < timed; ++i)
        afterOperation.push_back(cuda::Event::create());
    result.untimedOperations = program.single ? 0 : program.operations.size() - timed;
    if (!program.single) result.steps = launch::stepTimings(program);
    std::vector<double> roundSteps(result.steps.size());

    const auto perform = [&](const launch::Operation& operation, std::size_t& launches) {
        std::visit(Overloaded{
                       [&](const launch::LaunchOperation& op) {
                           cuda::launch(kernels[op.kernel], configs[launches], stream,
                                        parameters.parameters(launches));
                           ++launches;
                       },
                       [&](const launch::CopyOperation& op) {
                           cuda::copyDeviceToDeviceAsync(
                               address(op.to), address(op.from),
                               op.elements * model::byteSize(program.buffers[op.to.buffer].dtype), stream);
                       },
                       [&](const launch::FillOperation& op) {
                           cuda::fillAsync(address(op.to), op.elements, op.value, stream);
                       },
                       [&](const launch::SymbolOperation& op) {
                           if (op.from)
                               cuda::copyDeviceToDeviceAsync(globals[op.symbol].address, address(*op.from),
                                                             op.bytes, stream);
                           else
                               cuda::copyHostToDeviceAsync(globals[op.symbol].address, op.values, stream);
                       },
                   },
                   operation.what);
    };

    int round = 0;
    const auto times = launch::repeatRounds(options.warmup, options.repeat, options.cancel, [&] {
        for (std::size_t b = 0; b < program.buffers.size(); ++b) {
            const auto argument = program.buffers[b].argument;
            if (argument < 0 || !setup.args[static_cast<std::size_t>(argument)].copiedIn())
                buffers[b].zeroAsync(stream);
        }
        start.record(stream);
        std::size_t in = 0;
        for (std::size_t i = 0; i < setup.args.size(); ++i) {
            if (!setup.args[i].copiedIn()) continue;
            buffers[static_cast<std::size_t>(program.argumentBuffer[i])].copyFromAsync(
                setup.args[i].array.span(), stream);
            afterCopyIn[in++].record(stream);
        }
        const cuda::Event& launched = in ? afterCopyIn[in - 1] : start;
        std::size_t launches = 0;
        for (std::size_t j = 0; j < program.operations.size(); ++j) {
            perform(program.operations[j], launches);
            if (j < timed) afterOperation[j].record(stream);
        }
        afterLaunch.record(stream);
        std::size_t out = 0, outputIndex = 0;
        for (std::size_t i = 0; i < setup.args.size(); ++i) {
            if (!setup.args[i].copiedOut()) continue;
            cuda::copyDeviceToHostAsync(result.outputs[outputIndex++].second.span(),
                                        address(program.finalPlace[i]), stream);
            afterCopyOut[out++].record(stream);
        }
        try {
            stream.synchronize();
        } catch (const cuda::CudaError& e) {
            if (!e.sticky()) throw;
            const std::string what = program.kernels.size() == 1
                                         ? "the kernel " + program.kernels.front().signature.name
                                         : "a kernel of the program";
            throw launch::KernelFault(what + " crashed the GPU: " + e.name() + " (" + e.what() + ")" +
                                      (program.single
                                           ? std::string()
                                           : "; the GPU does not say which launch: run the program on the "
                                             "CPU backend with bounds checking to find it"));
        }
        const cuda::Event& copiedBack = out ? afterCopyOut[out - 1] : afterLaunch;
        // Each argument's copies, of the last round (always a timed one).
        result.h2dByArgument.clear();
        result.d2hByArgument.clear();
        const cuda::Event* previousIn = &start;
        const cuda::Event* previousOut = &afterLaunch;
        in = out = 0;
        for (const auto& arg : setup.args) {
            if (arg.copiedIn()) {
                result.h2dByArgument.push_back(
                    {arg.name, arg.array.bytes(), cuda::Event::elapsedMs(*previousIn, afterCopyIn[in])});
                previousIn = &afterCopyIn[in++];
            }
            if (arg.copiedOut()) {
                result.d2hByArgument.push_back(
                    {arg.name, arg.array.bytes(), cuda::Event::elapsedMs(*previousOut, afterCopyOut[out])});
                previousOut = &afterCopyOut[out++];
            }
        }
        // Each step's share: the time from the event before each of its operations to the one after.
        if (round++ >= options.warmup && !program.single) {
            std::fill(roundSteps.begin(), roundSteps.end(), 0.0);
            const cuda::Event* previous = &launched;
            for (std::size_t j = 0; j < timed; ++j) {
                launch::chargeStep(program, program.operations[j].step,
                                   cuda::Event::elapsedMs(*previous, afterOperation[j]), roundSteps);
                previous = &afterOperation[j];
            }
            for (std::size_t i = 0; i < roundSteps.size(); ++i)
                result.steps[i].ms.push_back(roundSteps[i]);
        }
        return launch::RoundTimes{cuda::Event::elapsedMs(start, launched),
                                  cuda::Event::elapsedMs(launched, afterLaunch),
                                  cuda::Event::elapsedMs(afterLaunch, copiedBack)};
    });
    result.h2dMs = times.h2dMs;
    result.kernelMs = times.kernelMs;
    result.d2hMs = times.d2hMs;
    result.cancelled = times.cancelled;
    return result;
}

} // namespace kp::run
