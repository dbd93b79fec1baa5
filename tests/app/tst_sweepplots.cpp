// The sweep plots fed results built by hand, as a sweep of saxpy over 1,000 to 10 million elements on an
// H100, the CPU backend and the C++ reference would give them: time with the spread of the repeats and the
// crossovers the core finds, throughput in elements/s and GB/s, the roofline, exports, and screenshots.
// Drives the real widget offscreen.
#include "SweepPlots.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using kp::run::Crossover;
using kp::run::SweepResult;
using kp::run::SweepRow;

namespace {

// saxpy on y = a*x + y: x and y in, y out, 4 bytes each; two FLOPs an element.
constexpr std::uint64_t kBytesPerElement = 12;
const kp::run::DevicePeak kH100{3352, 66900};

// Launch overhead, then linear in n: the GPU's kernel beats the reference from about 20,400 elements, and
// with its copies from about 230,000.
double gpuKernelMs(double n) {
    return 0.01 + 1e-8 * n;
}
double copyInMs(double n) {
    return 0.03 + 1.5e-7 * n;
}
double copyOutMs(double n) {
    return 0.02 + 0.8e-7 * n;
}
double referenceMs(double n) {
    return 5e-7 * n;
}
double cpuMs(double n) {
    return 0.02 + 6e-8 * n;
}

// Five repeats around `median`: fastest 0.97x, slowest 1.1x.
std::vector<double> repeats(double median) {
    return {median, 0.97 * median, 1.1 * median, 1.02 * median, 0.99 * median};
}

SweepRow row(std::int64_t n, const std::string& backend, double ms, bool withFlops) {
    SweepRow r;
    r.value = n;
    r.elements = static_cast<std::uint64_t>(n);
    r.grid = {static_cast<std::uint32_t>((n + 255) / 256), 1, 1};
    r.block = {256, 1, 1};
    r.backend = backend;
    r.kernelMs = repeats(ms);
    r.bytes = kBytesPerElement * r.elements;
    if (withFlops) r.flops = 2.0 * static_cast<double>(n);
    r.check = "passed";
    return r;
}

const std::vector<std::int64_t> kSizes{1000, 3162, 10000, 31623, 100000, 316228, 1000000, 3162278, 10000000};

// `backends` among "cuda:0", "cpu", "reference", "cpu:4"; the reference times out at 10 million elements.
SweepResult sweep(const std::vector<std::string>& backends = {"cuda:0", "cpu", "reference"},
                  bool withFlops = true) {
    SweepResult result;
    result.spec.from = 1000;
    result.spec.to = 1e7;
    result.spec.steps = static_cast<int>(kSizes.size());
    result.spec.backends = backends;
    result.spec.flops = withFlops ? "2*n" : "";
    result.title = "saxpy";
    result.kernel = "saxpy";
    result.array = "y";
    for (const auto& id : backends) {
        if (id == "cuda:0") result.backends.push_back({id, "cuda:0 NVIDIA H100 80GB HBM3", kH100});
        if (id == "cpu") result.backends.push_back({id, "cpu (16 threads)", {}});
        if (id == "cpu:4") result.backends.push_back({id, "cpu (4 threads)", {}});
        if (id == "reference") result.backends.push_back({id, "C++ reference", {}});
    }
    for (const std::int64_t n : kSizes)
        for (const auto& id : backends) {
            const double x = static_cast<double>(n);
            if (id == "cuda:0") {
                SweepRow r = row(n, id, gpuKernelMs(x), withFlops);
                r.h2dMs = repeats(copyInMs(x));
                r.d2hMs = repeats(copyOutMs(x));
                result.rows.push_back(r);
            } else if (id == "reference") {
                SweepRow r = row(n, id, referenceMs(x), withFlops);
                if (n == kSizes.back()) {
                    r.kernelMs.clear();
                    r.error = "the reference took longer than the time limit";
                }
                result.rows.push_back(r);
            } else {
                result.rows.push_back(row(n, id, cpuMs(x) * (id == "cpu:4" ? 3 : 1), withFlops));
            }
        }
    return result;
}

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name) {
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name) return plot->graph(i);
    return nullptr;
}

QStringList graphNames(QCustomPlot* plot) {
    QStringList names;
    for (int i = 0; i < plot->graphCount(); ++i)
        names << plot->graph(i)->name();
    return names;
}

QCPErrorBars* spreadOf(QCustomPlot* plot, QCPGraph* graph) {
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* bars = qobject_cast<QCPErrorBars*>(plot->plottable(i));
            bars && bars->dataPlottable() == graph)
            return bars;
    return nullptr;
}

template <typename Item> QList<Item*> itemsOf(QCustomPlot* plot) {
    QList<Item*> items;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* item = qobject_cast<Item*>(plot->item(i))) items << item;
    return items;
}

QStringList itemTexts(QCustomPlot* plot) {
    QStringList texts;
    for (auto* item : itemsOf<QCPItemText>(plot))
        texts << item->text();
    return texts;
}

QStringList legendNames(QCPLegend* legend) {
    QStringList names;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            names << item->plottable()->name();
    return names;
}

QString captionText(QCustomPlot* plot) {
    auto* caption = plot->findChild<QCPTextElement*>(QStringLiteral("caption"));
    return caption && caption->visible() ? caption->text() : QString();
}

QString verdictOf(const Crossover& c, const SweepResult& result) {
    return QString::fromStdString(kp::run::describe(c, result));
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

// The points each backend ran, in increasing size.
std::vector<const SweepRow*> ran(const SweepResult& result, const std::string& id) {
    std::vector<const SweepRow*> rows;
    for (const SweepRow* r : result.rowsOf(id))
        if (r->ran()) rows.push_back(r);
    return rows;
}

} // namespace

class TestSweepPlots : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void drawsEachBackendsMedianWithTheSpreadOfItsRepeats() {
        SweepPlots plots;
        const SweepResult result = sweep();
        plots.setResult(result);
        QCustomPlot* plot = plots.timePlot();
        QCOMPARE(graphNames(plot),
                 QStringList({"cuda:0 NVIDIA H100 80GB HBM3", "cuda:0 NVIDIA H100 80GB HBM3 with copies",
                              "cpu (16 threads)", "C++ reference"}));
        for (const auto& backend : result.backends) {
            QCPGraph* graph = graphNamed(plot, QString::fromStdString(backend.name));
            QVERIFY2(graph, backend.name.c_str());
            const auto rows = ran(result, backend.id);
            QCOMPARE(graph->data()->size(), static_cast<int>(rows.size()));
            QCOMPARE(graph->pen().style(), Qt::SolidLine);
            QCPErrorBars* spread = spreadOf(plot, graph);
            QVERIFY(spread);
            QCOMPARE(spread->dataCount(), static_cast<int>(rows.size()));
            QCOMPARE(spread->errorType(), QCPErrorBars::etValueError);
            for (int i = 0; i < graph->data()->size(); ++i) {
                const auto kernel = rows[static_cast<std::size_t>(i)]->kernel();
                QCOMPARE(graph->data()->at(i)->key, result.x(*rows[static_cast<std::size_t>(i)]));
                QCOMPARE(graph->data()->at(i)->value, kernel.median);
                QVERIFY(near(spread->dataValueRange(i).lower, kernel.min));
                QVERIFY(near(spread->dataValueRange(i).upper, kernel.max));
            }
        }
        QCPGraph* copies = graphNamed(plot, QStringLiteral("cuda:0 NVIDIA H100 80GB HBM3 with copies"));
        QCOMPARE(copies->pen().style(), Qt::DashLine);
        QCOMPARE(copies->data()->size(), static_cast<int>(kSizes.size()));
        QCOMPARE(copies->data()->at(2)->value, ran(result, "cuda:0")[2]->timeMs(true));
        QVERIFY(copies->data()->at(2)->value >
                graphNamed(plot, copies->name().chopped(12))->data()->at(2)->value);
        // The legend names each line once: not the spreads.
        QCOMPARE(legendNames(plot->legend), graphNames(plot));
        QVERIFY(plot->legend->visible());
    }

    void drawsTimeAgainstTheParameterOnLogarithmicAxes() {
        SweepPlots plots;
        plots.setResult(sweep());
        for (QCustomPlot* plot : {plots.timePlot(), plots.throughputPlot(), plots.rooflinePlot()})
            for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
                QCOMPARE(axis->scaleType(), QCPAxis::stLogarithmic);
                QVERIFY(axis->ticker().dynamicCast<QCPAxisTickerLog>());
                QVERIFY(axis->range().lower > 0);
            }
        QCustomPlot* time = plots.timePlot();
        QVERIFY(time->xAxis->range().contains(1000) && time->xAxis->range().contains(1e7));
        QVERIFY(time->yAxis->range().contains(0.97 * gpuKernelMs(1000)));
        QVERIFY(time->yAxis->range().contains(1.1 * referenceMs(3162278)));
        QCOMPARE(time->xAxis->label(), QStringLiteral("elements of y"));
        QCOMPARE(time->yAxis->label(), QStringLiteral("kernel time"));
        // Ticks in their own unit: a 200 ns kernel is not "0.0002".
        QVector<double> ticks;
        QVector<QString> labels;
        time->yAxis->ticker()->generate({1e-4, 1e-2}, QLocale(), QLatin1Char('g'), 3, ticks, nullptr,
                                        &labels);
        QVERIFY2(labels.contains(QStringLiteral("100 ns")) && labels.contains(QStringLiteral("10.0 µs")),
                 qPrintable(QStringList(labels.begin(), labels.end()).join(QLatin1Char(' '))));
        auto* title = qobject_cast<QCPTextElement*>(time->plotLayout()->element(0, 0));
        QVERIFY(title);
        QVERIFY2(title->text().contains(QStringLiteral("saxpy")), qPrintable(title->text()));
    }

    void leavesOutRowsThatDidNotRunAndSaysWhich() {
        SweepPlots plots;
        const SweepResult result = sweep();
        plots.setResult(result);
        QCPGraph* reference = graphNamed(plots.timePlot(), QStringLiteral("C++ reference"));
        QVERIFY(reference);
        QCOMPARE(reference->data()->size(), static_cast<int>(kSizes.size()) - 1);
        QCOMPARE((reference->data()->constEnd() - 1)->key, 3162278.0); // not the 10 million that failed
        QCOMPARE(graphNamed(plots.throughputPlot(), QStringLiteral("C++ reference"))->data()->size(),
                 static_cast<int>(kSizes.size()) - 1);
        const QString caption = captionText(plots.timePlot());
        QVERIFY2(caption.contains(
                     QStringLiteral("reference did not run at 10 million elements of y: the reference "
                                    "took longer than the time limit")),
                 qPrintable(caption));

        // The CPU backend fails at two points; a stopped (cancelled) sweep says so.
        SweepResult broken = result;
        int failed = 0;
        for (SweepRow& r : broken.rows)
            if (r.backend == "cpu" && r.value >= 1000000 && failed < 2) {
                r.error = "out of host memory";
                ++failed;
            }
        broken.cancelled = true;
        plots.setResult(broken);
        QCOMPARE(graphNamed(plots.timePlot(), QStringLiteral("cpu (16 threads)"))->data()->size(),
                 static_cast<int>(kSizes.size()) - 2);
        const QString brokenCaption = captionText(plots.timePlot());
        QVERIFY2(
            brokenCaption.contains(QStringLiteral(
                "cpu did not run at 2 points, the first at 1,000,000 elements of y: out of host memory")),
            qPrintable(brokenCaption));
        QVERIFY2(brokenCaption.contains(QStringLiteral("The sweep was stopped")), qPrintable(brokenCaption));
    }

    void drawsABlockSizeSweepOnPowersOfTwo() {
        SweepResult result = sweep({"cuda:0", "reference"});
        result.spec.parameter = kp::run::SweepParameter::BlockSize;
        std::int64_t block = 32;
        for (std::size_t i = 0; i < result.rows.size(); i += 2, block *= 2)
            for (std::size_t j = i; j < i + 2; ++j) {
                result.rows[j].value = block;
                result.rows[j].elements = 1000000;
            }
        SweepPlots plots;
        plots.setResult(result);
        QCustomPlot* plot = plots.timePlot();
        QCOMPARE(plot->xAxis->label(), QStringLiteral("threads per block (blockDim.x)"));
        const auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerLog>();
        QVERIFY(ticker);
        QCOMPARE(ticker->logBase(), 2.0);
        QCPGraph* gpu = graphNamed(plot, QStringLiteral("cuda:0 NVIDIA H100 80GB HBM3"));
        QCOMPARE(gpu->data()->at(0)->key, 32.0);
        QCOMPARE(gpu->data()->at(1)->key, 64.0);
        QCOMPARE(plots.pointBox()->itemText(1), QStringLiteral("32 threads per block (blockDim.x)"));
    }

    void marksWhereTheGpuStartsToWinAsTheCoreFindsIt() {
        SweepPlots plots;
        plots.resize(1000, 650);
        const SweepResult result = sweep();
        plots.setResult(result);
        const Crossover kernelOnly = kp::run::crossover(result, "cuda:0", "reference", false);
        const Crossover withCopies = kp::run::crossover(result, "cuda:0", "reference", true);
        QCOMPARE(kernelOnly.kind, Crossover::Kind::Found);
        QCOMPARE(withCopies.kind, Crossover::Kind::Found);
        QVERIFY(kernelOnly.x > 10000 && kernelOnly.x < 31623); // the data says what it was built to say
        QVERIFY(withCopies.x > 100000 && withCopies.x < 316228);

        const auto lines = itemsOf<QCPItemStraightLine>(plots.timePlot());
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0]->point1->coords().x(), kernelOnly.x);
        QCOMPARE(lines[0]->point2->coords().x(), kernelOnly.x);
        QCOMPARE(lines[0]->pen().style(), Qt::SolidLine);
        QCOMPARE(lines[1]->point1->coords().x(), withCopies.x);
        QCOMPARE(lines[1]->pen().style(), Qt::DashLine);

        // A verdict beside its line is broken in two to fit a narrow dock.
        const QStringList labels =
            itemTexts(plots.timePlot()).replaceInStrings(QStringLiteral("\n"), QStringLiteral(" "));
        QVERIFY2(labels.contains(verdictOf(kernelOnly, result)), qPrintable(labels.join(" | ")));
        QVERIFY2(labels.contains(verdictOf(withCopies, result)), qPrintable(labels.join(" | ")));
        QCOMPARE(plots.crossoverText(), verdictOf(kernelOnly, result) + "\n" + verdictOf(withCopies, result));
        QVERIFY2(
            plots.crossoverText().startsWith(QStringLiteral("cuda:0 beats the C++ reference from about 20,")),
            qPrintable(plots.crossoverText()));
    }

    void saysTheVerdictWhenTheLinesDoNotCross_data() {
        QTest::addColumn<double>("gpuFactor");
        QTest::addColumn<int>("kind");
        QTest::newRow("GPU faster from the first point")
            << 1e-3 << static_cast<int>(Crossover::Kind::GpuFasterThroughout);
        QTest::newRow("GPU never faster") << 1e4 << static_cast<int>(Crossover::Kind::GpuNeverFaster);
    }
    void saysTheVerdictWhenTheLinesDoNotCross() {
        QFETCH(double, gpuFactor);
        QFETCH(int, kind);
        SweepResult result = sweep();
        for (SweepRow& r : result.rows)
            if (r.onGpu()) {
                for (auto* times : {&r.kernelMs, &r.h2dMs, &r.d2hMs})
                    for (double& ms : *times)
                        ms *= gpuFactor;
            }
        SweepPlots plots;
        plots.setResult(result);
        QStringList verdicts;
        for (const bool withCopies : {false, true}) {
            const Crossover c = kp::run::crossover(result, "cuda:0", "reference", withCopies);
            QCOMPARE(static_cast<int>(c.kind), kind);
            verdicts << verdictOf(c, result);
        }
        QCOMPARE(plots.crossoverText(), verdicts.join('\n'));
        QVERIFY(itemsOf<QCPItemStraightLine>(plots.timePlot()).isEmpty());
        const QString caption = captionText(plots.timePlot());
        QVERIFY2(caption.contains(verdicts[0]) && caption.contains(verdicts[1]), qPrintable(caption));
    }

    void comparesWithThePreferredCpuBackend_data() {
        QTest::addColumn<QStringList>("backends");
        QTest::addColumn<QString>("cpu");
        QTest::newRow("the reference first") << QStringList{"cpu", "reference", "cuda:0"} << "reference";
        QTest::newRow("then the CPU backend") << QStringList{"cpu:4", "cpu", "cuda:0"} << "cpu";
        QTest::newRow("then on fewer cores") << QStringList{"cuda:0", "cpu:4"} << "cpu:4";
    }
    void comparesWithThePreferredCpuBackend() {
        QFETCH(QStringList, backends);
        QFETCH(QString, cpu);
        std::vector<std::string> ids;
        for (const QString& id : backends)
            ids.push_back(id.toStdString());
        const SweepResult result = sweep(ids);
        SweepPlots plots;
        plots.setResult(result);
        const Crossover c = kp::run::crossover(result, "cuda:0", cpu.toStdString(), false);
        QVERIFY2(plots.crossoverText().startsWith(verdictOf(c, result)), qPrintable(plots.crossoverText()));
        QCOMPARE(plots.crossoverText().count('\n'), 1);
    }

    void asksForAGpuAndACpuToCompare() {
        SweepPlots plots;
        plots.setResult(sweep({"cpu", "reference"}));
        QCOMPARE(plots.crossoverText(), QString());
        QVERIFY(
            captionText(plots.timePlot()).contains(QStringLiteral("Sweep a CUDA backend and a CPU backend")));
        QVERIFY(itemsOf<QCPItemStraightLine>(plots.timePlot()).isEmpty());
    }

    void switchesTheThroughputBetweenElementsAndBytes() {
        SweepPlots plots;
        const SweepResult result = sweep();
        plots.setResult(result);
        QCOMPARE(plots.throughput(), SweepPlots::Throughput::ElementsPerSecond);
        const QString gpu = QStringLiteral("cuda:0 NVIDIA H100 80GB HBM3");
        const auto rows = ran(result, "cuda:0");
        const auto valuesOf = [&] {
            QCPGraph* graph = graphNamed(plots.throughputPlot(), gpu);
            std::vector<double> values;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                values.push_back(it->value);
            return values;
        };
        auto values = valuesOf();
        QCOMPARE(values.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY(
                near(values[i], static_cast<double>(rows[i]->elements) / (rows[i]->kernel().median * 1e-3)));
        QVERIFY(plots.throughputPlot()->yAxis->label().startsWith(QStringLiteral("elements per second")));

        plots.throughputBox()->setCurrentIndex(1); // as a person picks it
        QCOMPARE(plots.throughput(), SweepPlots::Throughput::GigabytesPerSecond);
        values = valuesOf();
        QCOMPARE(values.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY(near(values[i], static_cast<double>(rows[i]->bytes) / rows[i]->kernel().median / 1e6));
        QVERIFY(plots.throughputPlot()->yAxis->label().startsWith(QStringLiteral("GB/s")));
        QVERIFY(itemTexts(plots.throughputPlot()).contains(QStringLiteral("cuda:0 peak: 3,352 GB/s")));
        QVERIFY(plots.throughputPlot()->yAxis->range().contains(3352));

        plots.setThroughput(SweepPlots::Throughput::ElementsPerSecond);
        QCOMPARE(plots.throughputBox()->currentIndex(), 0);
        QVERIFY(near(valuesOf().back(), 1e7 / (gpuKernelMs(1e7) * 1e-3)));
    }

    void placesEachBackendUnderTheGpusRoof() {
        SweepPlots plots;
        const SweepResult result = sweep();
        plots.setResult(result);
        QCustomPlot* plot = plots.rooflinePlot();
        QCPGraph* roof = graphNamed(plot, QStringLiteral("cuda:0 roof: 3,352 GB/s, 66,900 GFLOP/s"));
        QVERIFY2(roof, qPrintable(graphNames(plot).join(" | ")));
        const double ridge = kH100.gflops / kH100.bandwidthGBs;
        for (auto it = roof->data()->constBegin(); it != roof->data()->constEnd(); ++it)
            QVERIFY(near(it->value, std::min(kH100.gflops, kH100.bandwidthGBs * it->key)));
        QCOMPARE(roof->data()->size(), 3);
        QVERIFY(near(roof->data()->at(1)->key, ridge));
        QVERIFY(plot->xAxis->range().contains(ridge) && plot->xAxis->range().contains(1.0 / 6));
        QVERIFY2(itemTexts(plot).join(' ').contains(QStringLiteral("ridge at 20")),
                 qPrintable(itemTexts(plot).join(" | ")));
        // Only a GPU with a known peak has a roof.
        QCOMPARE(graphNames(plot).filter(QStringLiteral("roof")).size(), 1);

        // By default each backend's largest point that ran: the reference's failed at 10 million.
        const auto pointOf = [&](const QString& name) -> QCPGraph* {
            for (const QString& n : graphNames(plot))
                if (n.startsWith(name + ", n = ")) return graphNamed(plot, n);
            return nullptr;
        };
        for (const auto& [name, n, ms] : {std::tuple{"cuda:0 NVIDIA H100 80GB HBM3", 1e7, gpuKernelMs(1e7)},
                                          std::tuple{"cpu (16 threads)", 1e7, cpuMs(1e7)},
                                          std::tuple{"C++ reference", 3162278.0, referenceMs(3162278)}}) {
            QCPGraph* point = pointOf(QString::fromUtf8(name));
            QVERIFY2(point, name);
            QCOMPARE(point->data()->size(), 1);
            QVERIFY(near(point->data()->at(0)->key, 2.0 / kBytesPerElement));
            QVERIFY(near(point->data()->at(0)->value, 2 * n / (ms * 1e-3) / 1e9));
            QCOMPARE(point->lineStyle(), QCPGraph::lsNone);
        }
        QVERIFY(pointOf(QStringLiteral("C++ reference"))->name().endsWith(QStringLiteral(", n = 3,162,278")));

        plots.setCurrentValue(10000);
        QCOMPARE(plots.currentValue(), std::optional<std::int64_t>(10000));
        QCOMPARE(plots.pointBox()->currentData().toLongLong(), 10000);
        QVERIFY(near(pointOf(QStringLiteral("cuda:0 NVIDIA H100 80GB HBM3"))->data()->at(0)->value,
                     2e4 / (gpuKernelMs(1e4) * 1e-3) / 1e9));
        QVERIFY(pointOf(QStringLiteral("C++ reference")));
        // The chosen point where the reference did not run: it has no point, the others do.
        plots.pointBox()->setCurrentIndex(plots.pointBox()->count() - 1);
        QCOMPARE(plots.currentValue(), std::optional<std::int64_t>(10000000));
        QVERIFY(!pointOf(QStringLiteral("C++ reference")));
        QVERIFY(pointOf(QStringLiteral("cpu (16 threads)")));
        auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
        QVERIFY2(title->text().endsWith(QStringLiteral("at 10 million elements of y")),
                 qPrintable(title->text()));
    }

    void explainsTheRooflineWithoutFlops() {
        SweepPlots plots;
        plots.setResult(sweep({"cuda:0", "reference"}, false));
        QCOMPARE(plots.rooflinePlot()->graphCount(), 0);
        // One sentence, broken in two so that it fits a narrow plot.
        QCOMPARE(
            itemTexts(plots.rooflinePlot()).join(' ').simplified(),
            QStringLiteral("Give the kernel's floating-point operations as a formula of n (the FLOPs field) "
                           "to place it on the roofline."));
        QCOMPARE(itemTexts(plots.rooflinePlot()).size(), 1);
        QVERIFY(plots.timePlot()->graphCount() > 0); // the other plots do not need them
    }

    void exportsTheCurrentPlot_data() {
        QTest::addColumn<int>("tab");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("time as png") << 0 << "time.png" << QByteArray("\x89PNG\r\n\x1a\n");
        QTest::newRow("throughput as svg") << 1 << "throughput.svg" << QByteArray("<?xml");
        QTest::newRow("roofline as pdf") << 2 << "roofline.PDF" << QByteArray("%PDF-");
    }
    void exportsTheCurrentPlot() {
        QFETCH(int, tab);
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        SweepPlots plots;
        plots.setResult(sweep());
        plots.tabs()->setCurrentIndex(tab);
        const QString path = dir_.filePath(name);
        QString error;
        QVERIFY2(plots.exportPlot(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(bytes.startsWith(magic), bytes.left(16).toHex().constData());
        QVERIFY(bytes.size() > 1000);
        if (name.endsWith(QStringLiteral(".svg"))) // the throughput plot's, not another tab's
            QVERIFY(bytes.contains("Throughput of saxpy"));
    }

    void refusesToExportWhatItCannot() {
        SweepPlots plots;
        QString error;
        QVERIFY(!plots.exportPlot(dir_.filePath(QStringLiteral("empty.png")), &error));
        QVERIFY2(error.contains(QStringLiteral("run a sweep first")), qPrintable(error));
        error.clear();
        QVERIFY(!plots.exportCsv(dir_.filePath(QStringLiteral("empty.csv")), &error));
        QVERIFY2(error.contains(QStringLiteral("run a sweep first")), qPrintable(error));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("empty.csv"))));

        plots.setResult(sweep());
        error.clear();
        QVERIFY(!plots.exportPlot(dir_.filePath(QStringLiteral("plot.txt")), &error));
        QVERIFY2(error.contains(QStringLiteral(".txt")) &&
                     error.contains(QStringLiteral(".png, .svg or .pdf")),
                 qPrintable(error));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("plot.txt"))));
        error.clear();
        QVERIFY(!plots.exportPlot(dir_.filePath(QStringLiteral("no/such/folder/plot.png")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("Could not write")), qPrintable(error));
        error.clear();
        QVERIFY(!plots.exportCsv(dir_.filePath(QStringLiteral("no/such/folder/sweep.csv")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("Could not write")), qPrintable(error));
    }

    void exportsTheResultAsCsv() {
        SweepPlots plots;
        const SweepResult result = sweep();
        plots.setResult(result);
        const QString path = dir_.filePath(QStringLiteral("sweep.csv"));
        QString error;
        QVERIFY2(plots.exportCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray csv = file.readAll();
        QCOMPARE(csv, QByteArray::fromStdString(result.toCsv()));
        QCOMPARE(csv.count('\n'), static_cast<qsizetype>(result.rows.size()) + 1);
    }

    void clearEmptiesThePlots() {
        SweepPlots plots;
        plots.setResult(sweep());
        plots.setCurrentValue(10000);
        plots.clear();
        QVERIFY(plots.result().rows.empty());
        QCOMPARE(plots.crossoverText(), QString());
        QCOMPARE(plots.currentValue(), std::nullopt);
        for (QCustomPlot* plot : {plots.timePlot(), plots.throughputPlot(), plots.rooflinePlot()}) {
            QCOMPARE(plot->plottableCount(), 0);
            QVERIFY(!plot->legend->visible());
            QCOMPARE(captionText(plot), QString());
            const QStringList texts = itemTexts(plot);
            QCOMPARE(texts.size(), 1);
            QVERIFY2(texts[0].startsWith(QStringLiteral("Run a sweep to see")), qPrintable(texts[0]));
        }
        QCOMPARE(plots.pointBox()->count(), 1);
    }

    void drawsTheEmptyAndUnplaceableStatesForAScreenshot() {
        SweepPlots plots;
        plots.resize(800, 500);
        plots.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plots));
        const auto shoot = [&](const QString& name) {
            plots.tabs()->setCurrentIndex(2);
            QCustomPlot* plot = plots.rooflinePlot();
            plot->replot();
            const auto labels = itemsOf<QCPItemText>(plot);
            QCOMPARE(labels.size(), 1);
            const QRectF box(labels[0]->topLeft->pixelPosition(), labels[0]->bottomRight->pixelPosition());
            QVERIFY2(QRectF(plot->axisRect()->rect()).contains(box), qPrintable(labels[0]->text()));
            QVERIFY(plots.grab().save(
                QDir(QDir::tempPath()).filePath(QStringLiteral("kernelpad-sweepplots-%1.png").arg(name))));
        };
        shoot(QStringLiteral("empty"));
        plots.setResult(sweep({"cuda:0", "reference"}, false));
        shoot(QStringLiteral("noflops"));
    }

    // Pictures to look at; what can be measured is asserted: the legend and the caption outside the axes,
    // the labels whole inside them.
    void drawsEachTabForAScreenshot_data() {
        QTest::addColumn<int>("tab");
        QTest::addColumn<QSize>("size");
        QTest::newRow("time") << 0 << QSize(1000, 640);
        QTest::newRow("throughput") << 1 << QSize(1000, 640);
        QTest::newRow("roofline") << 2 << QSize(1000, 640);
        QTest::newRow("time-narrow") << 0 << QSize(640, 460); // a dock beside the editor
        QTest::newRow("roofline-narrow") << 2 << QSize(640, 460);
    }
    void drawsEachTabForAScreenshot() {
        QFETCH(int, tab);
        QFETCH(QSize, size);
        SweepPlots plots;
        plots.resize(size);
        plots.setResult(sweep());
        plots.setThroughput(SweepPlots::Throughput::GigabytesPerSecond);
        plots.tabs()->setCurrentIndex(tab);
        plots.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plots));
        QCustomPlot* plot = plots.tabs()->currentWidget()->findChild<QCustomPlot*>();
        if (!plot) plot = qobject_cast<QCustomPlot*>(plots.tabs()->currentWidget());
        QVERIFY(plot);
        plot->replot();
        const QRect axes = plot->axisRect()->rect();
        QVERIFY(!axes.intersects(plot->legend->outerRect()));
        QList<QRectF> boxes;
        for (auto* label : itemsOf<QCPItemText>(plot)) {
            const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
            QVERIFY2(QRectF(axes).contains(box), qPrintable(label->text()));
            for (const QRectF& other : boxes)
                QVERIFY2(!other.intersects(box), qPrintable(label->text()));
            boxes << box;
        }
        const QImage shot = plots.grab().toImage();
        QVERIFY(!shot.isNull());
        const QString name = QString::fromUtf8(QTest::currentDataTag());
        QVERIFY(shot.save(
            QDir(QDir::tempPath()).filePath(QStringLiteral("kernelpad-sweepplots-%1.png").arg(name))));
    }
};

QTEST_MAIN(TestSweepPlots)
#include "tst_sweepplots.moc"
