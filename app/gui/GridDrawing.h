// A small picture of a launch's grid of blocks laid over its data (x along the last dimension, y along
// the one before): the part of each block over the data, the idle threads past its end, and the data no
// block reaches. The launch panel shows it; the arithmetic is run::coverageOf and run::drawnBlocks.
#pragma once

#include "core/launch/LaunchGeometry.h"
#include "core/model/Array.h"

#include <QWidget>

class QPainter;

class GridDrawing : public QWidget {
    Q_OBJECT
public:
    explicit GridDrawing(QWidget* parent = nullptr);

    // An empty shape: no array to draw over, and the drawing says so. With `gridStride`, the data past
    // the grid is drawn as reached by the loop's later turns rather than as data no thread reaches.
    void setLaunch(const kp::model::Shape& shape, const kp::launch::LaunchGeometry& geometry,
                   bool gridStride = false);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Colours, shared with the legend and the tests.
    static QColor busyColour();
    static QColor idleColour();
    static QColor uncoveredColour();
    static QColor strideColour();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void paintLegend(QPainter& painter, const QRect& area, bool withUncovered) const;
    QColor pastGridColour() const { return gridStride_ ? strideColour() : uncoveredColour(); }
    kp::model::Shape shape_;
    kp::launch::LaunchGeometry geometry_;
    bool gridStride_ = false;
};
