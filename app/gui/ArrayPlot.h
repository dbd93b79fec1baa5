// The plot of one output in the results view: a line over the element index for 1-D arrays (with the
// reference and red markers where they differ), a colour map for 2-D arrays and slices of 3-D ones,
// with zoom (wheel) and pan (drag). QCustomPlot never gets the array itself: a 1-D array is drawn from
// an Envelope sampled for the visible range, a 2-D one from a ColorGrid of at most 1024 x 1024 cells;
// both are prepared in a background thread when the array is large, and swapped in when ready.
#pragma once

#include "ColorGrid.h"
#include "Envelope.h"
#include "core/model/Array.h"
#include "core/run/Check.h"

#include <QWidget>
#include <memory>
#include <optional>

class QCPColorMap;
class QCPColorScale;
class QCPGraph;
class QComboBox;
class QCustomPlot;
class QLabel;
class QSpinBox;
class QThread;

class ArrayPlot : public QWidget {
    Q_OBJECT
public:
    // What the plot draws: a line, bars for counts, a picture of a 2-D array, or one value as a number.
    enum class Drawing { Line, Bars, Picture, OneValue, Nothing };
    Drawing drawing() const {
        if (!array_) return Drawing::Nothing;
        if (isOneValue()) return Drawing::OneValue;
        if (isCounts()) return Drawing::Bars;
        return isLine() ? Drawing::Line : Drawing::Picture;
    }
    // Arrays with at least this many values (per slice for 3-D) are prepared in a background thread;
    // smaller ones at once, within the GUI thread's ~50 ms (2^20 with a reference took 84 ms in a debug
    // build).
    static constexpr std::size_t kBackgroundFrom = std::size_t(1) << 18;
    static constexpr std::size_t kMaxCells = 1024; // colour map cells per direction

    explicit ArrayPlot(QWidget* parent = nullptr);
    ~ArrayPlot() override; // stops a preparation still running

    // `reference`, when given, has the array's dtype and shape (else it is ignored); values that do not
    // kp::run::matches it are marked.
    void setArrays(std::shared_ptr<const kp::model::Array> array,
                   std::shared_ptr<const kp::model::Array> reference = nullptr,
                   kp::run::Tolerance tolerance = {});
    void clear();
    // Which component of a vector type (0 = x) and which slice of a 3-D array are drawn.
    void setComponent(int component);
    void setSlice(int slice);
    int component() const { return component_; }
    int slice() const { return slice_; }
    // Whole array in view.
    void resetZoom();

    // False from setArrays until the plot shows the array: for a large one, until the background
    // preparation is swapped in (in a later event loop turn, never inside setArrays); then ready().
    bool isReady() const { return ready_; }
    QString statusText() const;
    QCustomPlot* customPlot() const { return plot_; }
    // 1-D: null otherwise, and the reference graph without a reference.
    QCPGraph* valuesGraph() const { return values_; }
    QCPGraph* referenceGraph() const { return referenceGraph_; }
    // Markers where the array differs from the reference (null without one): at the values for 1-D,
    // circles around mismatching cells of a colour map (up to 1000 of them).
    QCPGraph* mismatchGraph() const { return mismatchGraph_; }
    // 2-D and 3-D: the values' colour map and the overlay that paints mismatching cells red.
    QCPColorMap* colorMap() const { return colorMap_; }
    QCPColorMap* mismatchMap() const { return mismatchMap_; }

signals:
    void ready();

private:
    struct Prepared;
    struct Job;
    struct Input {
        std::shared_ptr<const kp::model::Array> array, reference;
        kp::run::Tolerance tolerance;
        int component = 0;
        std::size_t slice = 0;
    };
    static std::shared_ptr<Prepared> prepareData(const Input& input, const std::atomic<bool>* cancel);
    void rebuildPlottables();
    void prepare(bool rescale);
    void adopt(const std::shared_ptr<Prepared>& prepared, bool rescale);
    void stopPreparing();
    void resample();
    bool isLine() const { return array_ && array_->shape().size() == 1; }
    bool isOneValue() const { return array_ && array_->size() == 1; }
    // Up to 1024 integers in a row: counts, as a histogram's bins are.
    bool isCounts() const {
        return isLine() && array_->size() <= 1024 && !kp::model::isFloating(array_->dtype()) &&
               array_->dtype() != kp::model::DType::Bool;
    }
    std::size_t valuesToPrepare() const;

    QCustomPlot* plot_;
    QComboBox* componentBox_;
    QSpinBox* sliceBox_;
    QLabel* sliceLabel_;
    QLabel* status_;
    QCPGraph* values_ = nullptr;
    QCPGraph* referenceGraph_ = nullptr;
    QCPGraph* mismatchGraph_ = nullptr;
    QCPColorMap* colorMap_ = nullptr;
    QCPColorMap* mismatchMap_ = nullptr;
    QCPColorScale* colorScale_ = nullptr;

    std::shared_ptr<const kp::model::Array> array_, reference_;
    kp::run::Tolerance tolerance_;
    int component_ = 0;
    int slice_ = 0;
    bool ready_ = false;
    std::shared_ptr<Prepared> shown_;
    std::shared_ptr<Job> job_;
    std::unique_ptr<QThread> builder_;
};
