// KernelResources reads ptxas's verbose report: logs as CUDA 13's ptxas writes them (with and without
// constant-bank figures, device functions among the kernels), and the real NVRTC's log for kernels
// that use shared memory, a barrier, and spill under a register limit (no GPU needed).
#include "../TestSupport.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/KernelResources.h"
#include "core/cuda/Nvrtc.h"

#include <QtTest>

using kp::cuda::KernelResources;

namespace {

// NVRTC 13 for sm_90: a spilling kernel, a kernel with shared memory, and a __noinline__ device function.
constexpr const char* kSm90Log =
    "ptxas info    : Overriding maximum register limit 256 for '_Z4smemPKfPfi' with  32 of maxrregcount "
    "option\n"
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z5spillPfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5spillPfi\n"
    "ptxas         .     2408 bytes stack frame, 2580 bytes spill stores, 2932 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 0 barriers, 2408 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 190.071 ms\n"
    "ptxas info    : Compiling entry function '_Z4smemPKfPfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z4smemPKfPfi\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, used 1 barriers, 1024 bytes smem\n"
    "ptxas info    : Compile time = 4.993 ms\n"
    "ptxas info    : Function properties for _Z6helperf\n"
    "ptxas         .     16 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n";

// For sm_75, ptxas also reports the constant banks: the module's (cmem[3], not a kernel's) and each kernel's.
constexpr const char* kSm75Log =
    "ptxas info    : 0 bytes gmem, 256 bytes cmem[3]\n"
    "ptxas info    : Compiling entry function 'a' for 'sm_75'\n"
    "ptxas info    : Function properties for a\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers, 128 bytes smem, 360 bytes cmem[0], 8 bytes cmem[2]\n";

} // namespace

class TestKernelResources : public QObject {
    Q_OBJECT

private slots:
    void readsEachKernelOfTheReport() {
        const auto kernels = KernelResources::fromPtxasLog(kSm90Log);
        QCOMPARE(kernels.size(), std::size_t{2}); // the device function is no kernel
        QCOMPARE(kernels[0],
                 (KernelResources{"_Z5spillPfi", "spill(float*, int)", 32, 2408, 0, 2580, 2932, -1, 0}));
        QCOMPARE(kernels[1], (KernelResources{"_Z4smemPKfPfi", "smem(float const*, float*, int)", 12, 0, 1024,
                                              0, 0, -1, 1}));
    }

    void readsConstantBanksWhereReported() {
        const auto kernels = KernelResources::fromPtxasLog(kSm75Log);
        QCOMPARE(kernels.size(), std::size_t{1});
        QCOMPARE(kernels[0], (KernelResources{"a", "a", 8, 0, 128, 0, 0, 368, 0}));
    }

    void aLogWithoutReportHasNoKernels() {
        QVERIFY(KernelResources::fromPtxasLog("").empty());
        QVERIFY(KernelResources::fromPtxasLog(
                    "kernel.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n")
                    .empty());
    }

    void nvrtcReportsRegistersSharedMemoryAndSpills() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        const std::string source = "__global__ void smem(const float* x, float* y) {\n"
                                   "    __shared__ float tile[256];\n"
                                   "    tile[threadIdx.x] = x[threadIdx.x];\n"
                                   "    __syncthreads();\n"
                                   "    y[threadIdx.x] = tile[255 - threadIdx.x];\n"
                                   "}\n"
                                   "__global__ void spill(float* x, int k) {\n"
                                   "    float a[96];\n"
                                   "    #pragma unroll\n"
                                   "    for (int j = 0; j < 96; ++j) a[j] = x[j * k + threadIdx.x];\n"
                                   "    float s = 0;\n"
                                   "    #pragma unroll\n"
                                   "    for (int j = 0; j < 96; ++j) s += a[j] * a[(j * 7) % 96];\n"
                                   "    #pragma unroll\n"
                                   "    for (int j = 0; j < 96; ++j) x[j * k + threadIdx.x] = a[j] + s;\n"
                                   "}\n";
        kp::cuda::CompileOptions options;
        options.arch = "sm_90";
        options.extraOptions = {"-Xptxas=-v", "-maxrregcount=32"};
        // A CUBIN from NVRTC's own cache comes without the report: the second run of this test on a GPU
        // machine saw an empty log. The app passes --no-cache for the same reason (CompiledCode.cpp).
        if (kp::cuda::Nvrtc::keepsItsOwnCache()) options.extraOptions.emplace_back("--no-cache");
        const auto result = kp::cuda::Compiler(nullptr).compile(source, "k.cu", options);
        QVERIFY2(result.ok, result.log.c_str());
        const auto kernels = KernelResources::fromPtxasLog(result.log);
        QVERIFY2(kernels.size() == 2, ("two kernels in the log:\n" + result.log).c_str());
        const auto find = [&](const std::string& name) {
            return *std::find_if(kernels.begin(), kernels.end(),
                                 [&](const auto& k) { return k.displayName == name; });
        };
        const auto smem = find("smem(float const*, float*)");
        QCOMPARE(smem.sharedBytes, 1024);
        QCOMPARE(smem.barriers, 1);
        QVERIFY(smem.registers >= 4 && smem.registers <= 32);
        QCOMPARE(smem.spillStoreBytes, 0);
        const auto spill = find("spill(float*, int)");
        QVERIFY(spill.registers > 0 && spill.registers <= 32); // the limit holds...
        QVERIFY(spill.spillStoreBytes > 0 && spill.spillLoadBytes > 0 &&
                spill.stackBytes > 0); // ...by spilling
    }

    void demanglesCudaSymbols() {
        QCOMPARE(kp::cuda::demangle("_Z5scalePfi"), std::string("scale(float*, int)"));
        QCOMPARE(kp::cuda::demangle("_Z5scaleIfEvPT_i"), std::string("void scale<float>(float*, int)"));
        QCOMPARE(kp::cuda::demangle("add_one"), std::string("add_one"));
        QCOMPARE(kp::cuda::demangle("f"), std::string("f")); // an extern "C" kernel, not the type float
    }

    void roundTripsThroughJson() {
        for (const auto& k : KernelResources::fromPtxasLog(kSm90Log))
            QCOMPARE(KernelResources::fromJson(k.toJson()), k);
        auto broken = KernelResources::fromPtxasLog(kSm75Log).front().toJson();
        broken.erase("registers");
        QVERIFY(kp::test::inputErrorOf([&] { KernelResources::fromJson(broken); }).find("registers") !=
                std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestKernelResources)
#include "tst_kernelresources.moc"
