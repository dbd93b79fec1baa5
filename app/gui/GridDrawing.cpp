#include "GridDrawing.h"

#include "core/run/GridCoverage.h"

#include <QPainter>
#include <algorithm>

namespace {

constexpr int kMaxBlocksPerAxis = 64;
constexpr double kMinCell = 6; // smaller cells would be all border: fewer blocks are drawn instead
constexpr int kLegendHeight = 18;
constexpr int kGapWidth = 10; // the summarised blocks between the first ones and the last

// Where the drawn blocks of one axis go along `length` pixels: equal cells, with a gap for the summary.
struct AxisCells {
    std::vector<kp::run::DrawnBlock> blocks;
    std::vector<double> starts; // pixel offset of each drawn block
    double cell = 0;
    double extent = 0; // pixels the drawn blocks and gaps take
};

AxisCells cellsAlong(std::uint64_t extent, std::uint32_t blockDim, std::uint32_t gridDim, double length,
                     double maxCell, double uncoveredCell) {
    AxisCells axis;
    // As many blocks as fit beside the band past the grid, each at least kMinCell wide.
    const auto fitting = static_cast<std::size_t>(
        std::clamp((length - uncoveredCell) / kMinCell, 2.0, double(kMaxBlocksPerAxis)));
    axis.blocks = kp::run::drawnBlocks(extent, blockDim, gridDim, fitting);
    const auto gaps =
        std::count_if(axis.blocks.begin(), axis.blocks.end(), [](const auto& b) { return b.gapBefore; });
    const double available = length - double(gaps) * kGapWidth - uncoveredCell;
    axis.cell = axis.blocks.empty() ? 0 : std::min(maxCell, available / double(axis.blocks.size()));
    double at = 0;
    for (const auto& block : axis.blocks) {
        if (block.gapBefore) at += kGapWidth;
        axis.starts.push_back(at);
        at += axis.cell;
    }
    axis.extent = at;
    return axis;
}

} // namespace

GridDrawing::GridDrawing(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

QColor GridDrawing::busyColour() {
    return QColor(0x4a, 0x86, 0xc8);
}
QColor GridDrawing::idleColour() {
    return QColor(0xe8, 0x8a, 0x2e);
}
QColor GridDrawing::uncoveredColour() {
    return QColor(0xc6, 0x28, 0x28);
}

QColor GridDrawing::strideColour() {
    return QColor(0x9c, 0xc3, 0xec);
}

QSize GridDrawing::sizeHint() const {
    return {360, 150};
}
QSize GridDrawing::minimumSizeHint() const {
    return {160, 80};
}

void GridDrawing::setLaunch(const kp::model::Shape& shape, const kp::launch::LaunchGeometry& geometry,
                            bool gridStride) {
    if (shape == shape_ && geometry == geometry_ && gridStride == gridStride_) return;
    shape_ = shape;
    geometry_ = geometry;
    gridStride_ = gridStride;
    update();
}

void GridDrawing::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QRect area = rect().adjusted(6, 6, -6, -6 - kLegendHeight);
    if (shape_.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                         tr("No array argument: nothing to lay the grid over"));
        return;
    }
    const auto coverage = kp::run::coverageOf(shape_, geometry_);
    const std::uint64_t extentX = kp::run::extentAlong(shape_, 0);
    const std::uint64_t extentY = kp::run::extentAlong(shape_, 1);
    // Data past the grid gets a band on the right (or below), in red, as wide as its share of the data
    // (at least a small cell): a grid that reaches 17% of the data is drawn over 17% of the width.
    const std::uint64_t reachedX = std::uint64_t{geometry_.grid[0]} * geometry_.block[0];
    const std::uint64_t reachedY = std::uint64_t{geometry_.grid[1]} * geometry_.block[1];
    const auto pastShare = [](std::uint64_t reached, std::uint64_t extent) {
        return reached < extent ? double(extent - reached) / double(extent) : 0.0;
    };
    const double pastX =
        pastShare(reachedX, extentX) > 0
            ? std::clamp(area.width() * pastShare(reachedX, extentX), 12.0, area.width() - 48.0)
            : 0.0;
    const double pastY =
        pastShare(reachedY, extentY) > 0
            ? std::clamp(area.height() * pastShare(reachedY, extentY), 8.0, area.height() - 24.0)
            : 0.0;
    const double maxCellHeight = shape_.size() == 1 ? 36.0 : 48.0; // 1D data: a strip, not squares
    // Cells stay small enough for the band to be to scale beside them.
    const auto xs = cellsAlong(extentX, geometry_.block[0], geometry_.grid[0], area.width(),
                               pastX > 0 ? 1e9 : 48.0, pastX);
    const auto ys = cellsAlong(extentY, geometry_.block[1], geometry_.grid[1], area.height(),
                               pastY > 0 ? 1e9 : maxCellHeight, pastY);
    const QPointF origin(area.left() + (area.width() - xs.extent - pastX) / 2.0,
                         area.top() + (area.height() - ys.extent - pastY) / 2.0);

    const QColor border = palette().color(QPalette::WindowText);
    QBrush idle(idleColour(), Qt::BDiagPattern);
    for (std::size_t row = 0; row < ys.blocks.size(); ++row) {
        for (std::size_t column = 0; column < xs.blocks.size(); ++column) {
            const QRectF cell(origin.x() + xs.starts[column], origin.y() + ys.starts[row], xs.cell, ys.cell);
            painter.fillRect(cell, idleColour().lighter(175));
            painter.fillRect(cell, idle);
            // Threads over the data sit at the block's start along each axis.
            const QRectF busy(cell.topLeft(), QSizeF(cell.width() * xs.blocks[column].onData,
                                                     cell.height() * ys.blocks[row].onData));
            painter.fillRect(busy, busyColour());
            painter.setPen(QPen(border, 1));
            painter.drawRect(cell);
        }
    }
    painter.setPen(border);
    for (std::size_t column = 0; column < xs.blocks.size(); ++column)
        if (xs.blocks[column].gapBefore)
            painter.drawText(
                QRectF(origin.x() + xs.starts[column] - kGapWidth, origin.y(), kGapWidth, ys.extent),
                Qt::AlignCenter, QStringLiteral("…"));
    for (std::size_t row = 0; row < ys.blocks.size(); ++row)
        if (ys.blocks[row].gapBefore)
            painter.drawText(
                QRectF(origin.x(), origin.y() + ys.starts[row] - kGapWidth, xs.extent, kGapWidth),
                Qt::AlignCenter, QStringLiteral("⋮"));
    if (pastX > 0)
        painter.fillRect(QRectF(origin.x() + xs.extent, origin.y(), pastX, ys.extent), pastGridColour());
    if (pastY > 0)
        painter.fillRect(QRectF(origin.x(), origin.y() + ys.extent, xs.extent + pastX, pastY),
                         pastGridColour());
    paintLegend(painter,
                QRect(rect().left() + 6, rect().bottom() - kLegendHeight, width() - 12, kLegendHeight),
                coverage.uncovered > 0);
}

void GridDrawing::paintLegend(QPainter& painter, const QRect& area, bool withUncovered) const {
    struct Entry {
        QBrush brush;
        QString text;
    };
    std::vector<Entry> entries{{busyColour(), tr("threads on data")},
                               {QBrush(idleColour(), Qt::BDiagPattern), tr("idle threads")}};
    if (withUncovered)
        entries.push_back(gridStride_ ? Entry{strideColour(), tr("data the loop reaches later")}
                                      : Entry{uncoveredColour(), tr("data no thread reaches")});
    int x = area.left();
    const QFontMetrics metrics(font());
    for (const auto& entry : entries) {
        const QRect swatch(x, area.top() + (area.height() - 10) / 2, 10, 10);
        painter.fillRect(swatch, entry.brush.style() == Qt::SolidPattern ? entry.brush.color()
                                                                         : idleColour().lighter(175));
        painter.fillRect(swatch, entry.brush);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawRect(swatch);
        x += 14;
        painter.drawText(QRect(x, area.top(), metrics.horizontalAdvance(entry.text) + 2, area.height()),
                         Qt::AlignVCenter | Qt::AlignLeft, entry.text);
        x += metrics.horizontalAdvance(entry.text) + 14;
    }
}
