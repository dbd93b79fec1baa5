// The driver loader, errors and argument packing: runs everywhere (CI has no driver, so it checks the
// "unavailable" path there and the loaded path on the GPU machine).
#include "core/SharedLibrary.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Driver.h"
#include "core/cuda/Launch.h"
#include "core/cuda/Nvrtc.h"

#include <QTest>

using namespace kp::cuda;

class TestDriver : public QObject {
    Q_OBJECT
private slots:
    void saysWhyCudaIsUnavailableOrLoadsIt() {
        if (Driver::available()) {
            QVERIFY(Driver::unavailableReason().empty());
            QVERIFY2(Driver::version() >= 12000, "the driver should support CUDA 12 or newer");
            QVERIFY(Driver::api().cuLaunchKernel != nullptr);
            return;
        }
        const std::string reason = Driver::unavailableReason();
        QVERIFY(!reason.empty());
        QVERIFY2(reason.find("libcuda") != std::string::npos || reason.find("device") != std::string::npos,
                 reason.c_str());
        try {
            Driver::api();
            QFAIL("api() must throw when CUDA is unavailable");
        } catch (const Unavailable& e) {
            QVERIFY(std::string(e.what()).find(reason) != std::string::npos);
        }
    }

    void errorNamesTheCallAndTheError() {
        try {
            check(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc");
            QFAIL("check must throw on an error code");
        } catch (const CudaError& e) {
            QCOMPARE(e.call(), std::string("cuMemAlloc"));
            QCOMPARE(e.code(), int(CUDA_ERROR_INVALID_VALUE));
            const std::string what = e.what();
            QVERIFY2(what.rfind("cuMemAlloc failed: ", 0) == 0, what.c_str());
            if (Driver::loaded()) {
                QCOMPARE(e.name(), std::string("CUDA_ERROR_INVALID_VALUE"));
                QVERIFY2(what.find("invalid argument") != std::string::npos, what.c_str());
            } else {
                QCOMPARE(e.name(), std::string("CUresult 1"));
            }
        }
        check(CUDA_SUCCESS, "cuInit"); // success never throws
    }

    void recognisesStickyErrors_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<bool>("sticky");
        QTest::addColumn<bool>("outOfMemory");
        QTest::newRow("illegal address") << int(CUDA_ERROR_ILLEGAL_ADDRESS) << true << false;
        QTest::newRow("misaligned") << int(CUDA_ERROR_MISALIGNED_ADDRESS) << true << false;
        QTest::newRow("assert") << int(CUDA_ERROR_ASSERT) << true << false;
        QTest::newRow("launch failed") << int(CUDA_ERROR_LAUNCH_FAILED) << true << false;
        QTest::newRow("invalid value") << int(CUDA_ERROR_INVALID_VALUE) << false << false;
        QTest::newRow("out of memory") << int(CUDA_ERROR_OUT_OF_MEMORY) << false << true;
        QTest::newRow("not found") << int(CUDA_ERROR_NOT_FOUND) << false << false;
    }
    void recognisesStickyErrors() {
        QFETCH(int, code);
        QFETCH(bool, sticky);
        QFETCH(bool, outOfMemory);
        const CudaError e("cuLaunchKernel", code, "name", "message");
        QCOMPARE(e.sticky(), sticky);
        QCOMPARE(e.outOfMemory(), outOfMemory);
    }

    void sharedLibraryListsEveryFailedAttempt() {
        const auto lib = kp::SharedLibrary::openFirst({"libkp-no-such-1.so", "libkp-no-such-2.so"});
        QVERIFY(!lib.isOpen());
        QVERIFY(lib.error().find("libkp-no-such-1.so") != std::string::npos);
        QVERIFY(lib.error().find("libkp-no-such-2.so") != std::string::npos);
        QCOMPARE(lib.symbol("anything"), nullptr);
    }

    void nvrtcLoadsOrSaysWhy() {
        if (!Nvrtc::available()) {
            QVERIFY(!Nvrtc::unavailableReason().empty());
            QVERIFY_THROWS_EXCEPTION(Unavailable, Nvrtc::api());
            return;
        }
        QVERIFY(!Nvrtc::path().empty());
        QVERIFY2(Nvrtc::version().find('.') != std::string::npos, Nvrtc::version().c_str());
    }

    void nvrtcErrorNamesTheCall() {
        if (!Nvrtc::available()) QSKIP("NVRTC is not installed here");
        try {
            checkNvrtc(NVRTC_ERROR_INVALID_INPUT, "nvrtcCreateProgram");
            QFAIL("checkNvrtc must throw on an error code");
        } catch (const NvrtcError& e) {
            QCOMPARE(e.call(), std::string("nvrtcCreateProgram"));
            QVERIFY2(std::string(e.what()).find("NVRTC_ERROR_INVALID_INPUT") != std::string::npos, e.what());
        }
    }

    void packsArgumentsWithTheirAlignment() {
        KernelArguments args;
        const char c = 'x';
        const double d = 2.5;
        const float f = 1.5f;
        args.add(c);
        args.add(d);
        args.add(f);
        QCOMPARE(args.count(), std::size_t(3));
        void** p = args.pointers();
        QCOMPARE(*static_cast<char*>(p[0]), 'x');
        QCOMPARE(*static_cast<double*>(p[1]), 2.5);
        QCOMPARE(*static_cast<float*>(p[2]), 1.5f);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(p[1]) % alignof(double), std::uintptr_t(0));
    }

    void launchConfigsCompareAndPrint() {
        const LaunchConfig a{{4, 2, 1}, {256, 1, 1}, 1024};
        LaunchConfig b = a;
        QCOMPARE(a, b);
        b.block.x = 128;
        QVERIFY(!(a == b));
        QCOMPARE(a.grid.volume(), 8ULL);
        std::ostringstream text;
        text << a;
        QCOMPARE(text.str(), std::string("grid (4, 2, 1) block (256, 1, 1) shared 1024 B"));
    }
};

QTEST_APPLESS_MAIN(TestDriver)
#include "tst_driver.moc"
