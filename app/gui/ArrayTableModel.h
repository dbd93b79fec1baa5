// One output array as a table for the results view: cells computed from the array when the view asks
// (nothing is stored per element), cells that differ from the reference highlighted with what was
// expected. Big arrays are seen through a window of at most kWindowRows x kWindowColumns cells that
// the view moves: QHeaderView keeps data per section and int pixel offsets, and takes minutes on 100M rows.
#pragma once

#include "core/model/Array.h"
#include "core/run/Check.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

class ArrayTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr qint64 kWindowRows = 100'000;
    static constexpr qint64 kWindowColumns = 10'000;
    enum Role {
        ValueRole = Qt::UserRole, // the cell's value as double
        MismatchRole,             // bool: differs from the reference beyond the tolerance
    };

    explicit ArrayTableModel(QObject* parent = nullptr);
    // Layout: 1-D, a row per element and a column per component; 2-D, the array's rows and columns;
    // 3-D (d0, d1, d2), a row per (i, j) labelled "[i, j]" and d2 columns. Vector types have a column
    // per component ("3.x", "3.y"). `reference` is used when it has the array's dtype and shape.
    void setArray(std::shared_ptr<const kp::model::Array> array,
                  std::shared_ptr<const kp::model::Array> reference = nullptr,
                  kp::run::Tolerance tolerance = {});
    const kp::model::Array* array() const { return array_.get(); }
    bool hasReference() const { return reference_ != nullptr; }

    // The whole table, of which the window (rowCount() x columnCount() from firstRow(), firstColumn())
    // is what views see.
    qint64 totalRows() const { return totalRows_; }
    qint64 totalColumns() const { return totalColumns_; }
    qint64 firstRow() const { return firstRow_; }
    qint64 firstColumn() const { return firstColumn_; }
    bool isWindowed() const { return totalRows_ > kWindowRows || totalColumns_ > kWindowColumns; }
    // Puts the window's top-left corner at (row, column), clamped so that the window stays full. The
    // window keeps its size, so views only repaint: no rows are inserted or removed.
    void moveWindow(qint64 row, qint64 column);
    // The table cell (row, column) of the element at `index` (one index per dimension) and `component`.
    std::pair<qint64, qint64> cellOf(const std::vector<std::size_t>& index, int component = 0) const;
    // The element (flat, row-major) and component shown in window cell `index`.
    std::pair<std::size_t, int> elementAt(const QModelIndex& index) const;
    // "[i, j]" or "12": the label of table row `row`.
    QString rowLabel(qint64 row) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void windowMoved();

private:
    QString columnLabel(qint64 column) const;
    bool differs(std::size_t element, int component) const;
    std::shared_ptr<const kp::model::Array> array_, reference_;
    kp::run::Tolerance tolerance_;
    int components_ = 1;
    qint64 totalRows_ = 0, totalColumns_ = 0;
    qint64 firstRow_ = 0, firstColumn_ = 0;
};
