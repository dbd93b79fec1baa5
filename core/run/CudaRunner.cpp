#include "CudaRunner.h"

#include "core/Overloaded.h"
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

// A program loaded for a run: its kernels (every launch checked against the device first), the symbols it
// writes (every write checked to fit), device memory for every buffer (kept from step to step and repeat
// to repeat) and every launch's parameters, built once. perform() replays one operation on a stream.
class LoadedProgram {
public:
    LoadedProgram(const launch::RunSetup& setup, const launch::Program& program, const cuda::Module& module,
                  const cuda::CompileResult& compiled, const cuda::DeviceProperties& device,
                  const launch::LaunchLimits& limits)
        : program_(program) {
        loadKernels(setup, module, compiled, device, limits);
        loadSymbols(module, compiled);
        buffers_.reserve(program.buffers.size());
        for (const auto& buffer : program.buffers) {
            buffers_.emplace_back(buffer.bytes());
            base_.push_back(buffers_.back().address());
        }
        const bool cooperative = source::gridGroupLine(setup.source) > 0;
        for (const auto& operation : program.operations)
            if (const auto* launch = std::get_if<launch::LaunchOperation>(&operation.what)) {
                parameters_.add(launch->args, base_, program);
                configs_.push_back(launchConfig(launch->geometry));
                configs_.back().cooperative = cooperative;
            }
        parameters_.finish();
    }

    cuda::DeviceBuffer& buffer(std::size_t index) { return buffers_[index]; }
    CUdeviceptr address(const launch::BufferPlace& place) const {
        return base_[place.buffer] + place.offset * model::byteSize(program_.buffers[place.buffer].dtype);
    }
    // Every operation of the program in order; an event after each of the first `timed` (a step's share).
    void replay(const cuda::Stream& stream, const std::vector<cuda::Event>& after, std::size_t timed) {
        std::size_t launches = 0;
        for (std::size_t j = 0; j < program_.operations.size(); ++j) {
            perform(program_.operations[j], launches, stream);
            if (j < timed) after[j].record(stream);
        }
    }

private:
    void loadKernels(const launch::RunSetup& setup, const cuda::Module& module,
                     const cuda::CompileResult& compiled, const cuda::DeviceProperties& device,
                     const launch::LaunchLimits& limits) {
        std::vector<cuda::KernelAttributes> attributes;
        for (const auto& kernel : program_.kernels) {
            kernels_.push_back(module.kernel(symbolName(kernel, compiled)));
            attributes.push_back(kernels_.back().attributes());
        }
        if (auto problems = launch::checkLaunches(
                program_, limits,
                [&](std::uint32_t k) {
                    return launch::KernelLimits{static_cast<std::uint64_t>(attributes[k].staticSharedBytes),
                                                static_cast<std::uint32_t>(attributes[k].maxThreadsPerBlock),
                                                attributes[k].registersPerThread};
                });
            !problems.empty())
            throw launch::SetupError(problems);
        const int gridLine = source::gridGroupLine(setup.source);
        std::vector<std::uint32_t> mostShared(kernels_.size(), 0);
        for (const auto& [k, geometry] : program_.distinctLaunches()) {
            mostShared[k] = std::max(mostShared[k], geometry.sharedBytes);
            if (gridLine > 0)
                checkCooperative(geometry, launch::launchPath(program_, k, geometry), gridLine,
                                 setup.sourceName, kernels_[k], device);
        }
        // Past 48 KiB of static and dynamic together, a block needs the opt-in (its default dynamic limit is
        // 48 KiB - static).
        for (std::size_t k = 0; k < kernels_.size(); ++k)
            if (mostShared[k] + static_cast<std::uint64_t>(attributes[k].staticSharedBytes) > 48 * 1024)
                kernels_[k].setMaxDynamicSharedBytes(static_cast<int>(mostShared[k]));
    }

    void loadSymbols(const cuda::Module& module, const cuda::CompileResult& compiled) {
        for (const auto& symbol : program_.symbols)
            globals_.push_back(module.global(globalName(symbol, compiled)));
        launch::checkSymbolWrites(program_, [this](std::uint32_t s) { return globals_[s].bytes; });
    }

    void perform(const launch::Operation& operation, std::size_t& launches, const cuda::Stream& stream) {
        std::visit(Overloaded{
                       [&](const launch::LaunchOperation& op) {
                           cuda::launch(kernels_[op.kernel], configs_[launches], stream,
                                        parameters_.parameters(launches));
                           ++launches;
                       },
                       [&](const launch::CopyOperation& op) {
                           cuda::copyDeviceToDeviceAsync(
                               address(op.to), address(op.from),
                               op.elements * model::byteSize(program_.buffers[op.to.buffer].dtype), stream);
                       },
                       [&](const launch::FillOperation& op) {
                           cuda::fillAsync(address(op.to), op.elements, op.value, stream);
                       },
                       [&](const launch::SymbolOperation& op) {
                           if (op.from)
                               cuda::copyDeviceToDeviceAsync(globals_[op.symbol].address, address(*op.from),
                                                             op.bytes, stream);
                           else
                               cuda::copyHostToDeviceAsync(globals_[op.symbol].address, op.values, stream);
                       },
                   },
                   operation.what);
    }

    const launch::Program& program_;
    std::vector<cuda::Kernel> kernels_;
    std::vector<cuda::Module::Global> globals_;
    std::vector<cuda::DeviceBuffer> buffers_;
    std::vector<CUdeviceptr> base_;
    ParameterTable parameters_;
    std::vector<cuda::LaunchConfig> configs_;
};

// The events of one round: the start, one after each copy in, one after each operation (up to a
// budget), one after the last operation, one after each copy out.
struct RoundEvents {
    cuda::Event start = cuda::Event::create();
    cuda::Event afterProgram = cuda::Event::create();
    std::vector<cuda::Event> afterCopyIn, afterOperation, afterCopyOut;

    RoundEvents(const launch::RunSetup& setup, std::size_t timedOperations) {
        for (const auto& arg : setup.args) {
            if (arg.copiedIn()) afterCopyIn.push_back(cuda::Event::create());
            if (arg.copiedOut()) afterCopyOut.push_back(cuda::Event::create());
        }
        for (std::size_t i = 0; i < timedOperations; ++i)
            afterOperation.push_back(cuda::Event::create());
    }
    const cuda::Event& launched() const { return afterCopyIn.empty() ? start : afterCopyIn.back(); }
    const cuda::Event& copiedBack() const {
        return afterCopyOut.empty() ? afterProgram : afterCopyOut.back();
    }
};

// Each argument's copies of the round just ended (the last round is always a timed one).
void transferTimes(const launch::RunSetup& setup, const RoundEvents& events, launch::RunResult& result) {
    result.h2dByArgument.clear();
    result.d2hByArgument.clear();
    const cuda::Event* previousIn = &events.start;
    const cuda::Event* previousOut = &events.afterProgram;
    std::size_t in = 0, out = 0;
    for (const auto& arg : setup.args) {
        if (arg.copiedIn()) {
            result.h2dByArgument.push_back(
                {arg.name, arg.array.bytes(), cuda::Event::elapsedMs(*previousIn, events.afterCopyIn[in])});
            previousIn = &events.afterCopyIn[in++];
        }
        if (arg.copiedOut()) {
            result.d2hByArgument.push_back({arg.name, arg.array.bytes(),
                                            cuda::Event::elapsedMs(*previousOut, events.afterCopyOut[out])});
            previousOut = &events.afterCopyOut[out++];
        }
    }
}

// Each step's share of the round just ended: from the event before each of its operations to the one after.
void stepTimes(const launch::Program& program, const RoundEvents& events, launch::RunResult& result) {
    std::vector<double> perStep(result.steps.size(), 0.0);
    const cuda::Event* previous = &events.launched();
    for (std::size_t j = 0; j < events.afterOperation.size(); ++j) {
        launch::chargeStep(program, program.operations[j].step,
                           cuda::Event::elapsedMs(*previous, events.afterOperation[j]), perStep);
        previous = &events.afterOperation[j];
    }
    for (std::size_t i = 0; i < perStep.size(); ++i)
        result.steps[i].ms.push_back(perStep[i]);
}

// Waits for the round; a fault that ends the context is a KernelFault (the GPU does not say which launch).
void synchronize(const cuda::Stream& stream, const launch::Program& program) {
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
}

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
    const cuda::Module module = loadModule(compiled);
    LoadedProgram loaded(setup, program, module, compiled, properties_, limits());
    // Results land in arrays of their own, so an inout input stays as generated for the next repeat.
    for (const auto& arg : setup.args)
        if (arg.copiedOut())
            result.outputs.emplace_back(arg.name, model::Array(arg.array.dtype(), arg.array.shape(),
                                                               allocator_, model::Array::Uninitialized{}));
    const cuda::Stream stream = cuda::Stream::create();
    const std::size_t timed = program.single ? 0 : std::min(program.operations.size(), kTimedOperations);
    const RoundEvents events(setup, timed);
    result.untimedOperations = program.single ? 0 : program.operations.size() - timed;
    if (!program.single) result.steps = launch::stepTimings(program);

    int round = 0;
    const auto times = launch::repeatRounds(options.warmup, options.repeat, options.cancel, [&] {
        // Outputs and scratch start at zero, inputs as generated.
        for (std::size_t b = 0; b < program.buffers.size(); ++b) {
            const auto argument = program.buffers[b].argument;
            if (argument < 0 || !setup.args[static_cast<std::size_t>(argument)].copiedIn())
                loaded.buffer(b).zeroAsync(stream);
        }
        events.start.record(stream);
        for (std::size_t i = 0, in = 0; i < setup.args.size(); ++i) {
            if (!setup.args[i].copiedIn()) continue;
            loaded.buffer(static_cast<std::size_t>(program.argumentBuffer[i]))
                .copyFromAsync(setup.args[i].array.span(), stream);
            events.afterCopyIn[in++].record(stream);
        }
        loaded.replay(stream, events.afterOperation, timed);
        events.afterProgram.record(stream);
        for (std::size_t i = 0, out = 0, output = 0; i < setup.args.size(); ++i) {
            if (!setup.args[i].copiedOut()) continue;
            cuda::copyDeviceToHostAsync(result.outputs[output++].second.span(),
                                        loaded.address(program.finalPlace[i]), stream);
            events.afterCopyOut[out++].record(stream);
        }
        synchronize(stream, program);
        transferTimes(setup, events, result);
        if (round++ >= options.warmup && !program.single) stepTimes(program, events, result);
        return launch::RoundTimes{cuda::Event::elapsedMs(events.start, events.launched()),
                                  cuda::Event::elapsedMs(events.launched(), events.afterProgram),
                                  cuda::Event::elapsedMs(events.afterProgram, events.copiedBack())};
    });
    result.h2dMs = times.h2dMs;
    result.kernelMs = times.kernelMs;
    result.d2hMs = times.d2hMs;
    result.cancelled = times.cancelled;
    return result;
}

} // namespace kp::run
