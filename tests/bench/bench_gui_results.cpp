// bench_gui_results: what showing a 100M-element output costs the GUI thread (issue 6's goal: the results
// view stays responsive). A float32 output and its reference of 100M elements each go to
// ResultsView::showRun; the GUI thread's share is compared with a memcpy of the output's 400 MB in the
// same run, as are the plot's background preparation and the table's jump to the last element.
// Runs offscreen on any machine. Usage: bench_gui_results [--json FILE]
#include "ArrayPlot.h"
#include "BenchTable.h"
#include "OutputPane.h"
#include "ResultsView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <qcustomplot.h>
#include <vector>

using namespace kp;

namespace {

constexpr std::size_t kElements = 100'000'000;

model::Array wave() {
    model::Array a(model::DType::Float32, {kElements});
    auto values = a.as<float>();
    for (std::size_t i = 0; i < kElements; ++i)
        values[i] = float(i % 1000) * 0.001f;
    return a;
}

struct Shown {
    double showRunMs = 0, readyMs = 0, worstGapMs = 0, goToEndMs = 0, resampleMs = 0, replotMs = 0;
};

Shown showOnce(const model::Array& output, const model::Array& reference, const nlohmann::json& report) {
    launch::NamedArrays outputs{{"out", output}}, references{{"out", reference}}; // copied before the clock
    ResultsView view;
    view.resize(1200, 700);
    view.show();
    QCoreApplication::processEvents();
    Shown s;
    QElapsedTimer clock, sinceTick;
    clock.start();
    view.showRun(std::move(outputs), std::move(references), {}, report);
    s.showRunMs = double(clock.nsecsElapsed()) / 1e6;
    ArrayPlot* plot = view.plot(QStringLiteral("out"));
    QTimer ticker;
    ticker.setInterval(5);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double g = double(sinceTick.nsecsElapsed()) / 1e6;
        s.worstGapMs = std::max(s.worstGapMs, g);
        sinceTick.restart();
    });
    sinceTick.start();
    ticker.start();
    while (!plot->isReady())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    s.readyMs = double(clock.nsecsElapsed()) / 1e6;
    ticker.stop();
    clock.restart();
    plot->customPlot()->replot();
    s.replotMs = double(clock.nsecsElapsed()) / 1e6;
    clock.restart();
    view.pane(QStringLiteral("out"))->goTo({kElements - 1});
    QCoreApplication::processEvents();
    s.goToEndMs = double(clock.nsecsElapsed()) / 1e6;
    clock.restart();
    plot->customPlot()->xAxis->setRange(1'000'000, 1'000'000 + 2000 * 127); // ~127 elements a point, all read
    s.resampleMs = double(clock.nsecsElapsed()) / 1e6;
    return s;
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const model::Array output = wave();
    model::Array reference = output;
    reference.as<float>()[kElements / 2] += 1; // one mismatch, so the check and the markers have work
    const nlohmann::json report = {
        {"check",
         {{"passed", false},
          {"outputs",
           {{{"output", "out"}, {"passed", false}, {"mismatches", 1}, {"max_abs", 1}, {"max_rel", 1}}}}}}};
    std::printf("bench_gui_results: 100M float32 output and reference, Qt %s\n\n", qVersion());

    std::vector<double> showRun, ready, gap, goToEnd, resample, replot;
    for (int i = 0; i < 3; ++i) {
        const Shown s = showOnce(output, reference, report);
        showRun.push_back(s.showRunMs);
        ready.push_back(s.readyMs);
        gap.push_back(s.worstGapMs);
        goToEnd.push_back(s.goToEndMs);
        resample.push_back(s.resampleMs);
        replot.push_back(s.replotMs);
    }
    std::vector<float> to(kElements);
    const double memcpyMs = bench::medianMs(5, [&] {
        std::memcpy(to.data(), output.data(), output.bytes());
        asm volatile("" : : "g"(to.data()) : "memory");
    });

    bench::BenchTable table;
    table.add({"showRun (GUI thread) vs memcpy of the 400 MB output", "ms", bench::median(showRun), memcpyMs,
               "ratio <= 1", 1});
    table.add({"table jumps to element 99,999,999 vs memcpy", "ms", bench::median(goToEnd), memcpyMs,
               "ratio <= 0.25", 0.25});
    table.add({"zoom resample, 254k elements read, vs memcpy", "ms", bench::median(resample), memcpyMs,
               "ratio <= 1", 1});
    table.add({"replot, whole array in view (4000 points a graph)", "ms", bench::median(replot), memcpyMs,
               "ratio <= 1", 1});
    table.add({"longest GUI event-loop gap while the plot prepares", "ms", bench::median(gap), 0, "< 50 ms"});
    table.add({"plot ready (background envelopes) vs memcpy", "ms", bench::median(ready), memcpyMs,
               "(information)"});
    table.print();
    if (argc == 3 && std::strcmp(argv[1], "--json") == 0) table.writeJson(argv[2]);
    return 0;
}
