// WorkerPool: a run calls the job once on each worker, and rouse() wakes the sleeping workers, which wait
// awake for a while, then sleep again. Waits poll the pool's state with a generous deadline (a loaded CI
// machine): they check what happens, not how fast.
#include "core/cpu/WorkerPool.h"

#include <QtTest>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace kp;

namespace {

template <typename Condition> bool eventually(const Condition& condition) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

} // namespace

class TestWorkerPool : public QObject {
    Q_OBJECT

private slots:
    void everyWorkerRunsTheJobOnce() {
        cpu::WorkerPool pool(4);
        QCOMPARE(pool.size(), 4u);
        for (int round = 0; round < 3; ++round) {
            std::vector<std::atomic<int>> calls(4);
            pool.run([&](unsigned w) { calls[w].fetch_add(1); });
            for (unsigned w = 0; w < 4; ++w)
                QCOMPARE(calls[w].load(), 1);
        }
    }

    // Asleep after a run; roused, each wakes without a run; asleep again once kRoused has passed
    // with no run; and a run after a rouse runs on every worker.
    void rousedWorkersWakeThenSleepAgain() {
        cpu::WorkerPool pool(3);
        pool.run([](unsigned) {});
        QVERIFY2(eventually([&] { return pool.sleeping() == 2; }), "the workers never went to sleep");
        // Each sleeping worker wakes for it (counted: on a loaded machine one may sleep again, its kRoused
        // over, before the other is scheduled, so "none asleep at once" is no sure sign).
        pool.rouse();
        QVERIFY2(eventually([&] { return pool.rousedWakes() == 2; }), "rouse() did not wake both workers");
        QVERIFY2(eventually([&] { return pool.sleeping() == 2; }), "roused workers never slept again");
        pool.rouse();
        std::vector<std::atomic<int>> calls(3);
        pool.run([&](unsigned w) { calls[w].fetch_add(1); });
        for (unsigned w = 0; w < 3; ++w)
            QCOMPARE(calls[w].load(), 1);
        // A rouse while every worker is awake changes nothing.
        pool.run([](unsigned) {});
        pool.rouse();
        pool.run([&](unsigned w) { calls[w].fetch_add(1); });
        for (unsigned w = 0; w < 3; ++w)
            QCOMPARE(calls[w].load(), 2);
    }

    void aJobsExceptionReachesRun() {
        cpu::WorkerPool pool(3);
        bool thrown = false;
        try {
            pool.run([](unsigned w) {
                if (w == 2) throw std::runtime_error("worker 2 fails");
            });
        } catch (const std::runtime_error& e) {
            thrown = QString(e.what()) == "worker 2 fails";
        }
        QVERIFY(thrown);
        std::atomic<int> calls{0};
        pool.run([&](unsigned) { calls.fetch_add(1); });
        QCOMPARE(calls.load(), 3);
    }
};

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
