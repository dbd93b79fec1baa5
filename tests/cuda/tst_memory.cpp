// Device and pinned host buffers on the GPU machine: copies both ways, sizes, out of memory, no leaks.
#include "GpuTestSupport.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Driver.h"
#include "core/cuda/HostBuffer.h"
#include "core/cuda/PinnedAllocator.h"
#include "core/cuda/Stream.h"

#include <cerrno>
#include <numeric>
#include <optional>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace kp::cuda;

class TestMemory : public QObject {
    Q_OBJECT
    std::optional<Context> context_;

    static std::vector<std::byte> pattern(std::size_t bytes) {
        std::vector<std::byte> v(bytes);
        for (std::size_t i = 0; i < bytes; ++i)
            v[i] = std::byte(i * 7 + 3);
        return v;
    }

private slots:
    void initTestCase() {
        KP_REQUIRE_GPU();
        context_.emplace(Device::get(0));
    }
    void cleanupTestCase() { context_.reset(); }

    void roundTripsPageableMemory() {
        const auto in = pattern(1 << 20);
        DeviceBuffer buffer(in.size());
        buffer.copyFrom(in);
        std::vector<std::byte> out(in.size());
        buffer.copyTo(out);
        QVERIFY(in == out);
    }

    void roundTripsPinnedMemoryOnAStream() {
        const auto in = pattern(3 << 20);
        HostBuffer host(in.size());
        std::copy(in.begin(), in.end(), host.data());
        DeviceBuffer buffer(in.size());
        Stream stream = Stream::create();
        buffer.copyFromAsync(host.span(), stream);
        HostBuffer back(in.size());
        buffer.copyToAsync(back.span(), stream);
        stream.synchronize();
        QVERIFY(stream.idle());
        QVERIFY(std::equal(in.begin(), in.end(), back.data()));
    }

    // Small blocks come from cuMemAllocHost, large ones (8 MiB and more) are heap memory registered with
    // the driver: both zeroed, 64-byte aligned, copied both ways, and kept for the next block of the size.
    void pinnedAllocatorSmallAndLargeBlocks() {
        auto shared = std::make_shared<const Context>(Device::get(0));
        PinnedAllocator allocator(shared);
        for (const std::size_t bytes : {std::size_t{4096}, std::size_t{24} << 20}) {
            const QString size = QString::number(bytes);
            const std::size_t keptBefore = allocator.keptBytes();
            std::byte* data = allocator.allocate(bytes);
            QVERIFY2(reinterpret_cast<std::uintptr_t>(data) % 64 == 0, qPrintable(size));
            QVERIFY2(std::all_of(data, data + bytes, [](std::byte b) { return b == std::byte(0); }),
                     qPrintable(size));
            if (bytes >= (std::size_t{8} << 20)) {
                // Registered: the driver refuses to register it again. And not mapped in a forked child,
                // which would otherwise get a copy of every locked page at fork.
                QCOMPARE(Driver::api().cuMemHostRegister(data, bytes, 0),
                         CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
                const pid_t child = ::fork();
                if (child == 0) ::_exit(::madvise(data, 4096, MADV_NORMAL) == -1 && errno == ENOMEM ? 0 : 1);
                int status = -1;
                QCOMPARE(::waitpid(child, &status, 0), child);
                QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                         "the block is mapped in a forked child");
            }
            const auto in = pattern(bytes);
            std::copy(in.begin(), in.end(), data);
            DeviceBuffer buffer(bytes);
            Stream stream = Stream::create();
            buffer.copyFromAsync({data, bytes}, stream);
            std::byte* back = allocator.allocateUninitialized(bytes);
            QVERIFY(back != data);
            buffer.copyToAsync({back, bytes}, stream);
            stream.synchronize();
            QVERIFY2(std::equal(in.begin(), in.end(), back), qPrintable(size));
            allocator.deallocate(back, bytes);
            QCOMPARE(allocator.keptBytes(), keptBefore + bytes);
            std::byte* again = allocator.allocate(bytes); // the kept block, zeroed again
            QCOMPARE(again, back);
            QVERIFY2(std::all_of(again, again + bytes, [](std::byte b) { return b == std::byte(0); }),
                     qPrintable(size));
            allocator.deallocate(again, bytes);
            allocator.deallocate(data, bytes);
            QCOMPARE(allocator.keptBytes(), keptBefore + 2 * bytes);
        }
    }

    void zeroFillsTheBuffer() {
        auto in = pattern(4096);
        DeviceBuffer buffer(in.size());
        buffer.copyFrom(in);
        buffer.zero();
        buffer.copyTo(in);
        QVERIFY(std::all_of(in.begin(), in.end(), [](std::byte b) { return b == std::byte(0); }));
    }

    void rejectsACopyOfTheWrongSize() {
        DeviceBuffer buffer(1024);
        std::vector<std::byte> small(512);
        try {
            buffer.copyFrom(small);
            QFAIL("a size mismatch must throw");
        } catch (const kp::InputError& e) {
            QVERIFY2(std::string(e.what()).find("512") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("1024") != std::string::npos, e.what());
        }
    }

    void reportsOutOfMemoryWithTheSize() {
        try {
            DeviceBuffer huge(std::size_t(1) << 50); // 1 PiB
            QFAIL("a 1 PiB allocation must fail");
        } catch (const CudaError& e) {
            QVERIFY(e.outOfMemory());
            QVERIFY(!e.sticky());
            QVERIFY2(std::string(e.what()).find("1024.0 TiB") != std::string::npos, e.what());
        }
        DeviceBuffer fine(1 << 20); // the context is still usable
        QCOMPARE(fine.bytes(), std::size_t(1 << 20));
    }

    void movesOwnershipAndFreesEverything() {
        const auto before = context_->device().memoryInfo().first;
        for (int i = 0; i < 50; ++i) {
            DeviceBuffer a(64 << 20);
            DeviceBuffer b(std::move(a));
            QCOMPARE(a.address(), CUdeviceptr(0)); // NOLINT(bugprone-use-after-move)
            QCOMPARE(a.bytes(), std::size_t(0));
            DeviceBuffer c;
            c = std::move(b);
            QVERIFY(c.address() != 0);
            HostBuffer pinned(1 << 20);
            HostBuffer moved(std::move(pinned));
            QVERIFY(moved.data() != nullptr);
        }
        const auto after = context_->device().memoryInfo().first;
        // 50 x 64 MiB leaked would be 3.2 GiB; allow driver bookkeeping noise of a few MiB.
        const auto diff = before > after ? before - after : after - before;
        QVERIFY2(diff < (std::size_t(16) << 20), std::to_string(diff).c_str());
    }
};

QTEST_APPLESS_MAIN(TestMemory)
#include "tst_memory.moc"
