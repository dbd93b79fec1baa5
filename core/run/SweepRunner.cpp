#include "SweepRunner.h"

#include "Check.h"
#include "CudaRunner.h"
#include "Reference.h"
#include "RunReport.h"
#include "core/cpu/CpuRunner.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Device.h"
#include "core/cuda/Driver.h"
#include "core/io/InitialArray.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/model/ArrayGenerator.h"
#include "core/sandbox/Confinement.h"

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <new>
#include <optional>

namespace kp::run {

namespace {

// The order a point's backends run in: the reference first, so that every other row can be checked
// against it; then the CPU backends (without a reference, the first of them is what the GPUs are
// checked against); then the GPUs.
int runOrder(const Backend& backend) {
    switch (backend.kind) {
    case Backend::Kind::Reference:
        return 0;
    case Backend::Kind::Cpu:
        return 1;
    case Backend::Kind::Cuda:
        return 2;
    }
    return 3;
}

std::string checkText(const std::vector<CheckResult>& checks) {
    for (const auto& c : checks)
        if (!c.passed) return "failed: " + describe(c);
    return "passed";
}

std::uint64_t bytesMoved(const launch::RunSetup& setup) {
    std::uint64_t bytes = 0;
    for (const auto& arg : setup.args) {
        if (arg.copiedIn()) bytes += arg.array.bytes();
        if (arg.copiedOut()) bytes += arg.array.bytes();
    }
    return bytes;
}

bool cancelled(const std::atomic<bool>* cancel) {
    return cancel && cancel->load();
}

} // namespace

SweepInputs::SweepInputs(const SweepPlan& plan) : plan_(plan) {}

void SweepInputs::prepare() {
    if (plan_.points.empty()) return;
    const auto heap = model::heapAllocator();
    for (std::size_t argument = 0; argument < plan_.points.front().playground.args.size(); ++argument)
        (void)take(0, argument, heap);
}

launch::MadeArrays SweepInputs::forPoint(std::size_t point) {
    return [this, point](std::size_t argument, const std::shared_ptr<model::HostAllocator>& allocator) {
        return take(point, argument, allocator);
    };
}

const model::ArgumentSpec& SweepInputs::spec(std::size_t point, std::size_t argument) const {
    return plan_.points[point].playground.args[argument];
}

bool SweepInputs::zeros(const model::ArgumentSpec& spec) {
    return spec.isArray() && (spec.direction == model::Direction::Out || !spec.init);
}

bool SweepInputs::sameKind(const model::ArgumentSpec& a, const model::ArgumentSpec& b) {
    if (!a.isArray() || !b.isArray() || a.array().dtype != b.array().dtype) return false;
    if (zeros(a) || zeros(b)) {
        if (!zeros(a) || !zeros(b)) return false;
    } else if (!(*a.init == *b.init)) {
        return false;
    }
    const auto& x = a.array().shape;
    const auto& y = b.array().shape;
    return x.size() == y.size() && !x.empty() && std::equal(x.begin() + 1, x.end(), y.begin() + 1);
}

std::optional<model::Array> SweepInputs::take(std::size_t point, std::size_t argument,
                                              const std::shared_ptr<model::HostAllocator>& allocator) {
    const auto& asked = spec(point, argument);
    if (!asked.isArray() || (!zeros(asked) && !model::generatedInIndexOrder(*asked.init)))
        return std::nullopt;
    auto& held = held_[argument];
    if (!held.tried) {
        held.tried = true;
        // The largest of its kind over the sweep, and the last point that asks for one.
        std::size_t largest = point;
        for (std::size_t p = 0; p < plan_.points.size(); ++p) {
            if (argument >= plan_.points[p].playground.args.size() || !sameKind(spec(p, argument), asked))
                continue;
            if (spec(p, argument).array().shape[0] >= spec(largest, argument).array().shape[0]) largest = p;
            held.lastUser = p;
        }
        try {
            const auto& big = spec(largest, argument);
            held.array = std::make_shared<const model::Array>(
                zeros(big) ? model::Array(big.array().dtype, big.array().shape, model::heapAllocator())
                           : io::initialArray(big.array(), *big.init, plan_.points[largest].playground.folder,
                                              "args[" + std::to_string(argument) + "].init",
                                              model::heapAllocator()));
        } catch (const std::bad_alloc&) {
            return std::nullopt; // each point makes its own, and the largest says it in its row
        } catch (const InputError&) {
            return std::nullopt;
        }
    }
    if (!held.array || !sameKind(asked, spec(held.lastUser, argument)) ||
        asked.array().shape[0] > held.array->shape()[0])
        return std::nullopt;
    // Out arrays are only placeholders for a GPU (its results land in memory of their own): no page-locked
    // copy of them.
    if (allocator->inheritedByChildren() || asked.direction == model::Direction::Out)
        return model::leadingView(held.array, asked.array().shape);
    if (!held.other)
        held.other = std::make_shared<const model::Array>(
            zeros(asked) ? model::Array(held.array->dtype(), held.array->shape(), allocator)
                         : held.array->copyTo(allocator));
    return model::leadingView(held.other, asked.array().shape);
}

std::vector<std::string> defaultSweepBackends(const model::Playground& playground) {
    std::vector<std::string> out;
    if (cuda::Driver::available()) {
        try {
            for (int i = 0; i < cuda::Device::count(); ++i)
                out.push_back("cuda:" + std::to_string(i));
        } catch (const cuda::Unavailable&) {
            // a driver without devices: the CPU backends alone
        }
    }
    out.push_back("cpu");
    if (playground.reference) out.push_back("reference");
    return out;
}

SweepResult runSweep(const model::Playground& playground, const SweepSpec& spec,
                     const SweepOptions& options) {
    const SweepPlan plan = planSweep(playground, spec);
    SweepResult result;
    result.spec = spec;
    if (result.spec.backends.empty()) result.spec.backends = defaultSweepBackends(playground);
    result.title = playground.title;
    result.kernel = playground.kernel;
    result.array = plan.array;
    result.notes = plan.notes;

    // Generating the sweep's largest arrays keeps every core busy for a while, and creating a GPU's context
    // waits on the driver: both at once.
    SweepInputs inputs(plan);
    auto prepared = std::async(std::launch::async, [&inputs] { inputs.prepare(); });

    std::vector<Backend> backends;
    for (const auto& id : result.spec.backends) {
        auto backend = parseBackend(id);
        if (std::any_of(backends.begin(), backends.end(), [&](const Backend& b) { return b == backend; }))
            continue;
        backends.push_back(backend);
    }
    // Each device's runner lives for the whole sweep: one context, one compile per source.
    std::map<int, std::unique_ptr<CudaRunner>> gpus;
    std::map<std::string, std::unique_ptr<cpu::CpuRunner>> cpus;
    std::map<std::string, const launch::Runner*> runners; // by backend id: every backend but the reference
    for (const auto& backend : backends) {
        if (backend.kind == Backend::Kind::Cuda) {
            if (!cuda::Driver::available()) {
                (void)launch::prepare(
                    plan.points.front().playground); // a bad playground is reported as such anywhere
                throw cuda::Unavailable(cuda::Driver::unavailableReason());
            }
            auto& runner = gpus[backend.ordinal];
            if (!runner) runner = std::make_unique<CudaRunner>(backend.ordinal);
            const auto& p = runner->properties();
            result.backends.push_back(
                {backend.id(), runner->backendName(), {p.peakBandwidthGBs(), p.peakGflops()}});
            runners[backend.id()] = runner.get();
        } else if (backend.kind == Backend::Kind::Cpu) {
            auto runner = std::make_unique<cpu::CpuRunner>(cpu::HostCompiler(), backend.threads, false);
            result.backends.push_back({backend.id(), runner->backendName(), {}});
            runners[backend.id()] = runner.get();
            cpus[backend.id()] = std::move(runner);
        } else {
            result.backends.push_back({backend.id(), "C++ reference (one thread)", {}});
        }
    }
    std::stable_sort(backends.begin(), backends.end(),
                     [](const Backend& a, const Backend& b) { return runOrder(a) < runOrder(b); });

    // Meanwhile the CPU backends' kernels and the reference compile into the host compiler's cache, where
    // the first point's runs find them: on a new machine they took a fifth of the sweep's wall time, one
    // after the other, after the inputs. What fails here fails again in the run, which says so in its row.
    const bool referenceUsed =
        playground.reference &&
        (options.check || std::any_of(backends.begin(), backends.end(),
                                      [](const Backend& b) { return b.kind == Backend::Kind::Reference; }));
    const auto quietly = [](const auto& compile) {
        try {
            compile();
        } catch (const std::exception&) {
        }
    };
    auto kernelsCompiled = std::async(std::launch::async, [&] {
        quietly([&] {
            if (cpus.empty()) return;
            const auto kernel = launch::prepareKernel(plan.points.front().playground);
            for (const auto& [id, runner] : cpus)
                (void)runner->compile(kernel);
        });
    });
    auto referenceCompiled = std::async(std::launch::async, [&] {
        quietly([&] {
            if (referenceUsed)
                (void)compileReference(launch::prepareKernel(plan.points.front().playground),
                                       cpu::HostCompiler());
        });
    });

    // Pinned arrays copy fastest to a GPU and work as well for the host.
    const auto allocator = gpus.empty() ? model::heapAllocator() : gpus.begin()->second->allocator();
    // The repeats read In arrays in place: the rows show no CPU copy times, and copying them in before
    // every repeat was a third of a CPU sweep's time.
    const launch::RunOptions runOptions{spec.repeat, spec.warmup, options.cancel, nullptr, true};
    const std::size_t total = plan.points.size() * backends.size();
    std::map<std::string, std::string> gone; // backend id -> why it is not used any more

    // The CPU backend and the reference run in forked children, which do not inherit pinned memory: beside
    // GPUs they get a setup of their own, over the same arrays in the host's memory (SweepInputs).
    const bool hostSetupToo = !allocator->inheritedByChildren() &&
                              std::any_of(backends.begin(), backends.end(),
                                          [](const Backend& b) { return b.kind != Backend::Kind::Cuda; });
    prepared.get();
    kernelsCompiled.get();
    referenceCompiled.get();
    for (const auto& point : plan.points) {
        // Set up once for every backend of the point; a point too large for the host is a row per backend.
        std::optional<launch::RunSetup> setup, hostSetup;
        std::string setupError;
        try {
            const auto made = inputs.forPoint(static_cast<std::size_t>(&point - plan.points.data()));
            setup.emplace(launch::prepare(point.playground, allocator, made));
            if (hostSetupToo)
                hostSetup.emplace(launch::prepare(point.playground, model::heapAllocator(), made));
        } catch (const launch::CompileError&) {
            throw;
        } catch (const InputError& e) {
            if (&point == &plan.points.front()) throw; // the playground itself is wrong
            setupError = e.what();
        } catch (const std::bad_alloc&) {
            setupError = "the host ran out of memory for the arrays";
        }

        std::optional<ReferenceResult> comparison;
        for (const auto& backend : backends) {
            if (cancelled(options.cancel)) {
                result.cancelled = true;
                return result;
            }
            SweepRow row;
            row.value = point.value;
            row.elements = point.elements;
            row.backend = backend.id();
            if (setup) {
                row.block = setup->launch.block;
                row.grid = setup->launch.grid;
                row.bytes = bytesMoved(*setup);
            }
            if (!spec.flops.empty())
                row.flops = evaluateFlops(spec.flops, static_cast<double>(point.elements));
            if (!setup)
                row.error = setupError;
            else if (const auto it = gone.find(backend.id()); it != gone.end())
                row.error = it->second;

            if (row.error.empty()) {
                const launch::RunSetup& used =
                    backend.kind != Backend::Kind::Cuda && hostSetup ? *hostSetup : *setup;
                try {
                    std::optional<launch::RunResult> ran;
                    if (backend.kind == Backend::Kind::Reference) {
                        auto reference =
                            runReference(used, cpu::HostCompiler(), spec.repeat, spec.warmup, true);
                        row.kernelMs = reference.samplesMs;
                        comparison = std::move(reference);
                    } else {
                        ran = runners.at(backend.id())->run(used, runOptions);
                        row.kernelMs = ran->kernelMs;
                        if (backend.kind == Backend::Kind::Cuda) {
                            row.h2dMs = ran->h2dMs;
                            row.d2hMs = ran->d2hMs;
                        }
                    }
                    if (ran && options.check) {
                        // The reference, once per point, when it is not one of the backends.
                        if (!comparison && setup->reference)
                            comparison = runReference(hostSetup ? *hostSetup : *setup, cpu::HostCompiler(), 1,
                                                      0, true);
                        if (comparison) {
                            row.check = checkText(checkAgainst(*setup, *ran, *comparison));
                        } else if (backend.kind == Backend::Kind::Cpu && !setup->outputs().empty()) {
                            // No reference: the GPUs are checked against the first CPU backend.
                            comparison.emplace();
                            comparison->outputs = std::move(ran->outputs);
                        }
                    }
                    if (ran && ran->cancelled) result.cancelled = true;
                } catch (const launch::CompileError& e) {
                    // A kernel the CPU backend cannot build (an intrinsic it lacks) still runs on the GPUs;
                    // anything else that does not compile is the user's to fix, so the sweep stops.
                    if (backend.kind != Backend::Kind::Cpu || gpus.empty()) throw;
                    row.error = e.what();
                    gone[backend.id()] = "not run: the CPU backend could not build the kernel";
                } catch (const launch::KernelFault& e) {
                    row.error = e.what();
                    if (backend.kind == Backend::Kind::Cuda) {
                        result.gpuFaulted = true;
                        gone[backend.id()] = "not run: " + backend.id() + " faulted at " +
                                             std::to_string(point.value) + " and was not used again";
                    }
                } catch (const cuda::CudaError& e) {
                    row.error = e.what();
                    if (e.sticky()) {
                        result.gpuFaulted = true;
                        gone[backend.id()] = "not run: " + backend.id() + " failed at " +
                                             std::to_string(point.value) + " and was not used again";
                    }
                } catch (const sandbox::Unavailable&) {
                    throw; // not this row's fault: the whole sweep needs the user's word to run unconfined
                } catch (const InputError& e) {
                    row.error = e.what(); // a launch over this backend's limits
                } catch (const std::bad_alloc&) {
                    row.error = "the host ran out of memory";
                }
            }
            result.rows.push_back(std::move(row));
            if (options.progress) options.progress(result.rows.back(), result.rows.size(), total);
            if (result.cancelled) return result;
        }
    }
    return result;
}

} // namespace kp::run
