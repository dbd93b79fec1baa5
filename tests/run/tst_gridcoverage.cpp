// run::coverageOf and run::drawnBlocks: the idle threads past the data's end and the elements past the
// grid's end, as the launch panel's caption and drawing show them; for grid-stride kernels (readsGridDim)
// strideCoverageOf, where the loop reaches every element. No GPU needed.
#include "core/launch/RunSetup.h"
#include "core/run/GridCoverage.h"

#include <QtTest>

using namespace kp;

Q_DECLARE_METATYPE(kp::model::Shape)

namespace {
launch::LaunchGeometry geometry(std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block) {
    launch::LaunchGeometry g;
    g.grid = grid;
    g.block = block;
    return g;
}
} // namespace

class TestGridCoverage : public QObject {
    Q_OBJECT

private slots:
    void countsIdleAndUncovered_data() {
        QTest::addColumn<model::Shape>("shape");
        QTest::addColumn<launch::LaunchGeometry>("launch");
        QTest::addColumn<quint64>("threads");
        QTest::addColumn<quint64>("idle");
        QTest::addColumn<quint64>("uncovered");
        QTest::newRow("1000 elements, 4 blocks of 256")
            << model::Shape{1000} << geometry({4, 1, 1}, {256, 1, 1}) << quint64(1024) << quint64(24)
            << quint64(0);
        QTest::newRow("exact fit") << model::Shape{1024} << geometry({4, 1, 1}, {256, 1, 1}) << quint64(1024)
                                   << quint64(0) << quint64(0);
        // 7 x 7 blocks of 16 x 16 cover 112 x 112 positions over 100 x 100 elements.
        QTest::newRow("2D, 100 x 100 in 16 x 16 blocks")
            << model::Shape{100, 100} << geometry({7, 7, 1}, {16, 16, 1}) << quint64(12544) << quint64(2544)
            << quint64(0);
        // x runs along the last dimension: 3 rows of 1000 with 1-row blocks need 3 blocks in y.
        QTest::newRow("2D, rows along y") << model::Shape{3, 1000} << geometry({4, 3, 1}, {256, 1, 1})
                                          << quint64(3072) << quint64(72) << quint64(0);
        QTest::newRow("grid too small") << model::Shape{1000} << geometry({3, 1, 1}, {256, 1, 1})
                                        << quint64(768) << quint64(0) << quint64(232);
        // A second row of threads in each block has no second row of data to work on.
        QTest::newRow("1D data, 2D block") << model::Shape{1000} << geometry({4, 1, 1}, {256, 2, 1})
                                           << quint64(2048) << quint64(1048) << quint64(0);
        QTest::newRow("3D") << model::Shape{2, 3, 5} << geometry({1, 1, 1}, {8, 4, 2}) << quint64(64)
                            << quint64(34) << quint64(0);
        QTest::newRow("no array") << model::Shape{} << geometry({4, 1, 1}, {256, 1, 1}) << quint64(1024)
                                  << quint64(0) << quint64(0);
    }
    void countsIdleAndUncovered() {
        QFETCH(model::Shape, shape);
        QFETCH(launch::LaunchGeometry, launch);
        QFETCH(quint64, threads);
        QFETCH(quint64, idle);
        QFETCH(quint64, uncovered);
        const run::GridCoverage c = run::coverageOf(shape, launch);
        QCOMPARE(c.threads, threads);
        QCOMPARE(c.idle, idle);
        QCOMPARE(c.uncovered, uncovered);
        if (shape.empty()) return; // no data: no thread is busy or idle
        QCOMPARE(c.busy + c.idle, c.threads);
        QCOMPARE(c.busy + c.uncovered, c.elements);
    }

    void autoGridLeavesOnlyTheLastBlockPartlyIdle() {
        const model::Shape shape{1000};
        const std::array<std::uint32_t, 3> block{256, 1, 1};
        const auto c = run::coverageOf(shape, geometry(launch::autoGrid(shape, block), block));
        QCOMPARE(c.idle, quint64(24));
        QCOMPARE(qRound(c.idleRatio() * 1000), 23); // 2.3%
    }

    void saturatesInsteadOfOverflowing() {
        const auto c = run::coverageOf({10}, geometry({2147483647u, 65535u, 65535u}, {1024, 1024, 64}));
        QCOMPARE(c.threads, std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(c.busy, quint64(10));
    }

    void drawsEveryBlockOfASmallGrid() {
        const auto blocks = run::drawnBlocks(1000, 256, 4);
        QCOMPARE(blocks.size(), std::size_t{4});
        QCOMPARE(blocks[0].onData, 1.0);
        QCOMPARE(blocks[3].onData, 232.0 / 256.0);
        QVERIFY(!blocks[3].gapBefore);
    }

    void summarisesALargeGridKeepingTheLastBlock() {
        const auto blocks = run::drawnBlocks(1000000, 256, 3907);
        QCOMPARE(blocks.size(), std::size_t{64});
        QCOMPARE(blocks[62].index, 62u);
        QCOMPARE(blocks.back().index, 3906u);
        QVERIFY(blocks.back().gapBefore);
        QCOMPARE(blocks.back().onData, (1000000.0 - 3906.0 * 256) / 256.0);
    }

    void showsBlocksPastTheDataAsEmpty() {
        const auto blocks = run::drawnBlocks(300, 256, 4);
        QCOMPARE(blocks[2].onData, 0.0);
        QCOMPARE(blocks[3].onData, 0.0);
    }
    void aGridStrideLoopReachesEveryElement_data() {
        QTest::addColumn<model::Shape>("shape");
        QTest::addColumn<launch::LaunchGeometry>("launch");
        QTest::addColumn<quint64>("busy");
        QTest::addColumn<quint64>("idle");
        // sum_squares_reduction: 1024 x 256 threads over 4000 x 4000 ones, about 61 elements each.
        QTest::newRow("more data than threads")
            << model::Shape{4000, 4000} << geometry({1024, 1, 1}, {256, 1, 1}) << quint64(262144)
            << quint64(0);
        QTest::newRow("more threads than data")
            << model::Shape{1000} << geometry({8, 1, 1}, {256, 1, 1}) << quint64(1000) << quint64(1048);
        QTest::newRow("2-D block, flattened")
            << model::Shape{10, 10} << geometry({1, 1, 1}, {8, 8, 1}) << quint64(64) << quint64(0);
    }
    void aGridStrideLoopReachesEveryElement() {
        QFETCH(model::Shape, shape);
        QFETCH(launch::LaunchGeometry, launch);
        QFETCH(quint64, busy);
        QFETCH(quint64, idle);
        const auto c = run::strideCoverageOf(shape, launch);
        QCOMPARE(c.uncovered, quint64(0));
        QCOMPARE(c.busy, busy);
        QCOMPARE(c.idle, idle);
        QCOMPARE(c.threads, launch.blocks() * launch.threadsPerBlock());
        QCOMPARE(c.elements, shape.size() == 2 ? shape[0] * shape[1] : shape[0]);
        QCOMPARE(run::strideCoverageOf({}, launch).elements, quint64(0));
    }

    // A grid sized for two (four, eight) elements a thread, as half2 or float4 kernels are launched, is
    // taken for that; a grid that is merely short, or sized for none of them, is not.
    void guessesTheElementsEachThreadTakes_data() {
        QTest::addColumn<model::Shape>("shape");
        QTest::addColumn<launch::LaunchGeometry>("launch");
        QTest::addColumn<uint>("perThread");
        // half_precision_axpy: 4,194,305 halves, a thread per pair, 256 a block.
        QTest::newRow("pairs, odd n") << model::Shape{4194305} << geometry({8193, 1, 1}, {256, 1, 1}) << 2U;
        QTest::newRow("float4") << model::Shape{1 << 20} << geometry({1024, 1, 1}, {256, 1, 1}) << 4U;
        QTest::newRow("eight") << model::Shape{8000} << geometry({4, 1, 1}, {256, 1, 1}) << 8U;
        QTest::newRow("one each") << model::Shape{1000} << geometry({4, 1, 1}, {256, 1, 1}) << 1U;
        QTest::newRow("short by a block") << model::Shape{1000} << geometry({3, 1, 1}, {256, 1, 1}) << 1U;
        QTest::newRow("a sixth") << model::Shape{6000} << geometry({4, 1, 1}, {256, 1, 1}) << 1U;
        QTest::newRow("a quarter, in one block")
            << model::Shape{1000} << geometry({1, 1, 1}, {256, 1, 1}) << 4U;
        QTest::newRow("2-D data") << model::Shape{64, 64} << geometry({8, 1, 1}, {256, 1, 1}) << 1U;
        QTest::newRow("2-D grid") << model::Shape{4096} << geometry({4, 2, 1}, {256, 1, 1}) << 1U;
    }

    void guessesTheElementsEachThreadTakes() {
        QFETCH(model::Shape, shape);
        QFETCH(launch::LaunchGeometry, launch);
        QFETCH(uint, perThread);
        QCOMPARE(run::elementsPerThread(shape, launch), perThread);
    }

    void findsKernelsThatReadGridDim_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("line");
        QTest::addColumn<bool>("reads");
        const QString strided = QStringLiteral(
            "__global__ void sum(const float* a, float* t, int n)\n"
            "{\n"
            "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {}\n"
            "}\n");
        QTest::newRow("grid-stride loop") << strided << 1 << true;
        QTest::newRow("one thread per element")
            << QStringLiteral("__global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }")
            << 1 << false;
        QTest::newRow("only in a comment")
            << QStringLiteral(
                   "__global__ void k(float* a) {\n  // no gridDim here\n  /* nor gridDim.x */ a[0] = 1; }")
            << 1 << false;
        QTest::newRow("only in a string")
            << QStringLiteral("__global__ void k() { printf(\"gridDim {\"); }") << 1 << false;
        QTest::newRow("a longer name")
            << QStringLiteral("__global__ void k(int myGridDim) { int gridDims = myGridDim; }") << 1 << false;
        QTest::newRow("the first of two kernels")
            << QStringLiteral("__global__ void a(float* x) { x[0] = 1; }\n") + strided << 1 << false;
        QTest::newRow("the second of two kernels")
            << QStringLiteral("__global__ void a(float* x) { x[0] = 1; }\n") + strided << 2 << true;
        QTest::newRow("a declaration")
            << QStringLiteral("__global__ void k(float*);\n") + strided << 1 << false;
        QTest::newRow("no body") << QStringLiteral("__global__ void k(float* a)") << 1 << false;
        QTest::newRow("line past the end") << strided << 40 << false;
        // Read as tokens: a raw string's quote once opened a string that hid the rest of the line, and a
        // comment continued onto the next line was not seen as one.
        QTest::newRow("after a raw string holding a quote")
            << QStringLiteral("__global__ void k(int n) { const char* s = R\"(\")\"; for (int i = 0; i < n; "
                              "i += gridDim.x) {} }")
            << 1 << true;
        QTest::newRow("in a continued line comment")
            << QStringLiteral("__global__ void k(float* a) {\n  // no grid-stride loop \\\n  i += "
                              "gridDim.x;\n a[0] = 1; }")
            << 1 << false;
    }
    void findsKernelsThatReadGridDim() {
        QFETCH(QString, source);
        QFETCH(int, line);
        QFETCH(bool, reads);
        QCOMPARE(run::readsGridDim(source.toStdString(), line), reads);
    }
};

QTEST_MAIN(TestGridCoverage)
#include "tst_gridcoverage.moc"
