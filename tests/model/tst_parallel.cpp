// kp::inParts and kp::inIndexedParts (core/Parallel): every element once, in consecutive ranges, each
// range told its index in order; one call on the calling thread below the threshold; copyBytes and
// zeroBytes over sizes that split into parts.
#include "core/Cores.h"
#include "core/Parallel.h"

#include <QTest>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

class TestParallel : public QObject {
    Q_OBJECT
private slots:
    void everyElementOnceInIndexedConsecutiveRanges() {
        for (const std::size_t count :
             {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{100003}}) {
            const std::size_t parts = kp::partsOf(count, 2);
            QVERIFY(parts >= 1);
            QVERIFY(parts <= std::max<std::size_t>(1, kp::usableCores()));
            std::vector<std::atomic<int>> seen(count);
            std::vector<std::pair<std::size_t, std::size_t>> ranges(parts, {count + 1, 0});
            std::mutex mutex;
            std::atomic<int> odd{0}; // parts with an index or a range out of place (checked here, not there)
            kp::inIndexedParts(count, 2, [&](std::size_t index, std::size_t from, std::size_t to) {
                if (index >= parts || from >= to || to > count) {
                    odd.fetch_add(1);
                    return;
                }
                for (std::size_t i = from; i < to; ++i)
                    seen[i].fetch_add(1);
                const std::lock_guard lock(mutex);
                ranges[index] = {from, to};
            });
            QCOMPARE(odd.load(), 0);
            for (std::size_t i = 0; i < count; ++i)
                QCOMPARE(seen[i].load(), 1);
            // The ranges follow the indices: the first starts at 0, each starts where the one before ends.
            QCOMPARE(ranges.front().first, std::size_t{0});
            QCOMPARE(ranges.back().second, count);
            for (std::size_t p = 1; p < parts; ++p)
                QCOMPARE(ranges[p].first, ranges[p - 1].second);
        }
    }

    void belowTheThresholdOneCallOnTheCallingThread() {
        QCOMPARE(kp::partsOf(0, 10), std::size_t{0});
        QCOMPARE(kp::partsOf(9, 10), std::size_t{1});
        int calls = 0;
        const auto caller = std::this_thread::get_id();
        kp::inParts(9, 10, [&](std::size_t from, std::size_t to) {
            ++calls;
            QCOMPARE(from, std::size_t{0});
            QCOMPARE(to, std::size_t{9});
            QVERIFY(std::this_thread::get_id() == caller);
        });
        QCOMPARE(calls, 1);
        kp::inParts(0, 0, [&](std::size_t, std::size_t) { ++calls; });
        QCOMPARE(calls, 1);
    }

    void copiesAndZeroesLargeBlocks() {
        const std::size_t bytes = (std::size_t{40} << 20) + 13; // several 16 MiB parts, and a ragged end
        std::vector<std::byte> from(bytes), to(bytes, std::byte{0x5a});
        for (std::size_t i = 0; i < bytes; ++i)
            from[i] = std::byte(i * 31 + 7);
        kp::copyBytes(to.data(), from.data(), bytes);
        QVERIFY(to == from);
        kp::zeroBytes(to.data() + 1, bytes - 2);
        QCOMPARE(to.front(), from.front());
        QCOMPARE(to.back(), from.back());
        for (std::size_t i = 1; i + 1 < bytes; ++i)
            if (to[i] != std::byte{0}) QFAIL(qPrintable(QString("byte %1 not zeroed").arg(i)));
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
