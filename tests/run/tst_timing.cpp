// Timing: a run report read back as it is written, malformed reports refused with the key at fault,
// the spread of repeats, effective bandwidth and GFLOP/s against the peak, and the change between runs.
#include "../TestSupport.h"
#include "core/run/RunReport.h"
#include "core/run/Timing.h"

#include <QTest>

using namespace kp::launch;
using namespace kp::run;
using nlohmann::json;

Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(Spread)

namespace {
RunTimings timed(std::vector<double> kernelMs, std::string backend = "cuda:0 NVIDIA H100 80GB HBM3") {
    RunTimings run;
    run.backend = std::move(backend);
    run.kernelMs = std::move(kernelMs);
    return run;
}
} // namespace

class TestTiming : public QObject {
    Q_OBJECT
private slots:
    void spreadsOfRepeats_data() {
        QTest::addColumn<std::vector<double>>("samples");
        QTest::addColumn<Spread>("spread");
        QTest::newRow("none") << std::vector<double>{} << Spread{};
        QTest::newRow("one") << std::vector<double>{2.5} << Spread{2.5, 2.5, 2.5, 1};
        QTest::newRow("odd, unsorted") << std::vector<double>{3, 1, 2} << Spread{1, 2, 3, 3};
        QTest::newRow("even: middle two averaged") << std::vector<double>{4, 1, 3, 2} << Spread{1, 2.5, 4, 4};
        QTest::newRow("an outlier moves max, not the median")
            << std::vector<double>{1, 1, 1, 1, 90} << Spread{1, 1, 90, 5};
    }
    void spreadsOfRepeats() {
        QFETCH(std::vector<double>, samples);
        QFETCH(Spread, spread);
        QVERIFY(spreadOf(samples) == spread);
    }

    void readsWhatRunReportWrites_data() {
        QTest::addColumn<bool>("referenceIsCpuBackend");
        QTest::newRow("CPU reference") << false;
        QTest::newRow("CPU backend standing in") << true;
    }
    void readsWhatRunReportWrites() {
        QFETCH(bool, referenceIsCpuBackend);
        RunSetup setup;
        setup.kernelName = "saxpy";
        RunResult result;
        result.backend = "cuda:0 NVIDIA H100 80GB HBM3";
        result.kernelMs = {0.5, 0.4, 0.6};
        result.h2dMs = {1.0, 1.1, 0.9};
        result.d2hMs = {0.7, 0.8, 0.75};
        result.h2dByArgument = {{"x", 4000, 0.5}, {"y", 4000, 0.5}};
        result.d2hByArgument = {{"y", 4000, 0.75}};
        ReferenceResult reference;
        reference.milliseconds = 42;
        RunReport report{&setup, &result, &reference, referenceIsCpuBackend, {}, {}};

        const auto run = RunTimings::fromReport(json(report.toJson()));
        QCOMPARE(run.backend, result.backend);
        QCOMPARE(run.kernel, std::string("saxpy"));
        QCOMPARE(run.kernelMs, result.kernelMs);
        QCOMPARE(run.h2dMs, result.h2dMs);
        QCOMPARE(run.d2hMs, result.d2hMs);
        QCOMPARE(run.bytesIn, std::uint64_t(8000));
        QCOMPARE(run.bytesOut, std::uint64_t(4000));
        QCOMPARE(run.referenceMs.has_value(), !referenceIsCpuBackend);
        QCOMPARE(run.cpuBackendMs.has_value(), referenceIsCpuBackend);
        QCOMPARE(run.referenceMs.value_or(run.cpuBackendMs.value_or(0)), 42.0);
        QVERIFY(!run.cancelled);
        QVERIFY(!run.onCpu());
        QCOMPARE(run.totalMs(), 1.0 + 0.5 + 0.75);
    }

    void readsACpuBackendReportWithoutTheOptionalMembers() {
        const auto run =
            RunTimings::fromReport(json::parse(R"j({"backend": "cpu (16 threads)", "kernel_ms": [3]})j"));
        QVERIFY(run.onCpu());
        QVERIFY(run.h2dMs.empty());
        QVERIFY(!run.referenceMs && !run.cpuBackendMs);
        QCOMPARE(run.totalMs(), 3.0);
    }

    void refusesMalformedReportsNamingTheKey_data() {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an object") << "[1, 2]"
                                       << "run report: expected a JSON object, found an array";
        QTest::newRow("no kernel_ms") << R"({"backend": "cpu"})"
                                      << "run report: kernel_ms: missing";
        QTest::newRow("kernel_ms a number") << R"({"kernel_ms": 3})"
                                            << "run report: kernel_ms: expected an array of times in ms";
        QTest::newRow("a repeat is text") << R"({"kernel_ms": [1, 2, "3"]})"
                                          << "run report: kernel_ms[2]: expected a time in ms, found \"3\"";
        QTest::newRow("negative copy") << R"({"kernel_ms": [1], "h2d_ms": [-0.5]})"
                                       << "run report: h2d_ms[0]: a time cannot be -0.5";
        QTest::newRow("d2h_ms an object")
            << R"({"kernel_ms": [1], "d2h_ms": {}})"
            << "run report: d2h_ms: expected an array of times in ms (one per repeat), "
               "found an object";
        QTest::newRow("reference_ms text")
            << R"({"kernel_ms": [1], "reference_ms": "fast"})"
            << "run report: reference_ms: expected a time in ms, found \"fast\"";
        QTest::newRow("cpu_backend_ms negative") << R"({"kernel_ms": [1], "cpu_backend_ms": -1})"
                                                 << "run report: cpu_backend_ms: a time cannot be -1";
        QTest::newRow("bytes negative")
            << R"({"kernel_ms": [1], "h2d_by_argument": [{"argument": "x", "bytes": -4}]})"
            << "run report: h2d_by_argument[0].bytes: expected a count of bytes";
        QTest::newRow("bytes missing") << R"({"kernel_ms": [1], "d2h_by_argument": [{"argument": "y"}]})"
                                       << "run report: d2h_by_argument[0].bytes: missing";
        QTest::newRow("transfers not a list") << R"({"kernel_ms": [1], "h2d_by_argument": 4096})"
                                              << "run report: h2d_by_argument: expected an array";
        QTest::newRow("backend a number") << R"({"kernel_ms": [1], "backend": 0})"
                                          << "run report: backend: expected text, found 0";
        QTest::newRow("cancelled text") << R"({"kernel_ms": [1], "cancelled": "no"})"
                                        << "run report: cancelled: expected true or false";
    }
    void refusesMalformedReportsNamingTheKey() {
        QFETCH(QString, report);
        QFETCH(QString, message);
        const json parsed = json::parse(report.toStdString());
        const auto error =
            QString::fromStdString(kp::test::inputErrorOf([&] { RunTimings::fromReport(parsed); }));
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    void measuresThroughputAgainstThePeak_data() {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<double>("kernelMs");
        QTest::addColumn<double>("flops");        // 0: none given
        QTest::addColumn<double>("peakGBs");      // 0: unknown
        QTest::addColumn<double>("peakGflops");   // 0: unknown
        QTest::addColumn<double>("bandwidthGBs"); // -1: none expected
        QTest::addColumn<double>("gflops");       // -1: none expected
        QTest::addColumn<double>("bandwidthOfPeak");
        QTest::addColumn<double>("gflopsOfPeak");
        // 12 MB in and out over 1 ms is 12 GB/s; 2e9 flops in 1 ms are 2000 GFLOP/s.
        const QString gpu = QStringLiteral("cuda:0 NVIDIA H100 80GB HBM3");
        QTest::newRow("bandwidth only") << gpu << 1.0 << 0.0 << 0.0 << 0.0 << 12.0 << -1.0 << -1.0 << -1.0;
        QTest::newRow("against the peak")
            << gpu << 1.0 << 2e9 << 48.0 << 8000.0 << 12.0 << 2000.0 << 0.25 << 0.25;
        QTest::newRow("half the time, twice the rate")
            << gpu << 0.5 << 2e9 << 0.0 << 0.0 << 24.0 << 4000.0 << -1.0 << -1.0;
        QTest::newRow("the CPU is not held to the GPU's peak")
            << "cpu (16 threads)" << 1.0 << 2e9 << 48.0 << 8000.0 << 12.0 << 2000.0 << -1.0 << -1.0;
        QTest::newRow("no kernel time: nothing")
            << gpu << 0.0 << 2e9 << 48.0 << 8000.0 << -1.0 << -1.0 << -1.0 << -1.0;
    }
    void measuresThroughputAgainstThePeak() {
        QFETCH(QString, backend);
        QFETCH(double, kernelMs);
        QFETCH(double, flops);
        QFETCH(double, peakGBs);
        QFETCH(double, peakGflops);
        QFETCH(double, bandwidthGBs);
        QFETCH(double, gflops);
        QFETCH(double, bandwidthOfPeak);
        QFETCH(double, gflopsOfPeak);
        auto run = timed({kernelMs}, backend.toStdString());
        run.bytesIn = 8'000'000;
        run.bytesOut = 4'000'000;
        const auto t =
            throughputOf(run, flops > 0 ? std::optional(flops) : std::nullopt, {peakGBs, peakGflops});
        const auto check = [](const std::optional<double>& actual, double expected) {
            if (expected < 0) return !actual.has_value();
            return actual.has_value() && qFuzzyCompare(*actual, expected);
        };
        QVERIFY(check(t.bandwidthGBs, bandwidthGBs));
        QVERIFY(check(t.gflops, gflops));
        QVERIFY(check(t.bandwidthOfPeak, bandwidthOfPeak));
        QVERIFY(check(t.gflopsOfPeak, gflopsOfPeak));
    }

    void describesThroughputInWords() {
        const DevicePeak peak{3352, 51200};
        QCOMPARE(describe(Throughput{812.4, 101.2, 812.4 / 3352, 101.2 / 51200}, peak),
                 std::string("812 GB/s effective (24% of the 3352 GB/s peak), 101 GFLOP/s (0.2% of the 51200 "
                             "GFLOP/s peak)"));
        QCOMPARE(describe(Throughput{2.346, {}, {}, {}}, {}), std::string("2.35 GB/s effective"));
        QCOMPARE(describe(Throughput{}, peak), std::string());
    }

    void saysHowMuchFasterTheNewRunIs_data() {
        QTest::addColumn<double>("before");
        QTest::addColumn<double>("after");
        QTest::addColumn<QString>("text");
        QTest::newRow("3x faster") << 3.0 << 1.0 << "3.0x faster";
        QTest::newRow("3.1x faster") << 3.1 << 1.0 << "3.1x faster";
        QTest::newRow("1.5x slower") << 2.0 << 3.0 << "1.5x slower";
        QTest::newRow("4% faster is the same") << 1.04 << 1.0 << "about the same";
        QTest::newRow("4% slower is the same") << 1.0 << 1.04 << "about the same";
        QTest::newRow("just past 5% keeps two decimals") << 1.06 << 1.0 << "1.06x faster";
        QTest::newRow("a GPU after the CPU") << 1200.0 << 1.0 << "1200x faster";
        QTest::newRow("no time before") << 0.0 << 1.0 << "no kernel time to compare";
    }
    void saysHowMuchFasterTheNewRunIs() {
        QFETCH(double, before);
        QFETCH(double, after);
        QFETCH(QString, text);
        const auto samples = [](double ms) {
            return ms > 0 ? std::vector<double>{ms * 1.1, ms, ms * 0.9} : std::vector<double>{};
        };
        QCOMPARE(QString::fromStdString(speedupText(timed(samples(before)), timed(samples(after)))), text);
    }

    void formatsMillisecondsToThreeDigits_data() {
        QTest::addColumn<double>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("hundredths") << 0.012345 << "0.0123";
        QTest::newRow("tenths") << 0.5 << "0.500";
        QTest::newRow("units") << 1.23456 << "1.23";
        QTest::newRow("tens") << 12.345 << "12.3";
        QTest::newRow("hundreds") << 123.45 << "123";
        QTest::newRow("thousands: no exponent") << 12345.6 << "12346";
        QTest::newRow("below a microsecond") << 0.00012 << "0.000120";
    }
    void formatsMillisecondsToThreeDigits() {
        QFETCH(double, ms);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatMilliseconds(ms)), text);
    }

    // What a person reads: 130 ns, not 0.000130 ms.
    void formatsDurationsInTheirOwnUnit_data() {
        QTest::addColumn<double>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0 s";
        QTest::newRow("nanoseconds") << 0.00013 << "130 ns";
        QTest::newRow("a few nanoseconds") << 0.0000042 << "4.20 ns";
        QTest::newRow("microseconds") << 0.013 << "13.0 µs";
        QTest::newRow("rounds up into the next unit") << 0.0009996 << "1.00 µs";
        QTest::newRow("milliseconds") << 1.2345 << "1.23 ms";
        QTest::newRow("hundreds of ms") << 123.4 << "123 ms";
        QTest::newRow("seconds") << 12345.0 << "12.3 s";
        QTest::newRow("minutes stay seconds") << 600000.0 << "600 s";
        QTest::newRow("an hour") << 3.6e6 << "3600 s";
        QTest::newRow("not a number") << std::nan("") << "-";
    }
    void formatsDurationsInTheirOwnUnit() {
        QFETCH(double, ms);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatDuration(ms)), text);
    }

    // A run that copied other sizes, or whose outputs were wrong, did other work: not "1.6x faster".
    void comparesOnlyRunsThatDidTheSameWork() {
        RunTimings before;
        before.kernelMs = {1.6};
        before.bytesIn = 4096;
        before.bytesOut = 4096;
        before.checkPassed = true;
        RunTimings after = before;
        after.kernelMs = {1.0};
        QCOMPARE(QString::fromStdString(speedupText(before, after)), QStringLiteral("1.6x faster"));
        after.bytesIn = 1024;
        QCOMPARE(QString::fromStdString(speedupText(before, after)),
                 QStringLiteral("not compared: the arrays changed size"));
        after.bytesIn = before.bytesIn;
        after.checkPassed = false;
        QCOMPARE(QString::fromStdString(speedupText(before, after)),
                 QStringLiteral("not compared: this run's outputs did not match the reference"));
        after.checkPassed = std::nullopt; // no reference: compared
        before.checkPassed = false;
        QCOMPARE(QString::fromStdString(speedupText(before, after)),
                 QStringLiteral("not compared: the previous run's outputs did not match the reference"));
    }
};

QTEST_MAIN(TestTiming)
#include "tst_timing.moc"
