#include "SweepPlots.h"

#include "Appearance.h"
#include "DurationTicker.h"
#include "PlotAppearance.h"
#include "PlotExport.h"
#include "core/io/FileBytes.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <span>

namespace {

using kp::run::Crossover;
using kp::run::SweepBackendInfo;
using kp::run::SweepResult;
using kp::run::SweepRow;

const QString kCaption = QStringLiteral("caption");

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// Three significant digits, with thousands separated: "0.0123", "12.3", "66,900".
QString figure(double value) {
    return value >= 1000 ? text(kp::run::formatCount(value)) : text(kp::run::formatMilliseconds(value));
}

QString nameOf(const SweepBackendInfo& backend) {
    return text(backend.name.empty() ? backend.id : backend.name);
}

// One colour per backend, in the spec's order; the same on every tab.
QColor colourOf(std::size_t index) {
    static const QColor colours[] = {QColor(0x3d, 0x9a, 0x3a), QColor(0xe0, 0x8a, 0x2c),
                                     QColor(0x5b, 0x8d, 0xb8), QColor(0x8e, 0x5b, 0xb8),
                                     QColor(0xb8, 0x5b, 0x6e), QColor(0x2c, 0xa6, 0xa4)};
    return colours[index % std::size(colours)];
}

// The lowest and highest positive values seen: what a logarithmic axis must show.
struct Extent {
    double low = 0, high = 0;
    void add(double v) {
        if (!(v > 0) || !std::isfinite(v)) return;
        low = low > 0 ? std::min(low, v) : v;
        high = std::max(high, v);
    }
    bool empty() const { return high <= 0; }
};

// `below` and `above` widen the range by a fraction of its span in decades, so that points do not sit
// on the frame and labels have room.
void setLogRange(QCPAxis* axis, const Extent& extent, double below, double above) {
    if (extent.empty()) {
        axis->setRange(1, 10);
        return;
    }
    const double decades = std::max(std::log10(extent.high / extent.low), 1.0);
    axis->setRange(extent.low / std::pow(10, decades * below), extent.high * std::pow(10, decades * above));
}

void makeLogarithmic(QCPAxis* axis, double base = 10) {
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(base);
    ticker->setSubTickCount(base == 10 ? 8 : 0);
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("gb"));
    axis->setNumberPrecision(base == 10 ? 3 : 5);
}

QCPTextElement* titleOf(QCustomPlot* plot) {
    return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
}

QCPTextElement* captionOf(QCustomPlot* plot) {
    return plot->findChild<QCPTextElement*>(kCaption);
}

QCustomPlot* newPlot(QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    followAppearance(plot);
    plot->setMinimumSize(320, 240);
    plot->setNoAntialiasingOnDrag(true);
    plot->plotLayout()->insertRow(0);
    const QFont font = parent->font();
    plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(plot, QString(), QFont(font.family(), 10, QFont::Bold)));
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->legend->setVisible(false);
    plot->legend->setFont(QFont(font.family(), 8));
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(3);
    auto* caption = new QCPTextElement(plot, QString(), QFont(font.family(), 8));
    caption->setObjectName(kCaption);
    caption->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    caption->setMargins(QMargins(12, 2, 12, 6));
    caption->setVisible(false);
    return plot;
}

// A legend wrapped into columns counts its empty cells as items.
bool hasEntries(const QCPLegend* legend) {
    for (int i = 0; i < legend->itemCount(); ++i)
        if (legend->item(i)) return true;
    return false;
}

// As many columns of legend entries as the plot's width holds, up to three: a narrow dock gets one a row
// rather than names cut off.
void fitLegend(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPLayoutElement* item = legend->elementAt(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int room = plot->width() - legend->margins().left() - legend->margins().right();
    const int columns = std::clamp(room / (widest + legend->columnSpacing()), 1, 3);
    if (columns == legend->wrap()) return;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
}

// The legend and the caption sit in rows of their own under the axes (inside, they would hide points),
// and only while they have something to say: an empty row would still take its height.
void arrangeRows(QCustomPlot* plot) {
    QCPLayoutGrid* layout = plot->plotLayout();
    QCPTextElement* caption = captionOf(plot);
    for (QCPLayoutElement* element :
         {static_cast<QCPLayoutElement*>(plot->legend), static_cast<QCPLayoutElement*>(caption)})
        if (element->layout() == layout) layout->take(element);
    layout->simplify();
    const auto append = [layout](QCPLayoutElement* element) {
        const int row = layout->rowCount();
        layout->insertRow(row);
        layout->addElement(row, 0, element);
        layout->setRowStretchFactor(row, 0.001);
    };
    fitLegend(plot);
    plot->legend->setVisible(hasEntries(plot->legend));
    if (plot->legend->visible()) append(plot->legend);
    caption->setVisible(!caption->text().isEmpty());
    if (caption->visible()) append(caption);
}

void resetPlot(QCustomPlot* plot, const QString& title) {
    plot->clearPlottables();
    plot->clearItems();
    plot->legend->clearItems();
    titleOf(plot)->setText(title);
    captionOf(plot)->setText({});
}

// A sentence in the middle of the axes, where the points would be, over a plain decade or three.
void showNothing(QCustomPlot* plot, const QString& message) {
    plot->xAxis->setRange(0.1, 100);
    plot->yAxis->setRange(0.1, 100);
    auto* label = new QCPItemText(plot);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.5, 0.5);
    label->setPositionAlignment(Qt::AlignCenter);
    label->setTextAlignment(Qt::AlignCenter);
    label->setFont(QFont(plot->font().family(), 10));
    label->setColor(QColor(0x55, 0x55, 0x55));
    label->setText(message);
}

QCPGraph* addGraph(QCustomPlot* plot, const QString& name, const QColor& colour, Qt::PenStyle style) {
    QCPGraph* graph = plot->addGraph();
    graph->setName(name);
    graph->setPen(QPen(colour, 1.8, style));
    graph->setScatterStyle(QCPScatterStyle(
        style == Qt::SolidLine ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle, colour, 6));
    return graph;
}

// A vertical line across the axes at `x`, in plot coordinates.
QCPItemStraightLine* verticalLine(QCustomPlot* plot, double x, const QPen& pen) {
    auto* line = new QCPItemStraightLine(plot);
    for (QCPItemPosition* end : {line->point1, line->point2})
        end->setTypeY(QCPItemPosition::ptAxisRectRatio);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(pen);
    return line;
}

// A label hung from the top of the axes at `x` (or under the label `above`, which it could otherwise
// meet), on whichever side of the line has more room.
QCPItemText* labelAt(QCustomPlot* plot, double x, QCPItemText* above, const QString& message,
                     const QColor& border) {
    const QCPRange range = plot->xAxis->range();
    const double along = std::log(x / range.lower) / std::log(range.upper / range.lower);
    auto* label = new QCPItemText(plot);
    if (above) {
        label->position->setTypeY(QCPItemPosition::ptAbsolute);
        label->position->setParentAnchorY(above->bottom);
        label->position->setCoords(x, 4);
    } else {
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0.02);
    }
    label->setPositionAlignment(Qt::AlignTop | (along > 0.5 ? Qt::AlignRight : Qt::AlignLeft));
    label->setPadding(QMargins(5, 3, 5, 3));
    label->setBrush(QColor(255, 255, 255, 230));
    label->setPen(QPen(border));
    label->setFont(QFont(plot->font().family(), 8));
    label->setText(message);
    return label;
}

// "cuda:0 beats the C++ reference" over "from about 20,500 elements of y (kernel only)": half as wide, so
// that it fits beside its line in a narrow dock.
QString inTwoLines(QString verdict) {
    const qsizetype from = verdict.indexOf(QLatin1String(" from "));
    if (from > 0) verdict[from] = QLatin1Char('\n');
    return verdict;
}

std::vector<const SweepRow*> ranRowsOf(const SweepResult& result, const std::string& id) {
    std::vector<const SweepRow*> rows;
    for (const SweepRow* row : result.rowsOf(id))
        if (row->ran() && result.x(*row) > 0) rows.push_back(row);
    return rows;
}

// The row that places a backend on the roofline.
bool placeable(const SweepRow& row) {
    return row.ran() && row.flops && *row.flops > 0 && row.bytes > 0 && row.gflops().value_or(0) > 0;
}

// The first GPU backend of the spec and the CPU backend the tutorials compare with: the reference, the
// CPU backend on all cores, or on fewer.
std::pair<std::string, std::string> comparedBackends(const SweepResult& result) {
    std::string gpu;
    for (const auto& b : result.backends)
        if (gpu.empty() && b.onGpu()) gpu = b.id;
    return {gpu, kp::run::preferredCpu(result)};
}

// Rows that did not run, a line per backend: left out silently, a gap in a line reads as a measurement.
QStringList missingRows(const SweepResult& result) {
    QStringList lines;
    const QString unit = text(result.parameterLabel());
    for (const auto& backend : result.backends) {
        const SweepRow* first = nullptr;
        int count = 0;
        for (const SweepRow* row : result.rowsOf(backend.id))
            if (!row->ran()) {
                first = first ? first : row;
                ++count;
            }
        if (!first) continue;
        const QString why = first->error.empty() ? QObject::tr("not measured") : text(first->error);
        const QString where = text(kp::run::formatCount(result.x(*first)));
        lines << (count == 1
                      ? QObject::tr("%1 did not run at %2 %3: %4").arg(text(backend.id), where, unit, why)
                      : QObject::tr("%1 did not run at %2 points, the first at %3 %4: %5")
                            .arg(text(backend.id), QString::number(count), where, unit, why));
    }
    if (result.cancelled) lines << QObject::tr("The sweep was stopped: its later points are missing.");
    return lines;
}

// "n = 10 million", "blockDim.x = 256": where a roofline point was measured, in the sweep's own terms.
QString pointName(const SweepResult& result, const SweepRow& row) {
    if (result.spec.parameter == kp::run::SweepParameter::BlockSize)
        return QObject::tr("blockDim.x = %1").arg(row.value);
    return QObject::tr("n = %1").arg(text(kp::run::formatCount(result.x(row))));
}

QString percent(double fraction) {
    const double p = 100 * fraction;
    return p < 10 ? QString::number(p, 'f', 1) : QString::number(std::round(p), 'f', 0);
}

// A backend's point on the roofline, with what it achieved in words beside it; against the roof where the
// device's peak is known.
void placePoint(QCustomPlot* plot, const QString& name, const QColor& colour, double intensity, double gflops,
                const kp::run::DevicePeak& peak) {
    auto* point = addGraph(plot, name, colour, Qt::SolidLine);
    point->setLineStyle(QCPGraph::lsNone);
    point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 10));
    point->addData(intensity, gflops);
    QString words = QObject::tr("%1 GFLOP/s").arg(figure(gflops));
    if (peak.bandwidthGBs > 0 && peak.gflops > 0)
        words +=
            QObject::tr(" (%1% of the roof)").arg(percent(gflops / kp::run::roofGflops(peak, intensity)));
    auto* label = new QCPItemText(plot);
    label->position->setCoords(intensity, gflops);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    label->setPadding(QMargins(10, 0, 0, 0));
    label->setFont(QFont(plot->font().family(), 8));
    label->setText(words);
}

// A backend's median kernel time against the parameter, the spread of its repeats around it, and for a
// GPU the time with the copies in and out; rows that did not run are left out.
void plotTimes(QCustomPlot* plot, const SweepResult& result, std::size_t index, Extent& xs, Extent& ys) {
    const SweepBackendInfo& backend = result.backends[index];
    const auto rows = ranRowsOf(result, backend.id);
    if (rows.empty()) return;
    QVector<double> keys, medians, below, above, withCopies;
    for (const SweepRow* row : rows) {
        const kp::run::Spread kernel = row->kernel();
        keys << result.x(*row);
        medians << kernel.median;
        below << kernel.median - kernel.min;
        above << kernel.max - kernel.median;
        withCopies << row->timeMs(true);
        xs.add(keys.back());
        ys.add(kernel.min);
        ys.add(kernel.max);
        if (row->onGpu()) ys.add(withCopies.back());
    }
    const QColor colour = colourOf(index);
    QCPGraph* graph = addGraph(plot, nameOf(backend), colour, Qt::SolidLine);
    graph->setData(keys, medians, true);
    auto* spread = new QCPErrorBars(plot->xAxis, plot->yAxis);
    spread->setName(QObject::tr("%1 spread").arg(nameOf(backend)));
    spread->removeFromLegend();
    spread->setDataPlottable(graph);
    spread->setErrorType(QCPErrorBars::etValueError);
    spread->setPen(QPen(colour.darker(130), 1.2));
    spread->setWhiskerWidth(6);
    spread->setData(below, above);
    if (backend.onGpu())
        addGraph(plot, QObject::tr("%1 with copies").arg(nameOf(backend)), colour, Qt::DashLine)
            ->setData(keys, withCopies, true);
}

// The device's peak bandwidth across the plot: how far the kernel is from what the memory can give.
void markPeakBandwidth(QCustomPlot* plot, const SweepBackendInfo& backend, const QColor& colour) {
    auto* peak = new QCPItemStraightLine(plot);
    peak->point1->setCoords(1, backend.peak.bandwidthGBs);
    peak->point2->setCoords(10, backend.peak.bandwidthGBs);
    peak->setPen(QPen(colour, 1.2, Qt::DotLine));
    auto* label = new QCPItemText(plot);
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.02, backend.peak.bandwidthGBs);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setFont(QFont(plot->font().family(), 8));
    label->setText(QObject::tr("%1 peak: %2 GB/s").arg(text(backend.id), figure(backend.peak.bandwidthGBs)));
}

} // namespace

SweepPlots::SweepPlots(QWidget* parent)
    : QWidget(parent), tabs_(new QTabWidget(this)), time_(newPlot(this)), throughput_(newPlot(this)),
      roofline_(newPlot(this)), unit_(new QComboBox(this)), point_(new QComboBox(this)) {
    unit_->addItem(tr("elements per second"));
    unit_->addItem(tr("GB/s (every array copied in and out once)"));
    unit_->setToolTip(tr("Throughput as elements per second, or as the bytes the kernel must at least move"));
    connect(unit_, &QComboBox::currentIndexChanged, this, [this] { drawThroughput(); });
    point_->setToolTip(tr("The point of the sweep each backend is placed at on the roofline"));
    connect(point_, &QComboBox::currentIndexChanged, this, [this] {
        const QVariant value = point_->currentData();
        currentValue_ = value.isValid() ? std::optional<std::int64_t>(value.toLongLong()) : std::nullopt;
        drawRoofline();
    });

    const auto tabWith = [this](QComboBox* box, const QString& label, QCustomPlot* plot) {
        auto* page = new QWidget(this);
        auto* controls = new QHBoxLayout;
        controls->addWidget(new QLabel(label, page));
        controls->addWidget(box);
        controls->addStretch();
        auto* layout = new QVBoxLayout(page);
        layout->setContentsMargins(0, 4, 0, 0);
        layout->addLayout(controls);
        layout->addWidget(plot, 1);
        return page;
    };
    tabs_->addTab(time_, tr("Time"));
    tabs_->addTab(tabWith(unit_, tr("Show"), throughput_), tr("Throughput"));
    tabs_->addTab(tabWith(point_, tr("Point"), roofline_), tr("Roofline"));
    cpuOnly_ = new QLabel(this);
    cpuOnly_->setObjectName(QStringLiteral("cpuOnlySweep"));
    cpuOnly_->setWordWrap(true);
    cpuOnly_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    setBanner(cpuOnly_, Banner::Notice, 4);
    cpuOnly_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_, 1);
    layout->addWidget(cpuOnly_);

    time_->yAxis->setLabel(tr("kernel time"));
    for (QCPAxis* axis : {time_->xAxis, time_->yAxis, throughput_->xAxis, throughput_->yAxis,
                          roofline_->xAxis, roofline_->yAxis})
        makeLogarithmic(axis);
    auto times = QSharedPointer<DurationTicker<QCPAxisTickerLog>>::create();
    times->setSubTickCount(8);
    time_->yAxis->setTicker(times);
    roofline_->xAxis->setLabel(tr("arithmetic intensity (FLOP/byte)"));
    roofline_->yAxis->setLabel(tr("GFLOP/s"));
    for (QCustomPlot* plot : {time_, throughput_, roofline_})
        plot->installEventFilter(this);
    clear();
}

void SweepPlots::setResult(const SweepResult& result) {
    result_ = result;
    fillPointBox();
    drawTime();
    drawThroughput();
    drawRoofline();
    // Without a GPU the sweep compares this machine's cores with the C++ reference: said plainly, with
    // the way to a GPU's times.
    const bool gpu = std::any_of(result_.backends.begin(), result_.backends.end(),
                                 [](const SweepBackendInfo& b) { return b.onGpu(); });
    cpuOnly_->setVisible(!gpu && !result_.rows.empty());
    cpuOnly_->setText(
        tr("No GPU took part: these are the CPU backend (the kernel's threads on this machine's "
           "cores) and the C++ reference. They show how the work grows with the size and what "
           "more cores give, not how fast a GPU is. For GPU times, run this playground on a "
           "machine with an NVIDIA GPU: open it in Kernelpad there, or run\n"
           "kernelpad-cli sweep %1 --json sweep.json")
            .arg(kernelFile_.isEmpty() ? tr("<playground>") : kernelFile_));
}

void SweepPlots::setPlaygroundFile(const QString& file) {
    kernelFile_ = file;
}

void SweepPlots::clear() {
    currentValue_.reset();
    setResult({});
}

void SweepPlots::setCurrentValue(std::int64_t value) {
    currentValue_ = value;
    const QSignalBlocker quiet(point_);
    point_->setCurrentIndex(std::max(0, point_->findData(QVariant::fromValue<qlonglong>(value))));
    drawRoofline();
}

void SweepPlots::setThroughput(Throughput unit) {
    unit_->setCurrentIndex(unit == Throughput::GigabytesPerSecond ? 1 : 0); // redraws when it changes
}

SweepPlots::Throughput SweepPlots::throughput() const {
    return unit_->currentIndex() == 1 ? Throughput::GigabytesPerSecond : Throughput::ElementsPerSecond;
}

bool SweepPlots::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize)
        if (auto* plot = qobject_cast<QCustomPlot*>(watched))
            fitLegend(plot); // before the plot lays itself out
    return QWidget::eventFilter(watched, event);
}

QString SweepPlots::crossoverText() const {
    return verdicts_.join(QLatin1Char('\n'));
}

QString SweepPlots::kernelName() const {
    return result_.kernel.empty() ? tr("the kernel") : text(result_.kernel);
}

void SweepPlots::drawTime() {
    verdicts_.clear();
    resetPlot(time_, result_.rows.empty()
                         ? tr("Kernel time")
                         : tr("Time of %1 against the %2").arg(kernelName(), text(result_.parameterLabel())));
    time_->xAxis->setLabel(result_.rows.empty() ? QString() : text(result_.parameterLabel()));
    makeLogarithmic(time_->xAxis, result_.spec.parameter == kp::run::SweepParameter::BlockSize ? 2 : 10);
    Extent xs, ys;
    for (std::size_t i = 0; i < result_.backends.size(); ++i)
        plotTimes(time_, result_, i, xs, ys);
    setLogRange(time_->xAxis, xs, 0.06, 0.06);
    setLogRange(time_->yAxis, ys, 0.08, 0.3); // the crossover labels hang from the top
    if (result_.rows.empty())
        showNothing(time_, tr("Run a sweep to see the kernel time against the problem or block size."));
    else if (xs.empty())
        showNothing(time_, tr("No point of this sweep ran: there is no time to show."));
    drawCrossovers();
    arrangeRows(time_);
    time_->replot();
}

// Where the GPU starts to win is what a student runs a sweep for: a line where it was found, and the
// verdict in words either way.
void SweepPlots::drawCrossovers() {
    QStringList caption;
    const auto [gpu, cpu] = comparedBackends(result_);
    // GPU and CPU do not cross over a block size: a block sweep compares block sizes on each backend.
    const bool sizes = result_.spec.parameter == kp::run::SweepParameter::ProblemSize;
    if (!sizes && !result_.rows.empty())
        caption << tr("A block-size sweep: compare each backend's line with itself; the fastest block is its "
                      "lowest point.");
    else if (!result_.rows.empty() && (gpu.empty() || cpu.empty()))
        caption << tr("Sweep a CUDA backend and a CPU backend (or the reference) to see where the GPU starts "
                      "to win.");
    if (sizes && !gpu.empty() && !cpu.empty() && !result_.rows.empty()) {
        QCPItemText* above = nullptr;
        for (const bool withTransfers : {false, true}) {
            const Crossover c = kp::run::crossover(result_, gpu, cpu, withTransfers);
            const QString verdict = text(kp::run::describe(c, result_));
            verdicts_ << verdict;
            if (c.kind != Crossover::Kind::Found || !(c.x > 0)) {
                caption << verdict;
                continue;
            }
            const QColor ink(0x33, 0x33, 0x33);
            verticalLine(time_, c.x, QPen(ink, 1.2, withTransfers ? Qt::DashLine : Qt::SolidLine));
            above = labelAt(time_, c.x, above, inTwoLines(verdict), ink);
        }
    }
    caption << missingRows(result_);
    captionOf(time_)->setText(caption.join(QLatin1Char('\n')));
}

void SweepPlots::drawThroughput() {
    const bool bytes = throughput() == Throughput::GigabytesPerSecond;
    resetPlot(throughput_,
              result_.rows.empty()
                  ? tr("Throughput")
                  : tr("Throughput of %1 against the %2").arg(kernelName(), text(result_.parameterLabel())));
    throughput_->xAxis->setLabel(result_.rows.empty() ? QString() : text(result_.parameterLabel()));
    throughput_->yAxis->setLabel(bytes ? tr("GB/s over the kernel time")
                                       : tr("elements per second over the kernel time"));
    makeLogarithmic(throughput_->xAxis,
                    result_.spec.parameter == kp::run::SweepParameter::BlockSize ? 2 : 10);
    throughput_->yAxis->setNumberFormat(bytes ? QStringLiteral("gb") : QStringLiteral("eb"));
    throughput_->yAxis->setNumberPrecision(bytes ? 3 : 0);
    Extent xs, ys;
    for (std::size_t i = 0; i < result_.backends.size(); ++i) {
        const SweepBackendInfo& backend = result_.backends[i];
        QVector<double> keys, values;
        for (const SweepRow* row : ranRowsOf(result_, backend.id)) {
            const auto value = bytes ? row->gigabytesPerSecond() : row->elementsPerSecond();
            if (!value || !(*value > 0)) continue;
            keys << result_.x(*row);
            values << *value;
            xs.add(keys.back());
            ys.add(values.back());
        }
        if (keys.isEmpty()) continue;
        addGraph(throughput_, nameOf(backend), colourOf(i), Qt::SolidLine)->setData(keys, values, true);
        if (!bytes || backend.peak.bandwidthGBs <= 0) continue;
        markPeakBandwidth(throughput_, backend, colourOf(i));
        ys.add(backend.peak.bandwidthGBs);
    }
    setLogRange(throughput_->xAxis, xs, 0.06, 0.06);
    setLogRange(throughput_->yAxis, ys, 0.1, 0.15);
    if (result_.rows.empty())
        showNothing(throughput_, tr("Run a sweep to see the throughput against the problem or block size."));
    else if (xs.empty())
        showNothing(throughput_, tr("No point of this sweep ran: there is no throughput to show."));
    arrangeRows(throughput_);
    throughput_->replot();
}

const SweepRow* SweepPlots::currentRow(const std::string& backendId) const {
    const auto rows = result_.rowsOf(backendId);
    const bool chosen =
        currentValue_ && std::any_of(result_.rows.begin(), result_.rows.end(),
                                     [this](const SweepRow& r) { return r.value == *currentValue_; });
    if (chosen) {
        const auto at = std::find_if(rows.begin(), rows.end(),
                                     [this](const SweepRow* r) { return r->value == *currentValue_; });
        return at != rows.end() && placeable(**at) ? *at : nullptr;
    }
    const auto last =
        std::find_if(rows.rbegin(), rows.rend(), [](const SweepRow* r) { return placeable(*r); });
    return last != rows.rend() ? *last : nullptr;
}

QString SweepPlots::rooflineTitle() const {
    if (result_.rows.empty()) return tr("Roofline");
    const auto chosen = std::find_if(result_.rows.begin(), result_.rows.end(), [this](const SweepRow& r) {
        return currentValue_ && r.value == *currentValue_;
    });
    if (chosen == result_.rows.end())
        return tr("Roofline of %1, each backend at its largest point that ran").arg(kernelName());
    return tr("Roofline of %1 at %2 %3")
        .arg(kernelName(), text(kp::run::formatCount(result_.x(*chosen))), text(result_.parameterLabel()));
}

void SweepPlots::drawRoofline() {
    resetPlot(roofline_, rooflineTitle());
    if (const QString why = drawRooflinePoints(); !why.isEmpty()) showNothing(roofline_, why);
    arrangeRows(roofline_);
    roofline_->replot();
}

// Each backend's point and the roofs over them; else why there is nothing to place.
QString SweepPlots::drawRooflinePoints() {
    if (result_.rows.empty()) return tr("Run a sweep to see the kernel on the roofline.");
    if (std::none_of(result_.rows.begin(), result_.rows.end(),
                     [](const SweepRow& r) { return r.flops && *r.flops > 0; }))
        return tr(
            "Give the kernel's floating-point operations as a formula of n (the FLOPs field)\nto place it "
            "on the roofline.");
    Extent intensities, gflops;
    for (std::size_t i = 0; i < result_.backends.size(); ++i) {
        const SweepBackendInfo& backend = result_.backends[i];
        const SweepRow* row = currentRow(backend.id);
        if (!row) continue;
        const double intensity = *row->intensity();
        const double achieved = *row->gflops();
        intensities.add(intensity);
        gflops.add(achieved);
        placePoint(roofline_, tr("%1, %2").arg(nameOf(backend), pointName(result_, *row)), colourOf(i),
                   intensity, achieved, backend.onGpu() ? backend.peak : kp::run::DevicePeak{});
    }
    if (intensities.empty())
        return tr(
            "No point with a FLOP count and a byte count ran: there is nothing to place on the roofline.");
    drawRoofs(intensities.low, intensities.high, gflops.low, gflops.high);
    if (std::none_of(result_.backends.begin(), result_.backends.end(),
                     [](const SweepBackendInfo& b) { return b.onGpu() && b.peak.gflops > 0; })) {
        // The points stand without a roof: say why rather than leave the student looking for one.
        auto* why = new QCPItemText(roofline_);
        why->position->setType(QCPItemPosition::ptAxisRectRatio);
        why->position->setCoords(0.02, 0.03);
        why->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        why->setTextAlignment(Qt::AlignLeft);
        why->setText(tr("No roof: a roof is a processor's peak bandwidth and FLOP/s, which the CUDA driver "
                        "gives\nfor a GPU. Kernelpad does not measure this CPU's; its points show what the "
                        "kernel reached."));
    }
    return {};
}

// Each GPU's roof: its bandwidth times the intensity up to the ridge, its peak GFLOP/s beyond. A CPU's
// peak is not known, so it has none.
void SweepPlots::drawRoofs(double lowestIntensity, double highestIntensity, double lowestGflops,
                           double highestGflops) {
    Extent xs, gflops;
    gflops.add(lowestGflops);
    gflops.add(highestGflops);
    xs.add(lowestIntensity);
    xs.add(highestIntensity);
    for (const auto& backend : result_.backends)
        if (backend.peak.bandwidthGBs > 0 && backend.peak.gflops > 0)
            xs.add(backend.peak.gflops / backend.peak.bandwidthGBs);
    const double left = xs.low / 10, right = xs.high * 10;
    for (std::size_t i = 0; i < result_.backends.size(); ++i) {
        const SweepBackendInfo& backend = result_.backends[i];
        const auto& peak = backend.peak;
        if (!backend.onGpu() || peak.bandwidthGBs <= 0 || peak.gflops <= 0) continue;
        const double ridge = peak.gflops / peak.bandwidthGBs;
        auto* roof = roofline_->addGraph();
        roof->setName(tr("%1 roof: %2 GB/s, %3 GFLOP/s")
                          .arg(text(backend.id), figure(peak.bandwidthGBs), figure(peak.gflops)));
        roof->setPen(QPen(colourOf(i).darker(150), 2));
        roof->setData({left, ridge, right}, {peak.bandwidthGBs * left, peak.gflops, peak.gflops}, true);
        gflops.add(peak.bandwidthGBs * left);
        gflops.add(peak.gflops);
        verticalLine(roofline_, ridge, QPen(colourOf(i).darker(150), 1, Qt::DotLine));
        auto* label = new QCPItemText(roofline_);
        label->position->setCoords(ridge, peak.gflops);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setTextAlignment(Qt::AlignHCenter);
        label->setPadding(QMargins(0, 0, 0, 6));
        label->setFont(QFont(roofline_->font().family(), 8));
        label->setText(tr("ridge at %1 FLOP/byte\nmemory-bound ←   → compute-bound").arg(figure(ridge)));
    }
    roofline_->xAxis->setRange(left, right);
    setLogRange(roofline_->yAxis, gflops, 0.05, 0.2);
}

void SweepPlots::fillPointBox() {
    const QSignalBlocker quiet(point_);
    point_->clear();
    point_->addItem(tr("largest point that ran"));
    std::vector<const SweepRow*> points;
    for (const auto& row : result_.rows)
        if (std::none_of(points.begin(), points.end(),
                         [&](const SweepRow* p) { return p->value == row.value; }))
            points.push_back(&row);
    std::sort(points.begin(), points.end(),
              [](const SweepRow* a, const SweepRow* b) { return a->value < b->value; });
    for (const SweepRow* row : points)
        point_->addItem(
            tr("%1 %2").arg(text(kp::run::formatCount(result_.x(*row))), text(result_.parameterLabel())),
            QVariant::fromValue<qlonglong>(row->value));
    point_->setEnabled(!points.empty());
    if (currentValue_)
        point_->setCurrentIndex(
            std::max(0, point_->findData(QVariant::fromValue<qlonglong>(*currentValue_))));
}

bool SweepPlots::exportPlot(const QString& path, QString* error) {
    if (result_.rows.empty()) {
        if (error) *error = tr("Nothing to export yet: run a sweep first.");
        return false;
    }
    auto* plot = qobject_cast<QCustomPlot*>(tabs_->currentWidget());
    if (!plot) plot = tabs_->currentWidget()->findChild<QCustomPlot*>();
    return ::exportPlot(plot, path, exportSize(plot, QSize(480, 320), QSize(900, 560)),
                        tr("Kernelpad sweep of %1").arg(kernelName()), error);
}

bool SweepPlots::exportCsv(const QString& path, QString* error) {
    if (result_.rows.empty()) {
        if (error) *error = tr("Nothing to export yet: run a sweep first.");
        return false;
    }
    const std::string csv = result_.toCsv();
    try {
        kp::io::writeFileAtomically(path.toStdString(), std::as_bytes(std::span(csv.data(), csv.size())));
    } catch (const std::exception& e) {
        if (error) *error = tr("Could not write %1: %2").arg(path, QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}
