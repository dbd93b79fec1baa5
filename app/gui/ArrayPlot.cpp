#include "ArrayPlot.h"

#include "PlotAppearance.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace {

constexpr int kBuckets = 2000; // per sample of the visible range: at most twice as many points per graph
// A lone mismatching cell of a 1024-cell map is smaller than a pixel: up to this many are also circled.
constexpr std::size_t kMaxCircledCells = 1000;
const QColor kValuesColor(31, 119, 180);
const QColor kReferenceColor(255, 160, 60);
const QColor kMismatchColor(214, 39, 40);
const char* const kComponentNames[] = {"x", "y", "z", "w"};

// Cell centres in element coordinates: cell c covers elements [c * block, (c + 1) * block).
QCPRange cellCentres(std::size_t cells, std::size_t block) {
    const double half = (double(block) - 1) / 2;
    return {half, double(cells - 1) * double(block) + half};
}

std::unique_ptr<QCPColorMapData> meanCells(const ColorGrid& grid) {
    auto cells = std::make_unique<QCPColorMapData>(int(grid.columns), int(grid.rows),
                                                   cellCentres(grid.columns, grid.blockColumns),
                                                   cellCentres(grid.rows, grid.blockRows));
    for (std::size_t r = 0; r < grid.rows; ++r)
        for (std::size_t c = 0; c < grid.columns; ++c)
            cells->setCell(int(c), int(r), grid.at(r, c));
    return cells;
}

// Opaque where a value of the cell differs, transparent elsewhere.
std::unique_ptr<QCPColorMapData> mismatchCells(const ColorGrid& grid) {
    auto cells = std::make_unique<QCPColorMapData>(int(grid.columns), int(grid.rows),
                                                   cellCentres(grid.columns, grid.blockColumns),
                                                   cellCentres(grid.rows, grid.blockRows));
    cells->fill(1);
    cells->fillAlpha(0);
    for (std::size_t r = 0; r < grid.rows; ++r)
        for (std::size_t c = 0; c < grid.columns; ++c)
            if (grid.mismatch[r * grid.columns + c]) cells->setAlpha(int(c), int(r), 255);
    return cells;
}

QVector<QCPGraphData> mismatchCircles(const ColorGrid& grid) {
    QVector<QCPGraphData> circles;
    if (grid.mismatchingCells > kMaxCircledCells) return circles;
    const QCPRange columns = cellCentres(grid.columns, grid.blockColumns),
                   rows = cellCentres(grid.rows, grid.blockRows);
    for (std::size_t r = 0; r < grid.rows; ++r)
        for (std::size_t c = 0; c < grid.columns; ++c)
            if (grid.mismatch[r * grid.columns + c])
                circles.push_back(
                    {columns.lower + double(c * grid.blockColumns), rows.lower + double(r * grid.blockRows)});
    return circles;
}

QCPRange padded(double low, double high) {
    if (low == high) return {low - 1, high + 1};
    const double margin = (high - low) * 0.05;
    return {low - margin, high + margin};
}

} // namespace

struct ArrayPlot::Prepared {
    std::optional<Envelope> values, reference, mismatches;  // 1-D
    std::unique_ptr<QCPColorMapData> colors, mismatchCells; // 2-D, 3-D: handed to the colour maps
    QVector<QCPGraphData> circles;                          // 2-D, 3-D: (column, row) of mismatching cells
    std::size_t blockRows = 1, blockColumns = 1, mismatchingCells = 0;
    QString error;
};

struct ArrayPlot::Job {
    std::atomic<bool> cancel{false};
    std::shared_ptr<Prepared> result; // null when cancelled
};

ArrayPlot::ArrayPlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), componentBox_(new QComboBox(this)),
      sliceBox_(new QSpinBox(this)), sliceLabel_(new QLabel(tr("Slice"), this)), status_(new QLabel(this)) {
    auto* reset = new QPushButton(tr("Reset zoom"), this);
    reset->setToolTip(tr("Show the whole array again (wheel zooms, drag pans)"));
    componentBox_->setToolTip(tr("Component of the vector type to plot"));
    sliceBox_->setToolTip(tr("First index of the 3-D array: the slice shown"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* controls = new QHBoxLayout;
    controls->addWidget(status_, 1);
    controls->addWidget(componentBox_);
    controls->addWidget(sliceLabel_);
    controls->addWidget(sliceBox_);
    controls->addWidget(reset);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(plot_, 1);

    followAppearance(plot_);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Wide pens on a dense min/max zigzag went through Qt's path stroker: 5 s per replot for 4000
    // points. Separate line segments draw it in milliseconds.
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->setMinimumSize(200, 110); // a laptop leaves the results a strip under the code
    // The legend in a row of its own under the axes: inside them it hides the data at the array's end.
    auto* legendRow = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 0, legendRow);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    legendRow->addElement(0, 0, plot_->legend);
    legendRow->setMargins(QMargins(0, 0, 0, 4));
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    // A sample for each new visible range: the drag and wheel handlers replot right after this.
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { resample(); });
    connect(reset, &QPushButton::clicked, this, &ArrayPlot::resetZoom);
    connect(componentBox_, qOverload<int>(&QComboBox::activated), this, &ArrayPlot::setComponent);
    connect(sliceBox_, qOverload<int>(&QSpinBox::valueChanged), this, &ArrayPlot::setSlice);
    clear();
}

ArrayPlot::~ArrayPlot() {
    stopPreparing();
}

void ArrayPlot::setArrays(std::shared_ptr<const kp::model::Array> array,
                          std::shared_ptr<const kp::model::Array> reference, kp::run::Tolerance tolerance) {
    stopPreparing();
    array_ = std::move(array);
    const bool comparable =
        array_ && reference && reference->dtype() == array_->dtype() && reference->shape() == array_->shape();
    reference_ = comparable ? std::move(reference) : nullptr;
    tolerance_ = tolerance;
    component_ = 0;
    slice_ = 0;
    const int components = array_ ? kp::model::components(array_->dtype()) : 1;
    componentBox_->clear();
    for (int c = 0; c < components; ++c)
        componentBox_->addItem(QString::fromLatin1(kComponentNames[c]));
    componentBox_->setVisible(components > 1);
    const bool sliced = array_ && array_->shape().size() == 3;
    const QSignalBlocker quiet(sliceBox_);
    sliceBox_->setRange(0, sliced ? int(std::min<std::size_t>(array_->shape()[0], INT_MAX) - 1) : 0);
    sliceBox_->setValue(0);
    sliceBox_->setVisible(sliced);
    sliceLabel_->setVisible(sliced);
    rebuildPlottables();
    prepare(true);
}

void ArrayPlot::clear() {
    stopPreparing();
    array_.reset();
    reference_.reset();
    shown_.reset();
    ready_ = false;
    componentBox_->hide();
    sliceBox_->hide();
    sliceLabel_->hide();
    status_->clear();
    rebuildPlottables();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ArrayPlot::setComponent(int component) {
    if (!array_ || component == component_ || component < 0 ||
        component >= kp::model::components(array_->dtype()))
        return;
    component_ = component;
    componentBox_->setCurrentIndex(component);
    prepare(false);
}

void ArrayPlot::setSlice(int slice) {
    if (!array_ || array_->shape().size() != 3 || slice == slice_ || slice < 0 ||
        std::size_t(slice) >= array_->shape()[0])
        return;
    slice_ = slice;
    const QSignalBlocker quiet(sliceBox_);
    sliceBox_->setValue(slice);
    prepare(false);
}

QString ArrayPlot::statusText() const {
    return status_->text();
}

void ArrayPlot::rebuildPlottables() {
    plot_->clearPlottables();
    values_ = referenceGraph_ = mismatchGraph_ = nullptr;
    colorMap_ = mismatchMap_ = nullptr;
    if (colorScale_) {
        plot_->plotLayout()->remove(colorScale_);
        plot_->plotLayout()->simplify();
        colorScale_ = nullptr;
    }
    plot_->yAxis->setRangeReversed(false);
    plot_->legend->setVisible(false);
    plot_->clearItems();
    plot_->xAxis->setVisible(true);
    plot_->yAxis->setVisible(true);
    if (!array_) return;
    if (isOneValue()) {
        // One number has no shape to draw: it is shown as a number, beside the reference's.
        plot_->xAxis->setVisible(false);
        plot_->yAxis->setVisible(false);
        const auto text = [this](const kp::model::Array& a) {
            const double v = a.value(0, component_);
            return kp::model::isFloating(a.dtype()) ? QString::number(v, 'g', 7)
                                                    : QString::number(static_cast<qlonglong>(v));
        };
        // Placed in the whole plot, not its axis rect: with the axes hidden the rect can be a sliver, and
        // the number was cut to a few digits at the plot's left edge (seen at 1920x1080).
        auto* value = new QCPItemText(plot_);
        value->setClipToAxisRect(false);
        value->position->setType(QCPItemPosition::ptViewportRatio);
        value->position->setCoords(0.5, 0.45);
        value->setFont(QFont(plot_->font().family(), 22, QFont::Bold));
        value->setColor(kValuesColor);
        value->setText(text(*array_));
        auto* caption = new QCPItemText(plot_);
        caption->setClipToAxisRect(false);
        caption->position->setType(QCPItemPosition::ptViewportRatio);
        caption->position->setCoords(0.5, 0.7);
        caption->setText(reference_ ? tr("one value; the reference's is %1").arg(text(*reference_))
                                    : tr("one value"));
        return;
    }
    if (isLine()) {
        plot_->xAxis->setLabel(tr("index"));
        plot_->yAxis->setLabel(tr("value"));
        // A short array of integers is counts (a histogram's bins): drawn as bars, not a line between them.
        const bool bars = isCounts();
        if (reference_) {
            referenceGraph_ = plot_->addGraph();
            referenceGraph_->setPen(QPen(kReferenceColor, 1));
            referenceGraph_->setName(tr("reference"));
            if (bars) referenceGraph_->setLineStyle(QCPGraph::lsStepCenter);
        }
        values_ = plot_->addGraph();
        values_->setPen(QPen(kValuesColor, 1));
        values_->setName(tr("output"));
        if (bars) {
            values_->setLineStyle(QCPGraph::lsStepCenter);
            values_->setBrush(QColor(kValuesColor.red(), kValuesColor.green(), kValuesColor.blue(), 120));
        }
        if (reference_) {
            mismatchGraph_ = plot_->addGraph();
            mismatchGraph_->setLineStyle(QCPGraph::lsNone);
            mismatchGraph_->setScatterStyle(QCPScatterStyle(
                QCPScatterStyle::ssCircle, QPen(kMismatchColor, 1.5), QColor(214, 39, 40, 110), 8));
            mismatchGraph_->setName(tr("differs"));
        }
        plot_->legend->setVisible(true);
        return;
    }
    plot_->xAxis->setLabel(tr("column"));
    plot_->yAxis->setLabel(tr("row"));
    plot_->yAxis->setRangeReversed(true); // row 0 on top, as the table lists it
    colorScale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, colorScale_);
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    colorScale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    colorMap_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    colorMap_->setColorScale(colorScale_);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(200, 200, 200));
    colorMap_->setGradient(gradient);
    colorMap_->setInterpolate(false);
    if (reference_) {
        mismatchMap_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
        QCPColorGradient red;
        red.clearColorStops();
        red.setColorStopAt(0, kMismatchColor);
        red.setColorStopAt(1, kMismatchColor);
        mismatchMap_->setGradient(red);
        mismatchMap_->setDataRange(QCPRange(0, 2));
        mismatchMap_->setInterpolate(false);
        mismatchGraph_ = plot_->addGraph();
        mismatchGraph_->setLineStyle(QCPGraph::lsNone);
        mismatchGraph_->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kMismatchColor, 2), Qt::NoBrush, 14));
        mismatchGraph_->setName(tr("differs from the reference"));
        plot_->legend->setVisible(true);
    }
}

std::size_t ArrayPlot::valuesToPrepare() const {
    if (!array_) return 0;
    const auto& shape = array_->shape();
    return shape.size() == 3 ? shape[1] * shape[2] : array_->size();
}

std::shared_ptr<ArrayPlot::Prepared> ArrayPlot::prepareData(const Input& in,
                                                            const std::atomic<bool>* cancel) {
    auto p = std::make_shared<Prepared>();
    try {
        if (in.array->shape().size() == 1) {
            p->values = Envelope::ofValues(in.array, in.component, cancel);
            if (in.reference) {
                p->reference = Envelope::ofValues(in.reference, in.component, cancel);
                p->mismatches =
                    Envelope::ofMismatches(in.array, in.reference, in.tolerance, in.component, cancel);
                if (!p->reference || !p->mismatches) return nullptr;
            }
            return p->values ? p : nullptr;
        }
        const auto grid = ColorGrid::build(*in.array, in.reference.get(), in.tolerance, in.component,
                                           in.slice, kMaxCells, cancel);
        if (!grid) return nullptr;
        p->colors = meanCells(*grid);
        if (in.reference) {
            p->mismatchCells = mismatchCells(*grid);
            p->circles = mismatchCircles(*grid);
        }
        p->blockRows = grid->blockRows;
        p->blockColumns = grid->blockColumns;
        p->mismatchingCells = grid->mismatchingCells;
    } catch (const std::exception& e) {
        p->error = QString::fromUtf8(e.what()); // out of memory, mostly
    }
    return p;
}

void ArrayPlot::prepare(bool rescale) {
    stopPreparing();
    ready_ = false;
    shown_.reset();
    for (QCPGraph* graph : {values_, referenceGraph_, mismatchGraph_})
        if (graph) graph->data()->clear();
    if (colorMap_) colorMap_->data()->clear();
    if (mismatchMap_) mismatchMap_->data()->clear();
    if (!array_) return;
    if (isOneValue()) {
        ready_ = true;
        plot_->replot(QCustomPlot::rpQueuedReplot);
        emit ready();
        return;
    }
    if (valuesToPrepare() == 0) {
        status_->setText(tr("An empty array: nothing to plot"));
        ready_ = true;
        emit ready();
        return;
    }
    const Input input{array_, reference_, tolerance_, component_, std::size_t(slice_)};
    if (valuesToPrepare() < kBackgroundFrom) {
        adopt(prepareData(input, nullptr), rescale);
        return;
    }
    status_->setText(tr("Preparing the plot of %L1 values…").arg(valuesToPrepare()));
    plot_->replot(QCustomPlot::rpQueuedReplot);
    auto job = std::make_shared<Job>();
    job_ = job;
    builder_.reset(QThread::create([job, input] { job->result = prepareData(input, &job->cancel); }));
    // Queued to this (GUI) thread: the swap happens between events, never inside setArrays.
    connect(builder_.get(), &QThread::finished, this, [this, job, rescale] {
        if (job != job_) return; // superseded by a newer array, component or slice
        builder_->wait();
        builder_.release()->deleteLater();
        job_.reset();
        adopt(job->result, rescale);
    });
    builder_->start(QThread::LowPriority);
}

void ArrayPlot::stopPreparing() {
    if (!builder_) return;
    job_->cancel = true; // the loops look at it every ~1M elements
    builder_->wait();
    builder_.reset();
    job_.reset();
}

void ArrayPlot::adopt(const std::shared_ptr<Prepared>& prepared, bool rescale) {
    if (!prepared) return;
    shown_ = prepared;
    ready_ = true;
    if (!prepared->error.isEmpty()) {
        status_->setText(tr("Cannot plot this array: %1").arg(prepared->error));
        emit ready();
        return;
    }
    status_->clear();
    if (isLine()) {
        if (rescale) resetZoom(); // samples through rangeChanged
        resample();
    } else {
        colorMap_->setData(prepared->colors.release());
        const QCPRange bounds = colorMap_->data()->dataBounds();
        colorMap_->setDataRange(std::isfinite(bounds.lower) && bounds.lower < bounds.upper ? bounds
                                : std::isfinite(bounds.lower) && bounds.lower <= bounds.upper
                                    ? QCPRange(bounds.lower - 0.5, bounds.upper + 0.5)
                                    : QCPRange(0, 1));
        if (mismatchMap_ && prepared->mismatchCells) mismatchMap_->setData(prepared->mismatchCells.release());
        if (mismatchGraph_) mismatchGraph_->data()->set(prepared->circles);
        if (rescale) resetZoom();
        QStringList notes;
        if (prepared->blockRows > 1 || prepared->blockColumns > 1)
            notes << tr("Each cell: the mean of %1 × %2 elements")
                         .arg(prepared->blockRows)
                         .arg(prepared->blockColumns);
        if (prepared->mismatchingCells == 1)
            notes << tr("1 cell with a value that differs (red, circled)");
        else if (prepared->mismatchingCells > 1)
            notes << (prepared->circles.isEmpty() ? tr("%L1 cells with a value that differs (red)")
                                                  : tr("%L1 cells with a value that differs (red, circled)"))
                         .arg(prepared->mismatchingCells);
        status_->setText(notes.join(QStringLiteral("; ")));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit ready();
}

void ArrayPlot::resetZoom() {
    if (!array_ || valuesToPrepare() == 0) return;
    if (!isLine()) {
        const auto& shape = array_->shape();
        plot_->xAxis->setRange(-0.5, double(shape.back()) - 0.5);
        plot_->yAxis->setRange(-0.5, double(shape[shape.size() - 2]) - 0.5);
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (!shown_ || !shown_->values) return;
    auto range = shown_->values->range();
    const auto referenceRange = shown_->reference ? shown_->reference->range() : std::nullopt;
    if (range && referenceRange)
        range = std::pair{std::min(range->first, referenceRange->first),
                          std::max(range->second, referenceRange->second)};
    else if (referenceRange)
        range = referenceRange;
    plot_->yAxis->setRange(range ? padded(range->first, range->second) : QCPRange(0, 1));
    plot_->xAxis->setRange(padded(0, double(array_->size() - 1)));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ArrayPlot::resample() {
    if (!isLine() || !shown_ || !shown_->values) return;
    const QCPRange range = plot_->xAxis->range();
    auto show = [&](QCPGraph* graph, const std::optional<Envelope>& envelope) {
        if (!graph || !envelope) return;
        const auto samples = envelope->sample(range.lower, range.upper, kBuckets);
        QVector<QCPGraphData> points(qsizetype(samples.keys.size()));
        for (std::size_t i = 0; i < samples.keys.size(); ++i)
            points[qsizetype(i)] = {samples.keys[i], samples.values[i]};
        graph->data()->set(points, true);
    };
    show(values_, shown_->values);
    show(referenceGraph_, shown_->reference);
    show(mismatchGraph_, shown_->mismatches);
    const double span = shown_->values->elementsPerBucket(range.lower, range.upper, kBuckets);
    // Wide under the output where each element is a point, so that both show; 1 px over an envelope,
    // which a wide pen takes 3-4 times as long to draw (43 against 12 ms for 4000 points).
    if (referenceGraph_) referenceGraph_->setPen(QPen(kReferenceColor, span > 1 ? 1 : 3));
    status_->setText(span > 1 ? tr("Each point: the min and max of %L1 elements").arg(qRound64(span))
                              : QString());
}
