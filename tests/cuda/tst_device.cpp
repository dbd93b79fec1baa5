// Devices and contexts on the GPU machine; skipped with the reason elsewhere.
#include "GpuTestSupport.h"

using namespace kp::cuda;

class TestDevice : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { KP_REQUIRE_GPU(); }

    void enumeratesDevicesWithSaneAttributes() {
        QVERIFY(Device::count() >= 1);
        const auto all = Device::all();
        QCOMPARE(int(all.size()), Device::count());
        const DeviceProperties p = all.front().properties();
        QVERIFY(!p.name.empty());
        QVERIFY2(p.ccMajor >= 5, p.name.c_str());
        QVERIFY(p.multiprocessors > 0);
        QVERIFY(p.totalMemory > (std::size_t(1) << 30));
        QCOMPARE(p.warpSize, 32);
        QCOMPARE(p.maxThreadsPerBlock, 1024);
        QCOMPARE(p.maxBlockDim[0], 1024);
        QCOMPARE(p.maxBlockDim[2], 64);
        QVERIFY(p.maxGridDim[0] >= 65535);
        QVERIFY(p.sharedPerBlock >= 48 * 1024);
        QVERIFY(p.sharedPerBlockOptin >= p.sharedPerBlock);
        QVERIFY(p.registersPerMultiprocessor >= 65536);
        QVERIFY2(p.peakBandwidthGBs() > 100.0, std::to_string(p.peakBandwidthGBs()).c_str());
        QCOMPARE(p.arch(), "sm_" + std::to_string(p.ccMajor) + std::to_string(p.ccMinor));
        qInfo("%s, %s, %d SMs, %.0f GB/s peak", p.name.c_str(), p.arch().c_str(), p.multiprocessors,
              p.peakBandwidthGBs());
    }

    void rejectsAMissingOrdinalNamingTheCount() {
        const int n = Device::count();
        try {
            Device::get(n);
            QFAIL("a missing device must throw");
        } catch (const kp::InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("no CUDA device " + std::to_string(n)) != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(kp::InputError, Device::get(-1));
    }

    void contextIsCurrentAndReportsMemory() {
        Context context(Device::get(0));
        CUcontext current = nullptr;
        KP_CU(cuCtxGetCurrent, &current);
        QCOMPARE(current, context.handle());
        const auto [freeBytes, totalBytes] = context.device().memoryInfo();
        QVERIFY(freeBytes > 0);
        QVERIFY(freeBytes <= totalBytes);
        context.synchronize();
    }

    void contextsMoveWithoutDoubleRelease() {
        Context a(Device::get(0));
        CUcontext handle = a.handle();
        Context b(std::move(a));
        QCOMPARE(b.handle(), handle);
        // NOLINTNEXTLINE(bugprone-use-after-move): checking the moved-from state
        QCOMPARE(a.handle(), CUcontext(nullptr));
        Context c(Device::get(0));
        c = std::move(b);
        QCOMPARE(c.handle(), handle);
        c.synchronize();
    }
};

QTEST_APPLESS_MAIN(TestDevice)
#include "tst_device.moc"
