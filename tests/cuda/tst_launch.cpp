// Modules, kernels, launches and events on the GPU machine, including the error paths a student hits:
// an invalid launch, a missing kernel, and an illegal address (in a child process) followed by recovery.
#include "GpuTestSupport.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Event.h"
#include "core/cuda/Launch.h"
#include "core/cuda/Stream.h"
#include "core/sandbox/Subprocess.h"

#include <QCoreApplication>
#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

using namespace kp::cuda;

namespace {
const char* kSource = R"(
extern "C" __global__ void add(float* out, const float* a, const float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}
extern "C" __global__ void reverse_shared(int* data, int n) {
    extern __shared__ int tile[];
    int t = threadIdx.x;
    if (t < n) tile[t] = data[t];
    __syncthreads();
    if (t < n) data[t] = tile[n - 1 - t];
}
template <typename T> __global__ void scale(T* x, T factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= factor;
}
extern "C" __global__ void wild_write(int* p) { p[threadIdx.x + (1LL << 26)] = 1; }
extern "C" __global__ void empty() {}
)";

template <typename T> std::vector<std::byte> bytesOf(const std::vector<T>& v) {
    const auto* p = reinterpret_cast<const std::byte*>(v.data());
    return {p, p + v.size() * sizeof(T)};
}
template <typename T> std::vector<T> valuesOf(const DeviceBuffer& buffer) {
    std::vector<T> v(buffer.bytes() / sizeof(T));
    buffer.copyTo({reinterpret_cast<std::byte*>(v.data()), buffer.bytes()});
    return v;
}
} // namespace

class TestLaunch : public QObject {
    Q_OBJECT
    std::optional<Context> context_;
    std::optional<Module> module_;

private slots:
    void initTestCase() {
        KP_REQUIRE_GPU();
        context_.emplace(Device::get(0));
        CompileOptions options;
        options.nameExpressions = {"scale<float>", "scale<int>"};
        const Compiler compiler(nullptr);
        const auto result = compiler.compile(kSource, "launch.cu", options);
        QVERIFY2(result.ok, result.log.c_str());
        QVERIFY(!result.cubin.empty());
        lowered_ = result.loweredNames;
        module_.emplace(
            Module::fromImage({reinterpret_cast<const char*>(result.cubin.data()), result.cubin.size()}));
    }
    void cleanupTestCase() {
        module_.reset();
        context_.reset();
    }

    void launchesAndComputesTheRightValues() {
        const int n = 100000;
        std::vector<float> a(n), b(n);
        for (int i = 0; i < n; ++i) {
            a[std::size_t(i)] = float(i);
            b[std::size_t(i)] = 0.5f * float(i);
        }
        DeviceBuffer da(n * sizeof(float)), db(n * sizeof(float)), dout(n * sizeof(float));
        da.copyFrom(bytesOf(a));
        db.copyFrom(bytesOf(b));
        const Kernel add = module_->kernel("add");
        const LaunchConfig config{{(n + 255) / 256, 1, 1}, {256, 1, 1}, 0};
        launch(add, config, Stream::defaultStream(), dout.address(), da.address(), db.address(), n);
        context_->synchronize();
        const auto out = valuesOf<float>(dout);
        for (int i = 0; i < n; i += 997)
            QCOMPARE(out[std::size_t(i)], 1.5f * float(i));
        QCOMPARE(out[n - 1], 1.5f * float(n - 1));
    }

    void launchesWithPackedArgumentsAndDynamicSharedMemory() {
        const int n = 512;
        std::vector<int> v(n);
        for (int i = 0; i < n; ++i)
            v[std::size_t(i)] = i;
        DeviceBuffer data(n * sizeof(int));
        data.copyFrom(bytesOf(v));
        KernelArguments args;
        args.add(data.address());
        args.add(n);
        launch(module_->kernel("reverse_shared"), {{1, 1, 1}, {n, 1, 1}, n * sizeof(int)},
               Stream::defaultStream(), args.pointers());
        context_->synchronize();
        const auto out = valuesOf<int>(data);
        QCOMPARE(out.front(), n - 1);
        QCOMPARE(out.back(), 0);
    }

    void findsTemplateKernelsByNameExpression() {
        QVERIFY(lowered_.count("scale<float>"));
        const Kernel scale = module_->kernel(lowered_.at("scale<float>"));
        std::vector<float> v(1000, 2.0f);
        DeviceBuffer x(v.size() * sizeof(float));
        x.copyFrom(bytesOf(v));
        launch(scale, {{4, 1, 1}, {256, 1, 1}, 0}, Stream::defaultStream(), x.address(), 3.0f, 1000);
        context_->synchronize();
        QCOMPARE(valuesOf<float>(x)[999], 6.0f);
    }

    void reportsKernelAttributesAndOccupancy() {
        const Kernel add = module_->kernel("add");
        const KernelAttributes attrs = add.attributes();
        QVERIFY(attrs.registersPerThread > 0);
        QCOMPARE(attrs.maxThreadsPerBlock, 1024);
        QCOMPARE(attrs.staticSharedBytes, 0);
        const Occupancy full = add.occupancy(256);
        QVERIFY(full.activeBlocksPerMultiprocessor > 0);
        QVERIFY(full.ratio() > 0.0 && full.ratio() <= 1.0);
        const Occupancy tiny = add.occupancy(32);
        QVERIFY2(tiny.ratio() < full.ratio(), "one warp per block is limited by the blocks per SM");
        QVERIFY(add.suggestedBlockSize() >= 32);
    }

    void timesKernelsWithEvents() {
        const Kernel add = module_->kernel("add");
        const int n = 1 << 24;
        DeviceBuffer a(n * sizeof(float)), b(n * sizeof(float)), out(n * sizeof(float));
        Stream stream = Stream::create();
        Event start = Event::create(), stop = Event::create();
        start.record(stream);
        launch(add, {{(n + 255) / 256, 1, 1}, {256, 1, 1}, 0}, stream, out.address(), a.address(),
               b.address(), n);
        stop.record(stream);
        stop.synchronize();
        QVERIFY(stop.done());
        const float ms = Event::elapsedMs(start, stop);
        QVERIFY2(ms > 0.0f && ms < 1000.0f, std::to_string(ms).c_str());
    }

    void rejectsAnInvalidLaunchWithoutPoisoningTheContext() {
        const Kernel empty = module_->kernel("empty");
        try {
            launch(empty, {{1, 1, 1}, {2048, 1, 1}, 0}, Stream::defaultStream());
            QFAIL("a block of 2048 threads must be rejected");
        } catch (const CudaError& e) {
            QCOMPARE(e.call(), std::string("cuLaunchKernel"));
            QCOMPARE(e.name(), std::string("CUDA_ERROR_INVALID_VALUE"));
            QVERIFY(!e.sticky());
        }
        launch(empty, {{1, 1, 1}, {32, 1, 1}, 0}, Stream::defaultStream());
        context_->synchronize();
    }

    void namesAMissingKernel() {
        try {
            module_->kernel("no_such_kernel");
            QFAIL("a missing kernel must throw");
        } catch (const CudaError& e) {
            QVERIFY2(std::string(e.what()).find("no_such_kernel") != std::string::npos, e.what());
            QCOMPARE(e.name(), std::string("CUDA_ERROR_NOT_FOUND"));
        }
    }

    void loadsPtxForAVirtualArchitecture() {
        CompileOptions options;
        options.arch = "compute_" + std::to_string(Compiler::supportedArchs().front());
        const auto result = Compiler(nullptr).compile(kSource, "ptx.cu", options);
        QVERIFY2(result.ok, result.log.c_str());
        QVERIFY(result.cubin.empty());
        const Module jit = Module::fromImage(result.ptx);
        QCOMPARE(jit.kernel("add").name(), std::string("add"));
    }

    // A wild write poisons CUDA for the whole process (the driver offers no way back), so the fault
    // happens in a child process, as it will in Kernelpad's worker: the child sees a sticky
    // CUDA_ERROR_ILLEGAL_ADDRESS, and this process, like the app, goes on using the GPU.
    void recoversFromAnIllegalAddressInAnotherProcess() {
        const auto child =
            kp::sandbox::runProcess({QCoreApplication::applicationFilePath().toStdString(), "--fault-child"});
        QVERIFY2(child.exitCode == 0, child.output.c_str());
        QVERIFY2(child.output.find("sticky") != std::string::npos, child.output.c_str());
        QVERIFY2(child.output.find("cannot be used again in this process") != std::string::npos,
                 child.output.c_str());

        DeviceBuffer a(4 * sizeof(float)), b(4 * sizeof(float)), out(4 * sizeof(float));
        a.copyFrom(bytesOf(std::vector<float>{1, 2, 3, 4}));
        b.copyFrom(bytesOf(std::vector<float>{10, 20, 30, 40}));
        launch(module_->kernel("add"), {{1, 1, 1}, {4, 1, 1}, 0}, Stream::defaultStream(), out.address(),
               a.address(), b.address(), 4);
        context_->synchronize();
        QCOMPARE(valuesOf<float>(out), (std::vector<float>{11, 22, 33, 44}));
    }

private:
    std::map<std::string, std::string> lowered_;
};

namespace {
// The child of recoversFromAnIllegalAddressInAnotherProcess: fault, report what the core says, and
// show that the process cannot use CUDA any more. Exit 0 only if all of that held.
int faultChild() {
    try {
        const Context context(Device::get(0));
        const Module module = kp::test::loadModule(kSource);
        DeviceBuffer small(64);
        launch(module.kernel("wild_write"), {{1, 1, 1}, {32, 1, 1}, 0}, Stream::defaultStream(),
               small.address());
        try {
            context.synchronize();
            std::printf("no fault: a write 256 MiB past a 64-byte buffer went through\n");
            return 1;
        } catch (const CudaError& e) {
            std::printf("%s %s: %s\n", e.name().c_str(), e.sticky() ? "sticky" : "not sticky", e.what());
            // Which of the two the hardware reports depends on where the address lands.
            if ((e.name() != "CUDA_ERROR_ILLEGAL_ADDRESS" &&
                 e.name() != "CUDA_ERROR_INVALID_ADDRESS_SPACE") ||
                !e.sticky())
                return 1;
        }
        try {
            DeviceBuffer after(64);
            std::printf("an allocation after the fault succeeded\n");
        } catch (const CudaError& e) {
            std::printf("after the fault: %s\n", e.what());
        }
        return 0;
    } catch (const std::exception& e) {
        std::printf("unexpected: %s\n", e.what());
        return 1;
    }
}
} // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string_view(argv[1]) == "--fault-child") return faultChild();
    QCoreApplication app(argc, argv);
    TestLaunch test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_launch.moc"
