// bench_core: the core's CUDA layer against the raw driver API and NVRTC, measured in the same run
// (issue 2's goals: launches and copies within 5% of raw, compiles within 5%, cache hits under
// 0.1 ms in memory and 2 ms from disk). Usage: bench_core [--json FILE]. Needs a GPU.
#include "BenchTable.h"
#include "core/cuda/CompileCache.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/Context.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Driver.h"
#include "core/cuda/HostBuffer.h"
#include "core/cuda/Launch.h"
#include "core/cuda/Module.h"
#include "core/cuda/Nvrtc.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <nvrtc.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace kp;
using Clock = std::chrono::steady_clock;

namespace {

// Four kernels, as in anchors.md's compile figure.
const char* kFourKernels = R"(
extern "C" __global__ void empty() {}
extern "C" __global__ void multiply_them(float* dest, const float* a, const float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dest[i] = a[i] * b[i];
}
extern "C" __global__ void sum_squares_atomic(const float* x, float* sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, x[i] * x[i]);
}
extern "C" __global__ void sum_squares_reduce(const float* x, float* sum, int n) {
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] * x[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}
)";

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void rawCheck(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS)
        throw std::runtime_error(std::string("raw ") + what + " failed: " + std::to_string(r));
}

std::string currentArch() {
    CUdevice d = 0;
    rawCheck(cuCtxGetDevice(&d), "cuCtxGetDevice");
    int major = 0, minor = 0;
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
    return "sm_" + std::to_string(major) + std::to_string(minor);
}

// A hand-written NVRTC compile to CUBIN: the baseline for the Compiler.
std::vector<char> rawCompile(const std::string& arch) {
    nvrtcProgram prog = nullptr;
    nvrtcCreateProgram(&prog, kFourKernels, "bench.cu", 0, nullptr, nullptr);
    const std::string archOption = "-arch=" + arch;
    const char* options[] = {archOption.c_str(), "-std=c++17"};
    if (nvrtcCompileProgram(prog, 2, options) != NVRTC_SUCCESS)
        throw std::runtime_error("raw compile failed");
    std::size_t size = 0;
    nvrtcGetCUBINSize(prog, &size);
    std::vector<char> cubin(size);
    nvrtcGetCUBIN(prog, cubin.data());
    nvrtcDestroyProgram(&prog);
    return cubin;
}

cuda::CompileOptions benchOptions(const std::string& arch) {
    cuda::CompileOptions options;
    options.arch = arch;
    return options;
}

// Runs in a fresh process: the first compile pays NVRTC's start-up, which only a new process shows.
int firstCompile(const std::string& which, const std::string& arch) {
    const auto start = Clock::now();
    if (which == "raw") {
        rawCompile(arch);
    } else {
        const cuda::Compiler compiler(nullptr);
        if (!compiler.compile(kFourKernels, "bench.cu", benchOptions(arch)).ok) return 1;
    }
    std::printf("%.6f\n", msSince(start));
    return 0;
}

double firstCompileInChild(const char* self, const std::string& which, const std::string& arch) {
    const std::string command = std::string(self) + " --first-compile " + which + " " + arch;
    FILE* child = popen(command.c_str(), "r");
    if (!child) return 0;
    double ms = 0;
    if (std::fscanf(child, "%lf", &ms) != 1) ms = 0;
    pclose(child);
    return ms;
}

// Median over `rounds` of fn's time in ms, raw and ours alternating round by round so that clocks,
// caches and the GPU's state treat both the same.
std::pair<double, double> alternate(int rounds, const std::function<double()>& ours,
                                    const std::function<double()>& raw) {
    std::vector<double> a, b;
    for (int i = 0; i < rounds; ++i) {
        b.push_back(raw());
        a.push_back(ours());
    }
    return {bench::median(a), bench::median(b)};
}

void benchCompiles(bench::BenchTable& table, const char* self, const std::string& arch) {
    // Each sample is a fresh process. The very first child also reads NVRTC's libraries from disk into
    // the page cache, which would penalise whichever side went first: one untimed warm-up child, then
    // both sides alternate and the medians are compared.
    firstCompileInChild(self, "raw", arch);
    const auto [firstOurs, firstRaw] = alternate(
        7, [&] { return firstCompileInChild(self, "core", arch); },
        [&] { return firstCompileInChild(self, "raw", arch); });
    table.add({"NVRTC compile, 4 kernels, first in a process (median of 7)", "ms", firstOurs, firstRaw,
               "ratio <= 1.05", 1.05});

    const cuda::Compiler uncached(nullptr);
    rawCompile(arch);
    const auto [ours, raw] = alternate(
        15,
        [&] {
            const auto t = Clock::now();
            uncached.compile(kFourKernels, "bench.cu", benchOptions(arch));
            return msSince(t);
        },
        [&] {
            const auto t = Clock::now();
            rawCompile(arch);
            return msSince(t);
        });
    table.add({"NVRTC compile, 4 kernels, later (median)", "ms", ours, raw, "ratio <= 1.05", 1.05});

    const auto dir = std::filesystem::temp_directory_path() / ("kp-bench-cache-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::vector<double> memoryHits, diskHits;
    {
        cuda::CompileCache cache(dir);
        const cuda::Compiler cached(&cache);
        cached.compile(kFourKernels, "bench.cu", benchOptions(arch));
        for (int i = 0; i < 200; ++i) {
            const auto t = Clock::now();
            const auto r = cached.compile(kFourKernels, "bench.cu", benchOptions(arch));
            memoryHits.push_back(msSince(t));
            if (r.fromCache != cuda::CompileResult::CacheHit::Memory)
                throw std::runtime_error("expected a memory hit");
        }
        for (int i = 0; i < 50; ++i) {
            cache.clearMemory();
            const auto t = Clock::now();
            const auto r = cached.compile(kFourKernels, "bench.cu", benchOptions(arch));
            diskHits.push_back(msSince(t));
            if (r.fromCache != cuda::CompileResult::CacheHit::Disk)
                throw std::runtime_error("expected a disk hit");
        }
    }
    std::filesystem::remove_all(dir);
    table.add({"compile cache hit, in memory (median)", "ms", bench::median(memoryHits), 0, "< 0.1 ms"});
    table.add({"compile cache hit, from disk (median)", "ms", bench::median(diskHits), 0, "< 2 ms"});
}

void benchModuleLoad(bench::BenchTable& table, const std::string& arch) {
    const auto result = cuda::Compiler(nullptr).compile(kFourKernels, "bench.cu", benchOptions(arch));
    const std::string_view image(reinterpret_cast<const char*>(result.cubin.data()), result.cubin.size());
    const auto [ours, raw] = alternate(
        51,
        [&] {
            const auto t = Clock::now();
            { const auto m = cuda::Module::fromImage(image); }
            return msSince(t);
        },
        [&] {
            const auto t = Clock::now();
            CUmodule m = nullptr;
            rawCheck(cuModuleLoadData(&m, image.data()), "cuModuleLoadData");
            cuModuleUnload(m);
            return msSince(t);
        });
    table.add({"module load + unload of that CUBIN (median)", "ms", ours, raw, "ratio <= 1.05", 1.05});
}

void benchLaunches(bench::BenchTable& table, const cuda::Module& module) {
    const cuda::Kernel empty = module.kernel("empty");
    const cuda::Kernel multiply = module.kernel("multiply_them");
    const cuda::LaunchConfig one{{1, 1, 1}, {32, 1, 1}, 0};
    const auto stream = cuda::Stream::defaultStream();
    constexpr int kLaunches = 100000;

    const auto [ours, raw] = alternate(
        7,
        [&] {
            const auto t = Clock::now();
            for (int i = 0; i < kLaunches; ++i)
                cuda::launch(empty, one, stream);
            const double ms = msSince(t);
            cuCtxSynchronize();
            return ms * 1000.0 / kLaunches;
        },
        [&] {
            const auto t = Clock::now();
            for (int i = 0; i < kLaunches; ++i)
                cuLaunchKernel(empty.handle(), 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr);
            const double ms = msSince(t);
            cuCtxSynchronize();
            return ms * 1000.0 / kLaunches;
        });
    table.add({"empty-kernel launch, host throughput (100k)", "us/launch", ours, raw, "ratio <= 1.05", 1.05});

    CUdeviceptr d = 0;
    int n = 0;
    const auto [ours4, raw4] = alternate(
        7,
        [&] {
            const auto t = Clock::now();
            for (int i = 0; i < kLaunches; ++i)
                cuda::launch(multiply, one, stream, d, d, d, n);
            const double ms = msSince(t);
            cuCtxSynchronize();
            return ms * 1000.0 / kLaunches;
        },
        [&] {
            void* args[] = {&d, &d, &d, &n};
            const auto t = Clock::now();
            for (int i = 0; i < kLaunches; ++i)
                cuLaunchKernel(multiply.handle(), 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr);
            const double ms = msSince(t);
            cuCtxSynchronize();
            return ms * 1000.0 / kLaunches;
        });
    table.add(
        {"launch with 4 arguments, host throughput (100k)", "us/launch", ours4, raw4, "ratio <= 1.05", 1.05});

    std::vector<double> latOurs, latRaw;
    for (int i = 0; i < 20000; ++i) {
        auto t = Clock::now();
        cuLaunchKernel(empty.handle(), 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr);
        cuCtxSynchronize();
        latRaw.push_back(msSince(t) * 1000.0);
        t = Clock::now();
        cuda::launch(empty, one, stream);
        cuda::Driver::api().cuCtxSynchronize();
        latOurs.push_back(msSince(t) * 1000.0);
    }
    table.add({"launch + synchronize latency (median)", "us", bench::median(latOurs), bench::median(latRaw),
               "ratio <= 1.05", 1.05});
}

void benchCopies(bench::BenchTable& table) {
    constexpr std::size_t kBytes = std::size_t(256) << 20;
    const double gb = double(kBytes) / 1e9;
    cuda::DeviceBuffer device(kBytes);
    std::vector<std::byte> pageable(kBytes, std::byte(1));
    cuda::HostBuffer pinned(kBytes);
    std::memset(pinned.data(), 1, kBytes);

    auto row = [&](const char* figure, const std::function<void()>& ours, const std::function<void()>& raw) {
        const auto [o, r] = alternate(
            9,
            [&] {
                const auto t = Clock::now();
                ours();
                return gb / (msSince(t) / 1000.0);
            },
            [&] {
                const auto t = Clock::now();
                raw();
                return gb / (msSince(t) / 1000.0);
            });
        // Bandwidth: higher is better, so the ratio that must stay near 1 is raw over ours.
        table.add({figure, "GB/s", o, r, "raw/ours <= 1.05", 0});
        const double slowdown = o > 0 ? r / o : 0;
        table.add({std::string(figure) + ", slowdown vs raw", "x", slowdown, 1.0, "ratio <= 1.05", 1.05});
    };
    row(
        "host->device 256 MiB, pageable", [&] { device.copyFrom(pageable); },
        [&] { rawCheck(cuMemcpyHtoD(device.address(), pageable.data(), kBytes), "cuMemcpyHtoD"); });
    row(
        "host->device 256 MiB, pinned", [&] { device.copyFrom(pinned.span()); },
        [&] { rawCheck(cuMemcpyHtoD(device.address(), pinned.data(), kBytes), "cuMemcpyHtoD"); });
    row(
        "device->host 256 MiB, pageable", [&] { device.copyTo(pageable); },
        [&] { rawCheck(cuMemcpyDtoH(pageable.data(), device.address(), kBytes), "cuMemcpyDtoH"); });
    row(
        "device->host 256 MiB, pinned", [&] { device.copyTo(pinned.span()); },
        [&] { rawCheck(cuMemcpyDtoH(pinned.data(), device.address(), kBytes), "cuMemcpyDtoH"); });
}

} // namespace

int main(int argc, char** argv) {
    try {
        if (argc == 4 && std::strcmp(argv[1], "--first-compile") == 0) return firstCompile(argv[2], argv[3]);
        if (!cuda::Driver::available()) {
            std::printf("bench_core needs a CUDA GPU: %s\n", cuda::Driver::unavailableReason().c_str());
            return 0;
        }
        cuda::Context context(cuda::Device::get(0));
        const auto props = context.device().properties();
        std::printf("bench_core on %s (%s), driver %d, NVRTC %s\n\n", props.name.c_str(),
                    props.arch().c_str(), cuda::Driver::version(), cuda::Nvrtc::version().c_str());
        const std::string arch = currentArch();
        bench::BenchTable table;
        benchCompiles(table, argv[0], arch);
        benchModuleLoad(table, arch);
        const auto result = cuda::Compiler(nullptr).compile(kFourKernels, "bench.cu", benchOptions(arch));
        const auto module = cuda::Module::fromImage(
            {reinterpret_cast<const char*>(result.cubin.data()), result.cubin.size()});
        benchLaunches(table, module);
        benchCopies(table);
        table.print();
        if (argc == 3 && std::strcmp(argv[1], "--json") == 0) table.writeJson(argv[2]);
        std::printf("\n%d goal(s) missed\n", table.missedGoals());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_core: %s\n", e.what());
        return 1;
    }
    return 0;
}
