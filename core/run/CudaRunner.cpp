#include "CudaRunner.h"

#include "core/cuda/Compiler.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Event.h"
#include "core/cuda/Launch.h"
#include "core/cuda/Module.h"
#include "core/cuda/PinnedAllocator.h"
#include "core/cuda/Stream.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/launch/Repeats.h"
#include "core/source/SynchronisingCall.h"

#include <algorithm>

namespace kp::run {

namespace {

cuda::CompileOptions compileOptions(const launch::RunSetup& setup, const cuda::DeviceProperties& device) {
    cuda::CompileOptions options;
    options.arch = device.arch();
    options.device = device.ordinal;
    options.extraOptions = setup.compile.options;
    for (const auto& [name, value] : setup.compile.defines)
        options.defines[name] = value;
    // A C++ kernel's symbol is mangled, and a template is only instantiated when named: ask NVRTC.
    if (!setup.signature.externC) options.nameExpressions = {setup.kernelName};
    return options;
}

std::string symbolName(const launch::RunSetup& setup, const cuda::CompileResult& compiled) {
    if (setup.signature.externC) return setup.signature.name;
    const auto lowered = compiled.loweredNames.find(setup.kernelName);
    if (lowered == compiled.loweredNames.end() || lowered->second.empty())
        throw launch::SetupError({"kernel: NVRTC found no function for \"" + setup.kernelName + "\""});
    return lowered->second;
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
void makeCooperative(cuda::LaunchConfig& config, const launch::RunSetup& setup, const cuda::Kernel& kernel,
                     const cuda::DeviceProperties& device) {
    const int line = source::gridGroupLine(setup.source);
    if (line == 0) return;
    config.cooperative = true;
    const auto& g = setup.launch;
    const std::uint64_t blocks = std::uint64_t(g.grid[0]) * g.grid[1] * g.grid[2];
    const int threads = static_cast<int>(g.block[0] * g.block[1] * g.block[2]);
    const int perSm = kernel.occupancy(threads, g.sharedBytes).activeBlocksPerMultiprocessor;
    const std::uint64_t fit = std::uint64_t(std::max(perSm, 0)) * std::uint64_t(device.multiprocessors);
    if (blocks <= fit) return;
    throw launch::SetupError(
        {"launch.grid: the kernel synchronises its whole grid (a grid group, " + setup.sourceName + ":" +
         std::to_string(line) + "), which needs every block on the GPU at once; " + device.name + " holds " +
         std::to_string(fit) + " blocks of " + std::to_string(threads) + " threads of this kernel (" +
         std::to_string(perSm) + " per SM x " + std::to_string(device.multiprocessors) +
         " SMs) but the grid has " + std::to_string(blocks) + ": use at most " + std::to_string(fit) +
         " blocks, with a grid-stride loop for the rest of the data"});
}

// One repeat's worth of events: around every copy and the launch.
struct RepeatEvents {
    cuda::Event start = cuda::Event::create();
    std::vector<cuda::Event> afterCopyIn;
    cuda::Event afterLaunch = cuda::Event::create();
    std::vector<cuda::Event> afterCopyOut;
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
    const cuda::Module module = loadModule(inspected.compiled);
    inspected.attributes = module.kernel(symbolName(setup, inspected.compiled)).attributes();
    return inspected;
}

launch::RunResult CudaRunner::run(const launch::RunSetup& setup, const launch::RunOptions& options) const {
    context_->makeCurrent();
    launch::RunResult result;
    result.backend = backendName();
    const auto compiled = compile(setup);
    result.compileMs = compiled.milliseconds;
    result.compileFromCache = compiled.fromCache != cuda::CompileResult::CacheHit::None;

    const cuda::Module module = loadModule(compiled);
    const cuda::Kernel kernel = module.kernel(symbolName(setup, compiled));
    const auto attributes = kernel.attributes();
    if (auto problems = validate(
            setup.launch, limits(), static_cast<std::uint64_t>(attributes.staticSharedBytes),
            static_cast<std::uint32_t>(attributes.maxThreadsPerBlock), attributes.registersPerThread);
        !problems.empty())
        throw launch::SetupError(problems);
    // Past 48 KiB of static and dynamic together, a block needs the opt-in (its default dynamic limit is 48
    // KiB - static).
    if (setup.launch.sharedBytes + static_cast<std::uint64_t>(attributes.staticSharedBytes) > 48 * 1024)
        kernel.setMaxDynamicSharedBytes(static_cast<int>(setup.launch.sharedBytes));
    cuda::LaunchConfig config = launchConfig(setup.launch);
    makeCooperative(config, setup, kernel, properties_);

    // Device memory and the launch's parameter buffer, once for every repeat.
    std::vector<cuda::DeviceBuffer> buffers;
    cuda::KernelArguments arguments;
    buffers.reserve(setup.args.size());
    for (const auto& arg : setup.args) {
        if (arg.isArray) {
            buffers.emplace_back(arg.array.bytes());
            arguments.add(buffers.back().address());
        } else {
            buffers.emplace_back();
            arguments.addBytes(arg.scalarBytes.data(), arg.scalarBytes.size(),
                               model::alignment(arg.scalarType));
        }
    }
    // Results land in arrays of their own, so an inout input stays as generated for the next repeat.
    for (const auto& arg : setup.args)
        if (arg.copiedOut())
            result.outputs.emplace_back(arg.name, model::Array(arg.array.dtype(), arg.array.shape(),
                                                               allocator_, model::Array::Uninitialized{}));

    const cuda::Stream stream = cuda::Stream::create();
    RepeatEvents events;
    for (const auto& arg : setup.args) {
        if (arg.copiedIn()) events.afterCopyIn.push_back(cuda::Event::create());
        if (arg.copiedOut()) events.afterCopyOut.push_back(cuda::Event::create());
    }

    const auto times = launch::repeatRounds(options.warmup, options.repeat, options.cancel, [&] {
        for (std::size_t i = 0; i < setup.args.size(); ++i)
            if (setup.args[i].isArray && !setup.args[i].copiedIn()) buffers[i].zeroAsync(stream);
        events.start.record(stream);
        std::size_t in = 0;
        for (std::size_t i = 0; i < setup.args.size(); ++i) {
            if (!setup.args[i].copiedIn()) continue;
            buffers[i].copyFromAsync(setup.args[i].array.span(), stream);
            events.afterCopyIn[in++].record(stream);
        }
        const cuda::Event& launched = in ? events.afterCopyIn[in - 1] : events.start;
        cuda::launch(kernel, config, stream, arguments.pointers());
        events.afterLaunch.record(stream);
        std::size_t out = 0, outputIndex = 0;
        for (std::size_t i = 0; i < setup.args.size(); ++i) {
            if (!setup.args[i].copiedOut()) continue;
            buffers[i].copyToAsync(result.outputs[outputIndex++].second.span(), stream);
            events.afterCopyOut[out++].record(stream);
        }
        try {
            stream.synchronize();
        } catch (const cuda::CudaError& e) {
            if (!e.sticky()) throw;
            throw launch::KernelFault("the kernel " + setup.signature.name + " crashed the GPU: " + e.name() +
                                      " (" + e.what() + ")");
        }
        const cuda::Event& copiedBack = out ? events.afterCopyOut[out - 1] : events.afterLaunch;
        // Each argument's copies, of the last round (always a timed one).
        result.h2dByArgument.clear();
        result.d2hByArgument.clear();
        const cuda::Event* previousIn = &events.start;
        const cuda::Event* previousOut = &events.afterLaunch;
        in = out = 0;
        for (const auto& arg : setup.args) {
            if (arg.copiedIn()) {
                result.h2dByArgument.push_back({arg.name, arg.array.bytes(),
                                                cuda::Event::elapsedMs(*previousIn, events.afterCopyIn[in])});
                previousIn = &events.afterCopyIn[in++];
            }
            if (arg.copiedOut()) {
                result.d2hByArgument.push_back(
                    {arg.name, arg.array.bytes(),
                     cuda::Event::elapsedMs(*previousOut, events.afterCopyOut[out])});
                previousOut = &events.afterCopyOut[out++];
            }
        }
        return launch::RoundTimes{cuda::Event::elapsedMs(events.start, launched),
                                  cuda::Event::elapsedMs(launched, events.afterLaunch),
                                  cuda::Event::elapsedMs(events.afterLaunch, copiedBack)};
    });
    result.h2dMs = times.h2dMs;
    result.kernelMs = times.kernelMs;
    result.d2hMs = times.d2hMs;
    result.cancelled = times.cancelled;
    return result;
}

} // namespace kp::run
