// Both backends give the same answers: small kernels written the way CUDA courses and NVIDIA's samples
// write them, one per feature, each run on the GPU and on the CPU backend. The GPU's result is the truth
// and the CPU backend must equal it bit for bit (fused multiply-adds included). Needs the GPU machine.
#include "../TestSupport.h"
#include "../cuda/GpuTestSupport.h"
#include "core/cpu/CpuRunner.h"
#include "core/run/Check.h"
#include "core/run/CudaRunner.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cstring>
#include <map>
#include <optional>

using namespace kp;

namespace {

nlohmann::json array(const std::string& name, const std::string& dtype, std::vector<std::size_t> shape,
                     const std::string& direction, const nlohmann::json& init = nullptr) {
    nlohmann::json a = {
        {"name", name}, {"array", {{"dtype", dtype}, {"shape", shape}}}, {"direction", direction}};
    if (!init.is_null()) a["init"] = init;
    return a;
}

nlohmann::json scalar(const std::string& name, const std::string& dtype, const nlohmann::json& value) {
    return {{"name", name}, {"scalar", {{"dtype", dtype}}}, {"value", value}};
}

nlohmann::json normal(int seed) {
    return {{"random", "normal"}, {"mean", 0}, {"stddev", 1}, {"seed", seed}};
}

struct Case {
    std::string code;
    std::string kernel;
    std::vector<nlohmann::json> args;
    nlohmann::json launch;
};

const std::map<std::string, Case>& cases() {
    static const std::map<std::string, Case> all = {
        {"saxpy, fused",
         {"__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) y[i] = a * x[i] + y[i];\n"
          "}\n",
          "saxpy",
          {scalar("n", "int32", "size(x)"), scalar("a", "float32", 1.7),
           array("x", "float32", {5000}, "in", normal(1)), array("y", "float32", {5000}, "inout", normal(2))},
          {{"grid", "auto"}, {"block", {256}}}}},
        {"tiled matrix multiply",
         {"#define TILE 16\n"
          "__global__ void matmul(const float* A, const float* B, float* C, int n) {\n"
          "    __shared__ float As[TILE][TILE];\n    __shared__ float Bs[TILE][TILE];\n"
          "    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;\n"
          "    float sum = 0.0f;\n"
          "    for (int t = 0; t < n / TILE; ++t) {\n"
          "        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];\n"
          "        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];\n"
          "        __syncthreads();\n"
          "        for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"
          "        __syncthreads();\n"
          "    }\n"
          "    C[row * n + col] = sum;\n"
          "}\n",
          "matmul",
          {array("A", "float32", {64, 64}, "in", normal(3)), array("B", "float32", {64, 64}, "in", normal(4)),
           array("C", "float32", {64, 64}, "out"), scalar("n", "int32", 64)},
          {{"grid", {4, 4}}, {"block", {16, 16}}}}},
        {"atomic overloads",
         {"__global__ void count(unsigned* u, int* s, unsigned long long* big) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    atomicAdd(&u[0], 1);\n    atomicMax(&s[0], (unsigned)i);\n    atomicAdd_block(&s[1], 2);\n"
          "    atomicAdd_system(&big[0], 3ull);\n    atomicMin(&big[1], (unsigned long long)(1000 - i % "
          "7));\n"
          "    atomicInc(&u[1], 9u);\n    atomicOr(&u[2], 1u << (i % 32));\n"
          "}\n",
          "count",
          {array("u", "uint32", {3}, "out"), array("s", "int32", {2}, "out"),
           array("big", "uint64", {2}, "inout", {{"constant", 5000}})},
          {{"grid", {16}}, {"block", {128}}}}},
        {"dynamic shared, specifiers reordered",
         {"__global__ void reverse(float* d) {\n    extern float __shared__ s[];\n"
          "    int t = threadIdx.x;\n    s[t] = d[blockIdx.x * blockDim.x + t];\n    __syncthreads();\n"
          "    d[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];\n}\n",
          "reverse",
          {array("d", "float32", {1024}, "inout", normal(5))},
          {{"grid", {4}}, {"block", {256}}, {"shared_bytes", 1024}}}},
        {"typedef parameters",
         {"typedef float real;\n"
          "__global__ void gauss(real* out, const real* x, const real sigma, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) out[i] = x[i] * x[i] / (2.0f * sigma * sigma);\n"
          "}\n",
          "gauss",
          {array("out", "float32", {1000}, "out"), array("x", "float32", {1000}, "in", normal(6)),
           scalar("sigma", "float32", 0.75), scalar("n", "int32", "size(x)")},
          {{"grid", "auto"}, {"block", {128}}}}},
        {"warp shuffle sum",
         {"__global__ void warpSum(const int* in, int* out) {\n"
          "    int v = in[blockIdx.x * blockDim.x + threadIdx.x];\n"
          "    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);\n"
          "    if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;\n"
          "}\n",
          "warpSum",
          {array("in", "int32", {2048}, "in", {{"range", {{"start", -700}, {"step", 3}}}}),
           array("out", "int32", {64}, "out")},
          {{"grid", {8}}, {"block", {256}}}}},
        {"warp primitives in divergent branches",
         {"__global__ void warpFeatures(const int* in, int* scan, unsigned* masks, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    int lane = threadIdx.x & 31;\n"
          "    int v = i < n ? in[i] : 0;\n"
          "    int s = v;\n"
          "    if (lane < 16) {\n"
          "        for (int d = 1; d < 16; d <<= 1) {\n"
          "            int up = __shfl_up_sync(0x0000ffffu, s, d);\n"
          "            if (lane >= d) s += up;\n"
          "        }\n"
          "    } else {\n"
          "        s = __reduce_add_sync(0xffff0000u, v);\n"
          "    }\n"
          "    unsigned groups = __match_any_sync(0xffffffffu, v & 3);\n"
          "    unsigned active = 0;\n"
          "    if (v > 0) active = __activemask();\n"
          "    unsigned positive = __ballot_sync(0xffffffffu, v > 0);\n"
          "    if (i < n) {\n"
          "        scan[i] = s;\n"
          "        masks[3 * i] = groups;\n"
          "        masks[3 * i + 1] = active;\n"
          "        masks[3 * i + 2] = positive;\n"
          "    }\n"
          "}\n",
          "warpFeatures",
          {array("in", "int32", {1000}, "in", normal(9)), array("scan", "int32", {1000}, "out"),
           array("masks", "uint32", {1000, 3}, "out"), scalar("n", "int32", "size(in)")},
          {{"grid", "auto"}, {"block", {128}}}}},
        // Lanes that take `continue` meet the others again at the next pass's top (fibers, ThreadFibers).
        {"__activemask around continue and break",
         {"__global__ void passes(unsigned* out) {\n"
          "    const int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    for (int i = 0; i < 6; ++i) {\n"
          "        out[t * 24 + i * 4] = __activemask();\n"
          "        if ((t + i) % 3 == 0) continue;\n"
          "        out[t * 24 + i * 4 + 1] = __activemask();\n"
          "        if (i > t % 5) break;\n"
          "        out[t * 24 + i * 4 + 2] = __activemask();\n"
          "    }\n"
          "}\n",
          "passes",
          {array("out", "uint32", {96 * 24}, "out")},
          {{"grid", {2}}, {"block", {48}}}}},
        {"bfloat16",
         {"#include <cuda_bf16.h>\n"
          "__global__ void bf16(const float* a, const float* b, float* out, __nv_bfloat162* pairs, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i >= n) return;\n"
          "    __nv_bfloat16 x = __float2bfloat16(a[i]), y = __float2bfloat16_rn(b[i]);\n"
          "    __nv_bfloat16 s = __hadd(x, y), p = __hmul_rn(x, y), f = __hfma(x, y, s);\n"
          "    out[4 * i] = __bfloat162float(s);\n"
          "    out[4 * i + 1] = __bfloat162float(p);\n"
          "    out[4 * i + 2] = __bfloat162float(f);\n"
          "    out[4 * i + 3] = __bfloat162float(__hmax(x, __hneg(y)));\n"
          "    pairs[i] = __hmul2(__floats2bfloat162_rn(a[i], b[i]), __float2bfloat162_rn(3.0f));\n"
          "}\n",
          "bf16",
          {array("a", "float32", {1000}, "in", normal(12)), array("b", "float32", {1000}, "in", normal(13)),
           array("out", "float32", {1000, 4}, "out"), array("pairs", "uint32", {1000}, "out"),
           scalar("n", "int32", "size(a)")},
          {{"grid", "auto"}, {"block", {128}}}}},
        {"grid group, grid.sync()",
         {test::kGridSyncKernel,
          "twoPhase",
          {array("in", "int32", {10000}, "in", {{"range", {{"start", -5000}, {"step", 3}}}}),
           array("partial", "int32", {16}, "out"), array("total", "int32", {1}, "out"),
           scalar("n", "int32", "size(in)")},
          {{"grid", {16}}, {"block", {64}}}}},
        {"cooperative groups",
         {test::kCooperativeGroupsKernel,
          "groups",
          {array("in", "int32", {512}, "in", {{"range", {{"start", -40}, {"step", 1}}}}),
           array("blockSums", "int32", {4}, "out"), array("quarterMax", "int32", {512}, "out"),
           array("scans", "int32", {512}, "out"), array("votes", "uint32", {512}, "out")},
          {{"grid", {4}}, {"block", {128}}}}},
        {"constant memory, device variables, __ldg, vector loads",
         {"__constant__ float weights[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};\n"
          "__device__ int bias = 3;\n"
          "__device__ __forceinline__ float clampUnit(float v) { return fminf(fmaxf(v, -1.0f), 1.0f); }\n"
          "__global__ void stencil(const float* __restrict__ in, float* __restrict__ out,\n"
          "                        const int4* __restrict__ packed, int* sums, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i >= 2 && i < n - 2) {\n"
          "        float s = 0.0f;\n"
          "        for (int k = -2; k <= 2; ++k) s += weights[k + 2] * __ldg(&in[i + k]);\n"
          "        out[i] = clampUnit(s) + bias;\n"
          "    }\n"
          "    if (i < n / 4) {\n"
          "        int4 v = packed[i];\n"
          "        sums[i] = v.x + v.y + v.z + v.w;\n"
          "    }\n"
          "}\n",
          "stencil",
          {array("in", "float32", {1000}, "in", normal(8)), array("out", "float32", {1000}, "out"),
           array("packed", "int4", {250}, "in", {{"range", {{"start", -300}, {"step", 1}}}}),
           array("sums", "int32", {250}, "out"), scalar("n", "int32", "size(in)")},
          {{"grid", "auto"}, {"block", {128}}}}},
        {"half precision",
         {test::kHalfPrecisionKernel,
          "halves",
          {array("out", "float16", {256}, "out"), array("a", "float16", {256}, "in", normal(9)),
           array("b", "float16", {256}, "in", normal(10)), array("pair", "float16", {512}, "out")},
          {{"grid", {2}}, {"block", {128}}}}},
        {"shared memory tree reduction",
         {"__global__ void blockSum(const float* in, float* out) {\n"
          "    __shared__ float partial[256];\n"
          "    unsigned t = threadIdx.x;\n    partial[t] = in[blockIdx.x * blockDim.x + t];\n    "
          "__syncthreads();\n"
          "    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {\n"
          "        if (t < stride) partial[t] += partial[t + stride];\n        __syncthreads();\n    }\n"
          "    if (t == 0) out[blockIdx.x] = partial[0];\n"
          "}\n",
          "blockSum",
          {array("in", "float32", {4096}, "in", normal(7)), array("out", "float32", {16}, "out")},
          {{"grid", {16}}, {"block", {256}}}}},
        {"bool, vector types and bfloat16 arrays",
         {"#include <cuda_bf16.h>\n"
          "__global__ void lanes(const uchar4* pixels, const double3* points, const __nv_bfloat16* weights,\n"
          "                      bool* bright, float3* scaled, short2* packed, __nv_bfloat16* doubled,\n"
          "                      longlong2* wide, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i >= n) return;\n"
          "    uchar4 p = pixels[i];\n"
          "    bright[i] = p.x + p.y + p.z > 3 * p.w;\n"
          "    double3 q = points[i];\n"
          "    float w = __bfloat162float(weights[i]);\n"
          "    scaled[i] = make_float3(q.x * w, q.y * w + 1.0f, q.z);\n"
          "    packed[i] = make_short2(p.x - p.y, p.z - p.w);\n"
          "    doubled[i] = __hmul(weights[i], __float2bfloat16(2.5f));\n"
          "    wide[i] = make_longlong2((long long)p.x << 40, -(long long)i);\n"
          "}\n",
          "lanes",
          {array("pixels", "uchar4", {700}, "in",
                 {{"random", "uniform"}, {"low", 0}, {"high", 256}, {"seed", 21}}),
           array("points", "double3", {700}, "in", normal(22)),
           array("weights", "bfloat16", {700}, "in", normal(23)), array("bright", "bool", {700}, "out"),
           array("scaled", "float3", {700}, "out"), array("packed", "short2", {700}, "out"),
           array("doubled", "bfloat16", {700}, "out"), array("wide", "longlong2", {700}, "out"),
           scalar("n", "int32", "size(pixels)")},
          {{"grid", "auto"}, {"block", {128}}}}},
        {"half2 packing, fused and _rn forms",
         {"#include <cuda_fp16.h>\n"
          "__global__ void halfPairs(const __half* x, __half* y, __half* rounded, float a, int n) {\n"
          "    int pair = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (2 * pair + 1 >= n) return;\n"
          "    const __half2 a2 = __float2half2_rn(a);\n"
          "    const __half2 xs = reinterpret_cast<const __half2*>(x)[pair];\n"
          "    const __half2 ys = reinterpret_cast<const __half2*>(y)[pair];\n"
          "    reinterpret_cast<__half2*>(y)[pair] = __hfma2(a2, xs, ys);\n"
          "    reinterpret_cast<__half2*>(rounded)[pair] = __hadd2(__hmul2_rn(a2, xs), ys);\n"
          "}\n",
          "halfPairs",
          {array("x", "float16", {2000}, "in", normal(25)),
           array("y", "float16", {2000}, "inout",
                 {{"random", "uniform"}, {"low", -4}, {"high", 4}, {"seed", 26}}),
           array("rounded", "float16", {2000}, "out"), scalar("a", "float32", 0.1),
           scalar("n", "int32", "size(x)")},
          {{"grid", {4}}, {"block", {256}}}}},
        // Threads race through atomicAdd for the next free slot: the GPU fills `kept` in another order on
        // every run, the CPU backend in its own; the playground declares it a multiset.
        {"racing atomics, compared as a multiset",
         {"__global__ void keepPositive(const int* in, int* kept, unsigned int* count, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n && in[i] > 0) kept[atomicAdd(count, 1u)] = in[i];\n"
          "}\n",
          "keepPositive",
          {array("in", "int32", {20000}, "in",
                 {{"random", "uniform"}, {"low", -1000}, {"high", 1000}, {"seed", 24}}),
           array("kept", "int32", {20000}, "out"), array("count", "uint32", {1}, "out"),
           scalar("n", "int32", "size(in)")},
          {{"grid", "auto"}, {"block", {256}}}}},
    };
    return all;
}

// Outputs of the cases above whose order the kernel does not define.
bool isMultiset(const std::string& caseName, const std::string& output) {
    return caseName == "racing atomics, compared as a multiset" && output == "kept";
}

} // namespace

class TestConformance : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    std::optional<cuda::CompileCache> compileCache_;
    std::optional<run::CudaRunner> gpu_;
    std::optional<cpu::CpuRunner> cpu_;

private slots:
    void initTestCase() {
        KP_REQUIRE_GPU();
        compileCache_.emplace(cache_.path().toStdString());
        gpu_.emplace(0, &*compileCache_);
        cpu_.emplace(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 4);
    }
    void cleanupTestCase() { gpu_.reset(); }

    void cpuBackendEqualsTheGpu_data() {
        QTest::addColumn<QString>("name");
        for (const auto& [name, _] : cases())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void cpuBackendEqualsTheGpu() {
        QFETCH(QString, name);
        const Case& c = cases().at(name.toStdString());
        const auto setup =
            test::setupOf(c.code, c.kernel, c.args, c.launch, cache_.filePath("c.kpad.json").toStdString());
        const auto onGpu = gpu_->run(setup);
        const auto onCpu = cpu_->run(setup);
        QCOMPARE(onCpu.outputs.size(), onGpu.outputs.size());
        for (std::size_t o = 0; o < onGpu.outputs.size(); ++o) {
            const auto& [output, truth] = onGpu.outputs[o];
            const model::Array& got = onCpu.outputs[o].second;
            QCOMPARE(got.shape(), truth.shape());
            QCOMPARE(got.dtype(), truth.dtype());
            if (isMultiset(name.toStdString(), output)) {
                const auto multiset =
                    run::checkUnordered({model::UnorderedSpec::Kind::Multiset}, output, got, truth, {0, 0});
                QVERIFY2(multiset.passed, run::describe(multiset, "the GPU").c_str());
                // The multiset is not met by chance: element by element the orders differ on the GPU.
                qInfo("%s: %zu of %zu elements in another order than the GPU's", output.c_str(),
                      run::check(output, got, truth, {0, 0}).mismatches, got.size());
                continue;
            }
            // Bit for bit, every lane of every element.
            const std::size_t item = model::byteSize(truth.dtype());
            std::size_t differ = 0, first = 0;
            for (std::size_t i = 0; i < truth.size(); ++i)
                if (std::memcmp(got.data() + i * item, truth.data() + i * item, item) != 0 && differ++ == 0)
                    first = i;
            QVERIFY2(differ == 0,
                     (output + ": " + std::to_string(differ) + " elements differ from the GPU's; first [" +
                      std::to_string(first) + "] cpu " + std::to_string(got.value(first)) + " gpu " +
                      std::to_string(truth.value(first)))
                         .c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
