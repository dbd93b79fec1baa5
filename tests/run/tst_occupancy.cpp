// run::estimateOccupancy against figures worked out by hand for an H100 (sm_90), row by row: each row
// stresses one rule (warp rounding, register allocation unit and sub-partitions, the shared memory unit
// and the driver's 1 KiB per block, the block limit) and would come out differently without it.
// tests/cuda/tst_occupancy.cpp checks the same rules against the driver on a real GPU.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/cuda/Device.h"
#include "core/run/Occupancy.h"

#include <QtTest>

using namespace kp;

Q_DECLARE_METATYPE(kp::run::OccupancyLimit)

namespace {

using test::h100;

} // namespace

class TestOccupancy : public QObject {
    Q_OBJECT

private slots:
    // The worker sends the device to the app as `kernelpad-cli devices --json` prints it.
    void devicePropertiesSurviveJson() {
        QCOMPARE(cuda::devicePropertiesFromJson(cuda::toJson(h100())), h100());
        auto broken = cuda::toJson(h100());
        broken.erase("warp_size");
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception, cuda::devicePropertiesFromJson(broken));
    }

    void derivesAllocationRulesFromTheComputeCapability_data() {
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::addColumn<int>("sharedUnit");
        QTest::addColumn<int>("reserved");
        QTest::addColumn<int>("maxRegisters");
        QTest::addColumn<int>("subPartitions");
        QTest::newRow("sm_90") << 9 << 0 << 128 << 1024 << 256 << 4;
        QTest::newRow("sm_80") << 8 << 0 << 128 << 1024 << 256 << 4;
        QTest::newRow("sm_75") << 7 << 5 << 256 << 0 << 256 << 4;
        QTest::newRow("sm_61") << 6 << 1 << 256 << 0 << 255 << 4;
        QTest::newRow("sm_60") << 6 << 0 << 256 << 0 << 255 << 2;
    }
    void derivesAllocationRulesFromTheComputeCapability() {
        QFETCH(int, major);
        QFETCH(int, minor);
        QFETCH(int, sharedUnit);
        QFETCH(int, reserved);
        QFETCH(int, maxRegisters);
        QFETCH(int, subPartitions);
        const run::OccupancyRules rules = run::occupancyRules(major, minor);
        QCOMPARE(rules.registerAllocationUnit, 256);
        QCOMPARE(rules.sharedAllocationUnit, sharedUnit);
        QCOMPARE(rules.reservedSharedPerBlock, reserved);
        QCOMPARE(rules.maxRegistersPerThread, maxRegisters);
        QCOMPARE(rules.subPartitions, subPartitions);
    }

    void matchesHandComputedFiguresForAnH100_data() {
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("staticShared");
        QTest::addColumn<int>("dynamicShared");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("blocks");
        QTest::addColumn<int>("warps");
        QTest::addColumn<run::OccupancyLimit>("limit");
        using L = run::OccupancyLimit;
        // 32 regs x 32 lanes = 1024 per warp; 16384 per sub-partition hold 16 warps, 64 in all: 8 blocks of
        // 8 warps, as many as the SM's 64 warp slots. A tie is named after the threads.
        QTest::newRow("full: 32 regs, 256 threads") << 32 << 0 << 0 << 256 << 8 << 64 << L::Warps;
        // 2048 regs per warp: 8 warps per sub-partition, 32 in all, 4 blocks of 8 warps.
        QTest::newRow("64 regs, 256 threads") << 64 << 0 << 0 << 256 << 4 << 32 << L::Registers;
        // 40 x 32 = 1280 per warp; a sub-partition holds 12 (16384 / 1280 = 12.8), the SM 48, so 24 blocks of
        // 2 warps. Counting the SM's registers as one pool would give 51 warps and 25 blocks.
        QTest::newRow("sub-partitions: 40 regs, 64 threads")
            << 40 << 0 << 0 << 64 << 24 << 48 << L::Registers;
        // 33 x 32 = 1056 rounds up to 1280 (the 256-register unit): 48 warps, 6 blocks of 8. Unrounded: 7.
        QTest::newRow("register unit: 33 regs, 256 threads")
            << 33 << 0 << 0 << 256 << 6 << 48 << L::Registers;
        // One-warp blocks: warps allow 64, registers 128 (512 per warp), shared 228; the SM holds 32 blocks.
        QTest::newRow("blocks: 16 regs, 32 threads") << 16 << 0 << 0 << 32 << 32 << 32 << L::Blocks;
        // 1000 threads take 32 warps (the last one partial): 2 blocks fill the SM's 64 warps.
        QTest::newRow("partial warp: 1000 threads") << 32 << 0 << 0 << 1000 << 2 << 64 << L::Warps;
        // 48 KiB dynamic + 1 KiB reserved = 50176 B per block: 233472 / 50176 = 4.65, so 4 blocks.
        QTest::newRow("shared: 48 KiB dynamic") << 32 << 0 << 48 * 1024 << 256 << 4 << 32 << L::SharedMemory;
        // 45576 + 1024 = 46600 B rounds up to 46720 (the 128-byte unit): 233472 / 46720 = 4.997, so 4 blocks
        // of 4 warps. Without the rounding, or without the driver's 1 KiB, 5 would fit.
        QTest::newRow("shared unit and reserve") << 32 << 0 << 45576 << 128 << 4 << 16 << L::SharedMemory;
        // Static and dynamic add up: 10000 + 20000 + 1024 = 31024 -> 31104 B; 233472 / 31104 = 7.5.
        QTest::newRow("static + dynamic shared") << 32 << 10000 << 20000 << 128 << 7 << 28 << L::SharedMemory;
        // The opt-in maximum, 227 KiB, with the 1 KiB reserve fills the SM's 228 KiB: one block.
        QTest::newRow("shared: opt-in maximum") << 32 << 0 << 227 * 1024 << 256 << 1 << 8 << L::SharedMemory;
        // One byte more fits no block.
        QTest::newRow("shared: over the opt-in maximum")
            << 32 << 0 << 227 * 1024 + 1 << 256 << 0 << 0 << L::SharedMemory;
        // 255 regs round up to 8192 per warp: 2 warps per sub-partition, 8 in all, exactly one block of 8
        // warps.
        QTest::newRow("255 regs, 256 threads") << 255 << 0 << 0 << 256 << 1 << 8 << L::Registers;
        // 128 regs x 1024 threads need 131072 registers, twice what a block can have.
        QTest::newRow("registers: over a block's") << 128 << 0 << 0 << 1024 << 0 << 0 << L::Registers;
        QTest::newRow("threads: over a block's") << 32 << 0 << 0 << 2048 << 0 << 0 << L::Warps;
    }
    void matchesHandComputedFiguresForAnH100() {
        QFETCH(int, registers);
        QFETCH(int, staticShared);
        QFETCH(int, dynamicShared);
        QFETCH(int, threads);
        QFETCH(int, blocks);
        QFETCH(int, warps);
        QFETCH(run::OccupancyLimit, limit);
        const auto e = run::estimateOccupancy(h100(), registers, std::uint64_t(staticShared),
                                              std::uint64_t(dynamicShared), std::uint64_t(threads));
        QCOMPARE(e.activeBlocksPerMultiprocessor, blocks);
        QCOMPARE(e.activeWarpsPerMultiprocessor, warps);
        QCOMPARE(e.maxWarpsPerMultiprocessor, 64);
        QCOMPARE(e.limit, limit);
        QCOMPARE(e.ratio(), warps / 64.0);
        QVERIFY2(!e.reason.empty(), "every estimate says what limits it");
    }

    void explainsTheLimitInASentence_data() {
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("dynamicShared");
        QTest::addColumn<int>("threads");
        QTest::addColumn<QString>("reason");
        QTest::newRow("registers") << 64 << 0 << 256
                                   << "registers: 64 per thread allow 4 blocks of 256 threads per SM";
        QTest::newRow("threads") << 32 << 0 << 256
                                 << "threads: 2048 per SM allow 8 blocks of 256 threads per SM";
        QTest::newRow("blocks") << 16 << 0 << 32 << "blocks: at most 32 per SM, here of 32 threads each";
        QTest::newRow("shared")
            << 32 << 48 * 1024 << 256
            << "shared memory: 49.0 KiB per block (1.0 KiB of it reserved by the driver), "
               "of 228.0 KiB per SM, allow 4 blocks of 256 threads per SM";
        QTest::newRow("one block") << 255 << 0 << 256
                                   << "registers: 255 per thread allow 1 block of 256 threads per SM";
        QTest::newRow("too many registers")
            << 128 << 0 << 1024
            << "registers: 128 per thread need 131072 for a block of 1024 threads, "
               "over the 65536 a block can have";
        QTest::newRow("too many threads") << 32 << 0 << 2048
                                          << "threads: a block of 2048 threads is over the 1024 "
                                             "a block can have";
        QTest::newRow("too much shared")
            << 32 << 228 * 1024 << 256
            << "shared memory: 228.0 KiB per block is over the 227.0 KiB a block can have";
    }
    void explainsTheLimitInASentence() {
        QFETCH(int, registers);
        QFETCH(int, dynamicShared);
        QFETCH(int, threads);
        QFETCH(QString, reason);
        const auto e = run::estimateOccupancy(h100(), registers, 0, std::uint64_t(dynamicShared),
                                              std::uint64_t(threads));
        QCOMPARE(QString::fromStdString(e.reason), reason);
    }

    void reportsWhatEachResourceAllows() {
        const auto e = run::estimateOccupancy(h100(), 64, 0, 0, 256);
        QCOMPARE(e.blocksByWarps, 8);
        QCOMPARE(e.blocksByBlocks, 32);
        QCOMPARE(e.blocksByRegisters, 4);
        QCOMPARE(e.blocksBySharedMemory, 228); // 1 KiB reserved per block
        QCOMPARE(e.sharedBytesPerBlock, std::uint64_t{1024});
    }

    void refusesADeviceWithoutProperties() {
        cuda::DeviceProperties unknown;
        unknown.name = "GPU 7";
        try {
            (void)run::estimateOccupancy(unknown, 32, 0, 0, 256);
            QFAIL("a device with no SM figures must be refused");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("GPU 7") != std::string::npos, e.what());
        }
    }
};

QTEST_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
