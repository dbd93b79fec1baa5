#include "TimingsView.h"

#include "Appearance.h"
#include "DurationTicker.h"
#include "PlotAppearance.h"
#include "PlotExport.h"
#include "TimingHistoryModel.h"
#include "core/io/FileBytes.h"
#include "core/launch/RunResult.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <qcustomplot.h>
#include <span>

namespace {

using kp::run::RunTimings;
using kp::run::Spread;

// "130 ns", "1.23 ms": a time in the unit a person reads it in.
QString duration(double ms) {
    return QString::fromStdString(kp::run::formatDuration(ms));
}

struct Phase {
    QString name;
    Spread spread;
    QColor colour;
};

// What the bars show, top to bottom. On the CPU backend the "transfers" are copies into and out of the
// kernel's working arrays, and are named so.
std::vector<Phase> phasesOf(const RunTimings& run) {
    const QColor transfer(0x5b, 0x8d, 0xb8), kernel(0x3d, 0x9a, 0x3a), cpu(0xe0, 0x8a, 0x2c);
    const bool onCpu = run.onCpu();
    std::vector<Phase> phases;
    const auto add = [&](const QString& name, const std::vector<double>& samples, const QColor& colour) {
        if (!samples.empty()) phases.push_back({name, kp::run::spreadOf(samples), colour});
    };
    add(onCpu ? QObject::tr("copy in") : QObject::tr("host → device"), run.h2dMs, transfer);
    const bool program = !run.steps.empty(); // its "kernel" time is every step's
    add(program ? (onCpu ? QObject::tr("program (CPU)") : QObject::tr("program"))
                : (onCpu ? QObject::tr("kernel (CPU)") : QObject::tr("kernel")),
        run.kernelMs, kernel);
    add(onCpu ? QObject::tr("copy out") : QObject::tr("device → host"), run.d2hMs, transfer);
    if (run.cpuBackendMs) add(QObject::tr("CPU backend"), {*run.cpuBackendMs}, cpu);
    if (run.referenceMs) add(QObject::tr("CPU reference"), {*run.referenceMs}, cpu.darker(130));
    return phases;
}

// Linear from 0, or logarithmic around the positive values; `headroom` leaves space past the largest
// (for the bars' labels), as a fraction of the span.
void scaleAxis(QCPAxis* axis, bool logarithmic, const std::vector<double>& values, double headroom) {
    double lowest = 0, highest = 0;
    for (double v : values)
        if (v > 0) {
            lowest = lowest > 0 ? std::min(lowest, v) : v;
            highest = std::max(highest, v);
        }
    if (highest <= 0) highest = 1;
    if (logarithmic) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<DurationTicker<QCPAxisTickerLog>>::create());
        const double low = (lowest > 0 ? lowest : highest) / 2;
        axis->setRange(low, highest * std::pow(highest / low, headroom));
        return;
    }
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(QSharedPointer<DurationTicker<QCPAxisTicker>>::create());
    axis->setRange(0, highest * (1 + headroom));
}

// A bar chart's widest to narrowest bar spans two orders of magnitude: the narrow ones vanish on a
// linear scale (a CPU reference beside a kernel is often 1000x).
bool spansOrdersOfMagnitude(const std::vector<Phase>& phases) {
    double lowest = 0, highest = 0;
    for (const auto& p : phases)
        if (p.spread.median > 0) {
            lowest = lowest > 0 ? std::min(lowest, p.spread.median) : p.spread.median;
            highest = std::max(highest, p.spread.median);
        }
    return lowest > 0 && highest / lowest >= 100;
}

QCustomPlot* newPlot(QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    followAppearance(plot);
    plot->setMinimumHeight(140);
    plot->setNoAntialiasingOnDrag(true);
    return plot;
}

} // namespace

TimingsView::TimingsView(QWidget* parent)
    : QWidget(parent), summary_(new QLabel(this)), bars_(newPlot(this)), steps_(newPlot(this)),
      historyPlot_(newPlot(this)), table_(new QTableView(this)),
      logScale_(new QCheckBox(tr("Log scale"), this)), clear_(new QPushButton(tr("Clear history"), this)),
      history_(new TimingHistoryModel(this)) {
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setText(tr("No runs yet: the timings of each run appear here."));
    setBanner(summary_, Banner::Plain, 4);

    bars_->plotLayout()->insertRow(0);
    bars_->plotLayout()->addElement(
        0, 0, new QCPTextElement(bars_, QString(), QFont(font().family(), 10, QFont::Bold)));
    bars_->xAxis->setLabel(tr("time: bar at the median, whiskers from the fastest to the slowest repeat"));
    bars_->yAxis->setRangeReversed(true); // the first phase on top
    bars_->yAxis->grid()->setVisible(false);
    bars_->yAxis->setSubTicks(false);
    bars_->yAxis->setTickLength(0, 0);

    steps_->setObjectName(QStringLiteral("stepsPlot"));
    steps_->plotLayout()->insertRow(0);
    steps_->plotLayout()->addElement(
        0, 0, new QCPTextElement(steps_, tr("The program's steps"), QFont(font().family(), 10, QFont::Bold)));
    steps_->xAxis->setLabel(tr("time in one run of the program (median): a loop is its steps together"));
    steps_->yAxis->setRangeReversed(true); // the first step on top
    steps_->yAxis->grid()->setVisible(false);
    steps_->yAxis->setSubTicks(false);
    steps_->yAxis->setTickLength(0, 0);
    steps_->xAxis->setTicker(QSharedPointer<DurationTicker<QCPAxisTicker>>::create());
    steps_->hide();

    historyPlot_->xAxis->setLabel(tr("run"));
    historyPlot_->yAxis->setLabel(tr("kernel time (median)"));
    auto runTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    runTicker->setTickStep(1);
    runTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    historyPlot_->xAxis->setTicker(runTicker);
    historyPlot_->legend->setFont(QFont(font().family(), 8));
    historyPlot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    historyPlot_->legend->setBorderPen(Qt::NoPen);
    historyPlot_->axisRect()->insetLayout()->take(historyPlot_->legend);

    table_->setModel(history_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    table_->setWordWrap(false);
    table_->setAlternatingRowColors(true);
    // A new run goes in at the bottom: keep it in view, its text whole (at most 200 rows to measure).
    connect(history_, &QAbstractItemModel::rowsInserted, table_, [this] {
        table_->resizeColumnsToContents();
        table_->scrollToBottom();
    });

    logScale_->setToolTip(
        tr("Show the bars on a logarithmic scale, for phases that differ by orders of magnitude"));
    connect(logScale_, &QCheckBox::clicked, this, [this] { userChoseScale_ = true; });
    connect(logScale_, &QCheckBox::toggled, this, &TimingsView::applyScale);
    connect(clear_, &QPushButton::clicked, this, &TimingsView::clearHistory);

    auto* controls = new QHBoxLayout;
    controls->addWidget(logScale_);
    controls->addStretch();
    controls->addWidget(clear_);

    auto* historyRow = new QSplitter(Qt::Horizontal, this);
    historyRow->addWidget(table_);
    historyRow->addWidget(historyPlot_);
    historyRow->setSizes({600, 400}); // weights: the split follows the view's width
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(bars_);
    split->addWidget(steps_);
    split->addWidget(historyRow);
    split->setSizes({300, 300, 250});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
    layout->addLayout(controls);
    drawHistory();
}

bool TimingsView::addRun(const nlohmann::json& report, const QString& label, std::optional<double> flops) {
    RunTimings timings;
    try {
        timings = RunTimings::fromReport(report);
    } catch (const std::exception& e) {
        showRejected(QString::fromUtf8(e.what()));
        return false;
    }
    latestFlops_ = flops;
    // A program's launches have their own grids: its label says how many it made.
    const QString programLabel =
        timings.launches == 1
            ? tr("a program of 1 launch")
            : tr("a program of %L1 launches").arg(static_cast<qulonglong>(timings.launches));
    const bool program = !timings.steps.empty();
    const auto& run = history_->add(std::move(timings), program ? programLabel : label);
    if (!userChoseScale_) {
        const QSignalBlocker quiet(logScale_);
        logScale_->setChecked(spansOrdersOfMagnitude(phasesOf(run.timings)));
    }
    drawBars(run.timings);
    drawSteps(run.timings);
    drawHistory();
    applyScale();
    showLatest();
    return true;
}

void TimingsView::takeOver(const TimingsView& other) {
    for (int row = 0; row < other.history_->rowCount(); ++row) {
        const auto& run = other.history_->run(row);
        history_->add(run.timings, run.label, run.time);
    }
    peak_ = other.peak_;
    latestFlops_ = other.latestFlops_;
    if (history_->rowCount() == 0) return;
    drawBars(history_->run(history_->rowCount() - 1).timings);
    drawSteps(history_->run(history_->rowCount() - 1).timings);
    drawHistory();
    applyScale();
    showLatest();
}

void TimingsView::setDevicePeak(double bandwidthGBs, double gflops) {
    peak_ = {std::max(0.0, bandwidthGBs), std::max(0.0, gflops)};
    if (!barExtents_.empty()) showLatest(); // not over the reason a report was refused
}

void TimingsView::clearHistory() {
    history_->clear();
    latestFlops_.reset();
    clearBars();
    steps_->hide();
    drawHistory();
    applyScale();
    setBanner(summary_, Banner::Plain, 4);
    summary_->setText(tr("No runs yet: the timings of each run appear here."));
}

int TimingsView::historySize() const {
    return history_->rowCount();
}

QString TimingsView::summaryText() const {
    return summary_->text();
}

QString TimingsView::lastChangeText() const {
    const int rows = history_->rowCount();
    return rows == 0 ? QString() : history_->run(rows - 1).change;
}

void TimingsView::showLatest() {
    const auto& run = history_->run(history_->rowCount() - 1);
    const RunTimings& t = run.timings;
    const Spread kernel = t.kernelSpread();
    const QString name = !t.steps.empty()   ? tr("The program")
                         : t.kernel.empty() ? tr("The kernel")
                                            : QString::fromStdString(t.kernel);
    const QString launches =
        t.launches == 1 ? tr("1 launch") : tr("%L1 launches").arg(static_cast<qulonglong>(t.launches));
    QString head =
        t.steps.empty()
            ? tr("%1 on %2: kernel %3").arg(name, QString::fromStdString(t.backend), duration(kernel.median))
            : tr("%1 on %2: %3 in %4")
                  .arg(name, QString::fromStdString(t.backend), launches, duration(kernel.median));
    if (kernel.count > 1)
        head += tr(" (median of %1 repeats, %2 to %3)")
                    .arg(kernel.count)
                    .arg(duration(kernel.min), duration(kernel.max));
    head += tr(", %1 with the copies").arg(duration(t.totalMs()));
    QStringList lines{head};
    if (kernel.count == 0) lines << tr("No timed repeat finished, so there is no kernel time to show.");
    if (t.cancelled)
        lines << (kernel.count == 1
                      ? tr("Stopped after 1 timed run.")
                      : tr("Stopped after %L1 timed runs.").arg(static_cast<qulonglong>(kernel.count)));
    const std::string throughput = kp::run::describe(kp::run::throughputOf(t, latestFlops_, peak_), peak_);
    if (!throughput.empty()) lines << QString::fromStdString(throughput);
    if (!run.change.isEmpty()) lines << tr("Against the previous run of %1: %2").arg(name, run.change);
    setBanner(summary_, Banner::Plain, 4);
    summary_->setText(lines.join(QLatin1Char('\n')));
}

void TimingsView::clearBars() {
    bars_->clearPlottables();
    bars_->clearItems();
    barExtents_.clear();
    bars_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create()); // no phase names without bars
    setBarsTitle({});
}

void TimingsView::showRejected(const QString& reason) {
    clearBars();
    bars_->replot();
    setBanner(summary_, Banner::Failed, 4);
    summary_->setText(
        tr("The timings of this run cannot be shown: %1\nThe history keeps the earlier runs.").arg(reason));
}

void TimingsView::drawBars(const RunTimings& run) {
    clearBars();
    const auto phases = phasesOf(run);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < phases.size(); ++i) {
        const Phase& phase = phases[i];
        const double key = static_cast<double>(i + 1);
        ticker->addTick(key, phase.name);
        // One QCPBars per phase, so each has its own colour and name.
        auto* bar = new QCPBars(bars_->yAxis, bars_->xAxis);
        bar->setName(phase.name);
        bar->setWidth(0.6);
        bar->setPen(QPen(phase.colour.darker(140)));
        bar->setBrush(phase.colour);
        bar->addData(key, phase.spread.median);
        barExtents_.push_back(phase.spread.min);
        barExtents_.push_back(phase.spread.max);
        if (phase.spread.count > 1) { // a single sample (the reference) has no spread to draw
            auto* spread = new QCPErrorBars(bars_->yAxis, bars_->xAxis);
            spread->setName(phase.name + tr(" spread"));
            spread->setDataPlottable(bar);
            spread->setErrorType(QCPErrorBars::etValueError);
            spread->setPen(QPen(QColor(0x20, 0x20, 0x20), 1.5));
            spread->setWhiskerWidth(10);
            spread->setSymbolGap(0);
            spread->addData(phase.spread.median - phase.spread.min, phase.spread.max - phase.spread.median);
        }
        auto* text = new QCPItemText(bars_);
        text->position->setCoords(phase.spread.max, key);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(8, 0, 0, 0));
        text->setText(phase.spread.count > 1
                          ? tr("%1  (%2 to %3, %4 repeats)")
                                .arg(duration(phase.spread.median), duration(phase.spread.min),
                                     duration(phase.spread.max))
                                .arg(phase.spread.count)
                          : duration(phase.spread.median));
    }
    bars_->yAxis->setTicker(ticker);
    bars_->yAxis->setRange(0.4, static_cast<double>(phases.size()) + 0.6);
    const QString kernel = !run.steps.empty()   ? tr("The program")
                           : run.kernel.empty() ? tr("kernel")
                                                : QString::fromStdString(run.kernel);
    setBarsTitle(tr("%1 on %2").arg(kernel, QString::fromStdString(run.backend)));
}

void TimingsView::drawSteps(const RunTimings& run) {
    steps_->clearPlottables();
    steps_->clearItems();
    steps_->setVisible(!run.steps.empty());
    if (run.steps.empty()) return;
    const double whole = kp::launch::median(run.kernelMs);
    const QColor launchColour(0x3d, 0x9a, 0x3a), moveColour(0x5b, 0x8d, 0xb8), loopColour(0x9a, 0x9a, 0x9a);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double longest = 0;
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const auto& step = run.steps[i];
        const double key = static_cast<double>(i + 1);
        QString label = QString::fromStdString(step.label);
        if (label.size() > 38) label = label.left(36) + QStringLiteral("…");
        ticker->addTick(key, QString(step.depth * 3, QLatin1Char(' ')) + label);
        auto* bar = new QCPBars(steps_->yAxis, steps_->xAxis);
        const QColor colour = step.kind == "launch"   ? launchColour
                              : step.kind == "repeat" ? loopColour
                                                      : moveColour;
        bar->setWidth(0.6);
        bar->setPen(QPen(colour.darker(140)));
        bar->setBrush(colour);
        bar->addData(key, step.ms);
        longest = std::max(longest, step.ms);
        auto* text = new QCPItemText(steps_);
        text->position->setCoords(step.ms, key);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(8, 0, 0, 0));
        QString words = duration(step.ms);
        if (whole > 0)
            words +=
                QStringLiteral(" (%1%)").arg(100 * step.ms / whole, 0, 'f', step.ms / whole < 0.1 ? 1 : 0);
        if (step.calls != 1)
            words += step.kind == "repeat" ? tr(", %L1 passes").arg(static_cast<qulonglong>(step.calls))
                                           : tr(", ×%L1").arg(static_cast<qulonglong>(step.calls));
        text->setText(words);
    }
    steps_->yAxis->setTicker(ticker);
    steps_->yAxis->setRange(0.4, static_cast<double>(run.steps.size()) + 0.6);
    steps_->xAxis->setRange(0, (longest > 0 ? longest : 1) * 1.6); // room for the words past the longest bar
    steps_->setMinimumHeight(std::max(140, 24 * static_cast<int>(run.steps.size()) + 70));
    steps_->replot();
}

void TimingsView::setBarsTitle(const QString& text) {
    if (auto* title = qobject_cast<QCPTextElement*>(bars_->plotLayout()->element(0, 0))) title->setText(text);
}

// A legend above the plot, in a row of its own (inside, it hides the newest points), only while there is
// more than one kernel to tell apart: an empty row would still take its height.
void TimingsView::placeHistoryLegend(bool shown) {
    QCPLayoutGrid* layout = historyPlot_->plotLayout();
    const bool placed = layout->rowCount() > 1;
    historyPlot_->legend->setVisible(shown);
    if (shown && !placed) {
        layout->insertRow(0);
        layout->addElement(0, 0, historyPlot_->legend);
        layout->setRowStretchFactor(0, 0.001);
    } else if (!shown && placed) {
        layout->take(historyPlot_->legend);
        layout->simplify();
    }
}

void TimingsView::drawHistory() {
    historyPlot_->clearGraphs();
    // One line per kernel: a change of kernel is not a speed-up.
    std::map<std::string, QCPGraph*> graphs;
    const QColor colours[] = {QColor(0x3d, 0x9a, 0x3a), QColor(0x5b, 0x8d, 0xb8), QColor(0xe0, 0x8a, 0x2c),
                              QColor(0x8e, 0x5b, 0xb8), QColor(0xb8, 0x5b, 0x6e)};
    const int rows = history_->rowCount();
    for (int row = 0; row < rows; ++row) {
        const auto& run = history_->run(row);
        if (run.timings.kernelMs.empty()) continue;
        auto& graph = graphs[run.timings.kernel];
        if (!graph) {
            graph = historyPlot_->addGraph();
            const QColor colour = colours[(graphs.size() - 1) % std::size(colours)];
            graph->setName(QString::fromStdString(run.timings.kernel));
            graph->setPen(QPen(colour, 1.5));
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 6));
        }
        graph->addData(run.number, run.timings.kernelSpread().median);
    }
    placeHistoryLegend(graphs.size() > 1);
    const double first = rows > 0 ? history_->run(0).number : 1;
    const double last = rows > 0 ? history_->run(rows - 1).number : 1;
    historyPlot_->xAxis->setRange(first - 0.5, last + 0.5);
}

void TimingsView::applyScale() {
    const bool logarithmic = logScale_->isChecked();
    // The labels sit past each bar's slowest repeat: leave room for them.
    scaleAxis(bars_->xAxis, logarithmic, barExtents_, logarithmic ? 0.35 : 0.55);
    std::vector<double> medians;
    for (int row = 0; row < history_->rowCount(); ++row)
        medians.push_back(history_->run(row).timings.kernelSpread().median);
    scaleAxis(historyPlot_->yAxis, logarithmic, medians, 0.1);
    bars_->replot();
    historyPlot_->replot();
}

bool TimingsView::exportPlot(const QString& path, QString* error) {
    return ::exportPlot(bars_, path, exportSize(bars_, QSize(320, 200), QSize(800, 400)),
                        tr("Kernelpad timings"), error);
}

bool TimingsView::exportHistoryCsv(const QString& path, QString* error) {
    const QByteArray csv = history_->toCsv().toUtf8();
    try {
        kp::io::writeFileAtomically(
            path.toStdString(),
            std::as_bytes(std::span(csv.constData(), static_cast<std::size_t>(csv.size()))));
    } catch (const std::exception& e) {
        if (error) *error = tr("Could not write %1: %2").arg(path, QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}
