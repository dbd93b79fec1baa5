#include "LaunchPanel.h"

#include "Appearance.h"
#include "GridDrawing.h"
#include "ProblemFrame.h"
#include "StudentWords.h"
#include "core/launch/RunSetup.h"
#include "core/run/GridCoverage.h"
#include "core/run/Occupancy.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStyle>
#include <climits>
#include <functional>
#include <numeric>

namespace {

constexpr int kMaxBlockField = 1 << 20; // far past any device's limit, so that typing 2048 is a message

QSpinBox* sizeField(QWidget* parent, int maximum) {
    auto* spin = new QSpinBox(parent);
    // 0 is allowed so that validate() can say why it is wrong instead of the field refusing it silently.
    spin->setRange(0, maximum);
    spin->setAccelerated(true);
    // As wide as seven digits rather than the range's ten: the panel fits a laptop's side column.
    spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("8888888")) +
                          spin->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 16);
    new ProblemFrame(spin); // shown while a problem names the field
    return spin;
}

QLabel* wrappingLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

std::uint64_t times(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

// Counts in the user's locale ("100,000,256"): launches run to hundreds of millions of threads.
QString number(std::uint64_t value) {
    return QLocale().toString(qulonglong(value));
}

QString counted(std::uint64_t value, const QString& one, const QString& many) {
    return number(value) + QLatin1Char(' ') + (value == 1 ? one : many);
}

QString percent(double ratio, int decimals) {
    return QString::number(ratio * 100.0, 'f', decimals) + QLatin1Char('%');
}

} // namespace

LaunchPanel::LaunchPanel(QWidget* parent)
    : QWidget(parent), autoGrid_(new QCheckBox(tr("auto"), this)), shared_(sizeField(this, INT_MAX)),
      totalsLabel_(wrappingLabel(this)), problemsLabel_(wrappingLabel(this)),
      occupancyLabel_(wrappingLabel(this)), drawing_(new GridDrawing(this)), idleLabel_(wrappingLabel(this)) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
        block_[axis] = sizeField(this, kMaxBlockField);
        grid_[axis] = sizeField(this, INT_MAX);
    }
    shared_->setSuffix(tr(" B"));
    autoGrid_->setToolTip(tr("Enough blocks to cover the first array argument, x along its last dimension"));
    setTone(problemsLabel_, Tone::Error);
    auto* layout = new QGridLayout(this);
    const char* axes[] = {"x", "y", "z"};
    for (int axis = 0; axis < 3; ++axis)
        layout->addWidget(new QLabel(QString::fromLatin1(axes[axis]), this), 0, axis + 1, Qt::AlignHCenter);
    layout->addWidget(new QLabel(tr("Block"), this), 1, 0);
    layout->addWidget(new QLabel(tr("Grid"), this), 2, 0);
    for (int axis = 0; axis < 3; ++axis) {
        layout->addWidget(block_[std::size_t(axis)], 1, axis + 1);
        layout->addWidget(grid_[std::size_t(axis)], 2, axis + 1);
    }
    layout->addWidget(autoGrid_, 2, 4);
    layout->addWidget(new QLabel(tr("Dynamic shared"), this), 3, 0);
    layout->addWidget(shared_, 3, 1, 1, 2);
    layout->addWidget(problemsLabel_, 4, 0, 1, 5);
    layout->addWidget(totalsLabel_, 5, 0, 1, 5);
    layout->addWidget(occupancyLabel_, 6, 0, 1, 5);
    layout->addWidget(drawing_, 7, 0, 1, 5);
    layout->addWidget(idleLabel_, 8, 0, 1, 5);
    layout->setRowStretch(7, 1);
    layout->setColumnStretch(1, 1);
    layout->setColumnStretch(2, 1);
    layout->setColumnStretch(3, 1);

    for (QSpinBox* field : {block_[0], block_[1], block_[2], grid_[0], grid_[1], grid_[2], shared_})
        connect(field, &QSpinBox::valueChanged, this, &LaunchPanel::userEdited);
    // Tab goes along the rows, as the fields read: block x, y, z, then grid x, y, z, "auto", shared.
    const std::array<QWidget*, 8> order{block_[0], block_[1], block_[2], grid_[0],
                                        grid_[1],  grid_[2],  autoGrid_, shared_};
    for (std::size_t i = 0; i + 1 < order.size(); ++i)
        setTabOrder(order[i], order[i + 1]);
    connect(autoGrid_, &QCheckBox::toggled, this, [this](bool on) {
        if (showing_) return;
        // Turning "auto" off keeps the grid that was running, for the user to edit from there.
        if (!on) spec_.grid = geometry().grid;
        spec_.autoGrid = on;
        showSpec();
        userEdited();
    });
    showSpec();
}

void LaunchPanel::setLaunch(const kp::model::LaunchSpec& launch) {
    spec_ = launch;
    showSpec();
}

kp::model::LaunchSpec LaunchPanel::launch() const {
    return spec_;
}

kp::launch::LaunchGeometry LaunchPanel::geometry() const {
    kp::launch::LaunchGeometry geometry;
    geometry.block = spec_.block;
    geometry.grid = spec_.autoGrid ? kp::launch::autoGrid(shape_, spec_.block) : spec_.grid;
    geometry.sharedBytes = spec_.sharedBytes;
    return geometry;
}

QString LaunchPanel::summary() const {
    const auto g = geometry();
    return tr("grid %1×%2×%3, block %4×%5×%6")
        .arg(g.grid[0])
        .arg(g.grid[1])
        .arg(g.grid[2])
        .arg(g.block[0])
        .arg(g.block[1])
        .arg(g.block[2]);
}

void LaunchPanel::setLimits(const kp::launch::LaunchLimits& limits) {
    limits_ = limits;
    refresh();
}

void LaunchPanel::setDevice(std::optional<kp::cuda::DeviceProperties> device) {
    device_ = std::move(device);
    refresh();
}

void LaunchPanel::setKernelAttributes(std::optional<kp::cuda::KernelAttributes> attributes) {
    attributes_ = attributes;
    refresh();
}

void LaunchPanel::setArrays(std::vector<DataArray> arrays) {
    arrays_ = std::move(arrays);
    shape_ = arrays_.empty() ? kp::model::Shape{} : arrays_.front().shape;
    showSpec(); // an auto grid follows the shape
}

const LaunchPanel::DataArray* LaunchPanel::laidOver() const {
    if (arrays_.empty()) return nullptr;
    if (spec_.autoGrid) return &arrays_.front();
    const auto elements = [](const DataArray& a) {
        return std::accumulate(a.shape.begin(), a.shape.end(), std::uint64_t{1}, std::multiplies<>());
    };
    // The first of the largest: max_element keeps the first of equals.
    return &*std::max_element(arrays_.begin(), arrays_.end(),
                              [&](const auto& a, const auto& b) { return elements(a) < elements(b); });
}

void LaunchPanel::setGridStride(bool gridStride) {
    if (gridStride == gridStride_) return;
    gridStride_ = gridStride;
    refresh();
}

void LaunchPanel::userEdited() {
    if (showing_) return;
    for (std::size_t axis = 0; axis < 3; ++axis) {
        spec_.block[axis] = static_cast<std::uint32_t>(block_[axis]->value());
        if (!spec_.autoGrid) spec_.grid[axis] = static_cast<std::uint32_t>(grid_[axis]->value());
    }
    spec_.sharedBytes = static_cast<std::uint32_t>(shared_->value());
    showSpec(); // an auto grid follows the block
    emit launchChanged(spec_);
}

void LaunchPanel::showSpec() {
    showing_ = true;
    const auto grid = geometry().grid;
    for (std::size_t axis = 0; axis < 3; ++axis) {
        block_[axis]->setValue(int(std::min<std::uint32_t>(spec_.block[axis], kMaxBlockField)));
        grid_[axis]->setValue(int(std::min<std::uint32_t>(grid[axis], INT_MAX)));
        grid_[axis]->setEnabled(!spec_.autoGrid);
    }
    autoGrid_->setChecked(spec_.autoGrid);
    shared_->setValue(int(std::min<std::uint32_t>(spec_.sharedBytes, INT_MAX)));
    showing_ = false;
    refresh();
}

void LaunchPanel::refresh() {
    const auto launch = geometry();
    problems_.clear();
    if (spec_.autoGrid && shape_.empty())
        problems_ << tr(
            "launch.grid: \"auto\" sizes the grid to the first array argument, but this kernel takes no "
            "array: untick auto and give the grid size");
    const auto staticShared = std::uint64_t(attributes_ ? std::max(attributes_->staticSharedBytes, 0) : 0);
    const auto kernelMaxThreads =
        std::uint32_t(attributes_ ? std::max(attributes_->maxThreadsPerBlock, 0) : 0);
    for (const auto& problem : kp::launch::validate(launch, limits_, staticShared, kernelMaxThreads,
                                                    attributes_ ? attributes_->registersPerThread : 0))
        problems_ << QString::fromStdString(problem);
    problemsLabel_->setText(inStudentWords(problems_.join(QLatin1Char('\n'))));
    problemsLabel_->setVisible(!problems_.isEmpty());
    markProblemFields();
    totalsLabel_->setText(totalsText());
    occupancyLabel_->setText(occupancyText());
    // A grid-stride loop runs over the flattened array: drawn as one strip that the loop wraps around.
    // A grid sized for k elements a thread is drawn as one cell per k elements, to scale.
    const kp::model::Shape shape = laidOver() ? laidOver()->shape : kp::model::Shape{};
    const std::uint32_t perThread = gridStride_ ? 1 : kp::run::elementsPerThread(shape, launch);
    drawing_->setLaunch(gridStride_ && !shape.empty()
                            ? kp::model::Shape{kp::run::strideCoverageOf(shape, launch).elements}
                        : perThread > 1 ? kp::model::Shape{(shape[0] + perThread - 1) / perThread}
                                        : shape,
                        launch, gridStride_);
    idleLabel_->setText(idleText());
}

void LaunchPanel::markProblemFields() {
    // validate() names the field by its JSON path and the axis when one axis is at fault ("launch.block:
    // x = 2048 ...", "launch.grid: the y dimension is 0 ..."); a whole-block problem marks all three.
    static const QRegularExpression named(
        QStringLiteral("^launch\\.(block|grid|shared_bytes): (?:the )?([xyz](?= =| dimension))?"));
    std::array<bool, 3> blockMarked{}, gridMarked{};
    bool sharedMarked = false;
    for (const QString& problem : problems_) {
        const auto match = named.match(problem);
        if (!match.hasMatch()) continue;
        const QString field = match.captured(1);
        if (field == QLatin1String("shared_bytes")) {
            sharedMarked = true;
            continue;
        }
        auto& marked = field == QLatin1String("block") ? blockMarked : gridMarked;
        const QString axis = match.captured(2);
        if (axis.isEmpty())
            marked = {true, true, true};
        else
            marked[std::size_t(axis.at(0).unicode() - u'x')] = true;
    }
    const auto mark = [](QSpinBox* field, bool on) {
        field->setProperty("problem", on);
        field->findChild<ProblemFrame*>(QString(), Qt::FindDirectChildrenOnly)->setVisible(on);
    };
    for (std::size_t axis = 0; axis < 3; ++axis) {
        mark(block_[axis], blockMarked[axis]);
        mark(grid_[axis], gridMarked[axis]);
    }
    mark(shared_, sharedMarked);
}

QString LaunchPanel::totalsText() const {
    const auto launch = geometry();
    const std::uint64_t warpSize = device_ && device_->warpSize > 0 ? std::uint64_t(device_->warpSize) : 32;
    const std::uint64_t threadsPerBlock = launch.threadsPerBlock();
    const std::uint64_t warpsPerBlock = (threadsPerBlock + warpSize - 1) / warpSize;
    return tr("%1 = %2 per block; %3, %4, %5 in all")
        .arg(counted(threadsPerBlock, tr("thread"), tr("threads")),
             counted(warpsPerBlock, tr("warp"), tr("warps")),
             counted(launch.blocks(), tr("block"), tr("blocks")),
             counted(times(launch.blocks(), threadsPerBlock), tr("thread"), tr("threads")),
             counted(times(launch.blocks(), warpsPerBlock), tr("warp"), tr("warps")));
}

QString LaunchPanel::occupancyText() const {
    if (!device_) return tr("Occupancy: applies only when the kernel runs on a GPU");
    if (!attributes_)
        return tr("Occupancy on %1: known once the kernel is compiled")
            .arg(QString::fromStdString(device_->name));
    try {
        const auto e = kp::run::estimateOccupancy(*device_, attributes_->registersPerThread,
                                                  std::uint64_t(std::max(attributes_->staticSharedBytes, 0)),
                                                  spec_.sharedBytes, geometry().threadsPerBlock());
        const QString reason = QString::fromStdString(e.reason);
        if (e.activeBlocksPerMultiprocessor == 0)
            return tr("Occupancy 0%: not one block fits on an SM; %1").arg(reason);
        const int blocks = e.activeBlocksPerMultiprocessor;
        return tr("Occupancy %1: %2 of %3 warps, %4 per SM; limited by %5")
            .arg(percent(e.ratio(), 0))
            .arg(e.activeWarpsPerMultiprocessor)
            .arg(e.maxWarpsPerMultiprocessor)
            .arg(counted(std::uint64_t(blocks), tr("block"), tr("blocks")), reason);
    } catch (const std::exception& error) {
        return tr("Occupancy: %1").arg(QString::fromUtf8(error.what()));
    }
}

QString LaunchPanel::idleText() const {
    const DataArray* array = laidOver();
    if (!array || array->shape.empty()) return {};
    // Named where there is a choice: the student sees which array the picture is about.
    const QString over =
        arrays_.size() > 1 && !array->name.isEmpty() ? tr("Over %1: ").arg(array->name) : QString();
    const kp::model::Shape& shape = array->shape;
    if (gridStride_) {
        const auto c = kp::run::strideCoverageOf(shape, geometry());
        const QString threads = counted(c.threads, tr("thread"), tr("threads"));
        const QString elements = counted(c.elements, tr("element"), tr("elements"));
        QString text =
            c.elements <= c.threads
                ? tr("The kernel reads gridDim: a grid-stride loop, so its %1 reach all %2 in one turn")
                      .arg(threads, elements)
                : tr("The kernel reads gridDim: a grid-stride loop, so its %1 reach all %2, about %3 each")
                      .arg(threads, elements,
                           QLocale().toString(qulonglong((c.elements + c.busy / 2) / c.busy)));
        if (c.idle > 0)
            text +=
                tr("; %1 (%2)")
                    .arg(counted(c.idle, tr("idle thread"), tr("idle threads")), percent(c.idleRatio(), 1));
        return over + text;
    }
    if (const std::uint32_t k = kp::run::elementsPerThread(shape, geometry()); k > 1) {
        const kp::model::Shape groups{(shape[0] + k - 1) / k};
        const auto c = kp::run::coverageOf(groups, geometry());
        return over + tr("The grid has one thread for every %1 elements: if each thread takes %1, all %2 "
                         "are reached; %3 (%4)")
                          .arg(k)
                          .arg(counted(shape[0], tr("element"), tr("elements")),
                               counted(c.idle, tr("idle thread"), tr("idle threads")),
                               percent(c.idleRatio(), 1));
    }
    const auto coverage = kp::run::coverageOf(shape, geometry());
    QString text = tr("%1 (%2)").arg(counted(coverage.idle, tr("idle thread"), tr("idle threads")),
                                     percent(coverage.idleRatio(), 1));
    if (coverage.uncovered > 0)
        text += tr("; %1 (%2) past the grid: no thread reaches them")
                    .arg(counted(coverage.uncovered, tr("element"), tr("elements")),
                         percent(coverage.uncoveredRatio(), 1));
    return over + text;
}
