// run::estimateOccupancy, which the launch panel updates without a GPU, against the driver's own
// cuOccupancyMaxActiveBlocksPerMultiprocessor (Kernel::occupancy) on this machine's device: kernels of
// low to high register pressure and with static shared memory, every block size from 32 to 1024 and
// dynamic shared memory up to the opt-in limit. They must agree exactly.
#include "GpuTestSupport.h"
#include "core/cuda/CudaError.h"
#include "core/run/Occupancy.h"

#include <QStringList>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace kp;

namespace {

// `heavy` keeps WIDTH accumulators alive across a loop, so its register count follows -maxrregcount
// (spilling below what it needs); `tiled` has TILE_FLOATS floats of static shared memory.
const char* kSource = R"(
extern "C" __global__ void light(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}
#define WIDTH 96
extern "C" __global__ void heavy(float* out, const float* in, int n) {
    float acc[WIDTH];
#pragma unroll
    for (int k = 0; k < WIDTH; ++k) acc[k] = in[(threadIdx.x * WIDTH + k) % n];
    for (int r = 0; r < n; ++r) {
#pragma unroll
        for (int k = 0; k < WIDTH; ++k) acc[k] = fmaf(acc[k], acc[(k + 1) % WIDTH], in[(r * 7 + k) % n]);
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < WIDTH; ++k) sum += acc[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
#ifndef TILE_FLOATS
#define TILE_FLOATS 1
#endif
extern "C" __global__ void tiled(float* out, const float* in, int n) {
    __shared__ float tile[TILE_FLOATS];
    for (int i = threadIdx.x; i < TILE_FLOATS; i += blockDim.x) tile[i] = in[i % n];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x * 7) % TILE_FLOATS];
}
)";

std::vector<int> blockSizes() {
    std::vector<int> sizes;
    for (int threads = 32; threads <= 1024; threads += 32)
        sizes.push_back(threads);
    for (int partial : {1, 48, 100, 500, 1000})
        sizes.push_back(partial); // partial warps
    return sizes;
}

} // namespace

class TestOccupancyOnDevice : public QObject {
    Q_OBJECT
    std::optional<cuda::Context> context_;
    cuda::DeviceProperties device_;
    std::set<int> registerCounts_;
    std::set<run::OccupancyLimit> limitsSeen_;
    int comparisons_ = 0;

private slots:
    void initTestCase() {
        KP_REQUIRE_GPU();
        context_.emplace(cuda::Device::get(0));
        device_ = cuda::Device::get(0).properties();
    }
    void cleanupTestCase() { context_.reset(); }

    void agreesWithTheDriver_data() {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("tileFloats");
        QTest::newRow("light") << "light" << QStringList{} << 0;
        for (int registers : {32, 40, 48, 64, 72, 96, 128, 168}) {
            const QString option = QStringLiteral("--maxrregcount=%1").arg(registers);
            QTest::addRow("heavy %s", qPrintable(option)) << "heavy" << QStringList{option} << 0;
        }
        QTest::newRow("heavy, registers unbounded") << "heavy" << QStringList{} << 0;
        for (int floats : {1000, 3072, 10000})
            QTest::addRow("tiled, %d B static shared", floats * 4) << "tiled" << QStringList{} << floats;
    }
    void agreesWithTheDriver() {
        QFETCH(QString, kernel);
        QFETCH(QStringList, options);
        QFETCH(int, tileFloats);
        cuda::CompileOptions compile;
        for (const QString& option : options)
            compile.extraOptions.push_back(option.toStdString());
        if (tileFloats) compile.defines["TILE_FLOATS"] = std::to_string(tileFloats);
        const cuda::Module module = test::loadModule(kSource, compile);
        const cuda::Kernel k = module.kernel(kernel.toStdString());
        const cuda::KernelAttributes attributes = k.attributes();
        QCOMPARE(attributes.staticSharedBytes, tileFloats * 4);
        registerCounts_.insert(attributes.registersPerThread);
        qInfo("%s: %d registers per thread, %d B static shared, at most %d threads per block",
              qPrintable(kernel), attributes.registersPerThread, attributes.staticSharedBytes,
              attributes.maxThreadsPerBlock);

        const int optin = std::max(device_.sharedPerBlockOptin, device_.sharedPerBlock);
        const int staticShared = attributes.staticSharedBytes;
        QStringList mismatches;
        for (int dynamic : {0, 1000, 20000, 45576, 64 * 1024, 100 * 1000, optin - staticShared}) {
            if (staticShared + dynamic > optin) continue;
            // As CudaRunner does: a launch over the default 48 KiB must opt in first.
            if (staticShared + dynamic > device_.sharedPerBlock) k.setMaxDynamicSharedBytes(dynamic);
            for (int threads : blockSizes()) {
                const auto estimate = run::estimateOccupancy(device_, attributes.registersPerThread,
                                                             std::uint64_t(staticShared),
                                                             std::uint64_t(dynamic), std::uint64_t(threads));
                int driverBlocks = 0;
                int driverWarps = 0;
                try {
                    const cuda::Occupancy occupancy = k.occupancy(threads, std::size_t(dynamic));
                    driverBlocks = occupancy.activeBlocksPerMultiprocessor;
                    driverWarps = occupancy.activeWarpsPerMultiprocessor;
                    QCOMPARE(estimate.maxWarpsPerMultiprocessor, occupancy.maxWarpsPerMultiprocessor);
                } catch (const cuda::CudaError&) {
                    // A block the kernel cannot launch at all: no block fits, whether the driver says 0 or
                    // refuses.
                    if (threads <= attributes.maxThreadsPerBlock) throw;
                }
                ++comparisons_;
                limitsSeen_.insert(estimate.limit);
                if (estimate.activeBlocksPerMultiprocessor != driverBlocks ||
                    estimate.activeWarpsPerMultiprocessor != driverWarps)
                    mismatches << QStringLiteral(
                                      "%1 threads, %2 B dynamic: estimated %3 blocks (%4), driver %5")
                                      .arg(threads)
                                      .arg(dynamic)
                                      .arg(estimate.activeBlocksPerMultiprocessor)
                                      .arg(QString::fromStdString(estimate.reason))
                                      .arg(driverBlocks);
            }
        }
        QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.mid(0, 20).join(QLatin1Char('\n'))));
    }

    // The rows above are worth something only if they reach every rule: a compiler that gave every
    // kernel the same registers would leave the register arithmetic untested.
    void exercisedEveryLimit() {
        QVERIFY(comparisons_ > 0);
        QVERIFY2(registerCounts_.size() >= 5,
                 qPrintable(QStringLiteral("%1 distinct register counts").arg(registerCounts_.size())));
        for (auto limit : {run::OccupancyLimit::Warps, run::OccupancyLimit::Blocks,
                           run::OccupancyLimit::Registers, run::OccupancyLimit::SharedMemory})
            QVERIFY2(limitsSeen_.count(limit),
                     qPrintable(QStringLiteral("no comparison was bound by limit %1").arg(int(limit))));
    }
};

QTEST_MAIN(TestOccupancyOnDevice)
#include "tst_occupancy.moc"
