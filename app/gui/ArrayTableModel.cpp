#include "ArrayTableModel.h"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace {

const QColor kMismatchBackground(255, 199, 206);
const QColor kMismatchText(156, 0, 6);
const char* const kComponentNames[] = {"x", "y", "z", "w"};

template <typename T> QString shortest(T value) {
    if (std::isnan(value)) return QStringLiteral("nan");
    if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return QString::fromLatin1(text, end - text);
}

template <typename T> T load(const kp::model::Array& array, std::size_t element, int component) {
    T v;
    std::memcpy(
        &v, array.data() + element * kp::model::byteSize(array.dtype()) + std::size_t(component) * sizeof(T),
        sizeof v);
    return v;
}

// The value as its dtype holds it: 64-bit integers exactly (a double would round them), floats in the
// shortest form that reads back to the same float32 or float64 (0.1, not 0.100000001490116).
QString formatValue(const kp::model::Array& array, std::size_t element, int component) {
    using kp::model::DType;
    switch (kp::model::componentType(array.dtype())) {
    case DType::Int64:
        return QString::number(load<qint64>(array, element, component));
    case DType::UInt64:
        return QString::number(load<quint64>(array, element, component));
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
        return shortest(static_cast<float>(array.value(element, component)));
    case DType::Float64:
        return shortest(array.value(element, component));
    case DType::Bool:
        return array.value(element, component) != 0 ? QStringLiteral("true") : QStringLiteral("false");
    default:
        return QString::number(static_cast<qint64>(array.value(element, component)));
    }
}

} // namespace

ArrayTableModel::ArrayTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ArrayTableModel::setArray(std::shared_ptr<const kp::model::Array> array,
                               std::shared_ptr<const kp::model::Array> reference,
                               kp::run::Tolerance tolerance) {
    beginResetModel();
    array_ = std::move(array);
    const bool comparable =
        array_ && reference && reference->dtype() == array_->dtype() && reference->shape() == array_->shape();
    reference_ = comparable ? std::move(reference) : nullptr;
    tolerance_ = tolerance;
    firstRow_ = firstColumn_ = 0;
    totalRows_ = totalColumns_ = 0;
    components_ = array_ ? kp::model::components(array_->dtype()) : 1;
    if (array_) {
        // Products of dimensions, not the size divided by one: a dimension may be 0.
        const auto& shape = array_->shape();
        const auto lastDimension = static_cast<qint64>(shape.back());
        totalRows_ = static_cast<qint64>(shape.size() == 3 ? shape[0] * shape[1] : shape[0]);
        totalColumns_ = shape.size() == 1 ? components_ : lastDimension * components_;
    }
    endResetModel();
}

int ArrayTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(std::min(totalRows_, kWindowRows));
}

int ArrayTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(std::min(totalColumns_, kWindowColumns));
}

void ArrayTableModel::moveWindow(qint64 row, qint64 column) {
    row = std::clamp<qint64>(row, 0, std::max<qint64>(0, totalRows_ - kWindowRows));
    column = std::clamp<qint64>(column, 0, std::max<qint64>(0, totalColumns_ - kWindowColumns));
    if (row == firstRow_ && column == firstColumn_) return;
    firstRow_ = row;
    firstColumn_ = column;
    if (rowCount() == 0 || columnCount() == 0) return;
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    emit windowMoved();
}

std::pair<qint64, qint64> ArrayTableModel::cellOf(const std::vector<std::size_t>& index,
                                                  int component) const {
    if (!array_ || index.size() != array_->shape().size()) return {-1, -1};
    const auto& shape = array_->shape();
    if (shape.size() == 1) return {static_cast<qint64>(index[0]), component};
    const qint64 row = shape.size() == 2 ? static_cast<qint64>(index[0])
                                         : static_cast<qint64>(index[0] * shape[1] + index[1]);
    return {row, static_cast<qint64>(index.back()) * components_ + component};
}

std::pair<std::size_t, int> ArrayTableModel::elementAt(const QModelIndex& index) const {
    const auto row = static_cast<std::size_t>(firstRow_ + index.row());
    const auto column = static_cast<std::size_t>(firstColumn_ + index.column());
    if (array_->shape().size() == 1) return {row, static_cast<int>(column)};
    const auto components = static_cast<std::size_t>(components_);
    return {row * array_->shape().back() + column / components, static_cast<int>(column % components)};
}

bool ArrayTableModel::differs(std::size_t element, int component) const {
    return reference_ && !kp::run::matches(array_->value(element, component),
                                           reference_->value(element, component), tolerance_);
}

QVariant ArrayTableModel::data(const QModelIndex& index, int role) const {
    if (!array_ || !index.isValid()) return {};
    const auto [element, component] = elementAt(index);
    switch (role) {
    case Qt::DisplayRole:
        return formatValue(*array_, element, component);
    case ValueRole:
        return array_->value(element, component);
    case MismatchRole:
        return differs(element, component);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        return differs(element, component) ? QVariant(QBrush(kMismatchBackground)) : QVariant();
    case Qt::ForegroundRole:
        return differs(element, component) ? QVariant(QBrush(kMismatchText)) : QVariant();
    case Qt::ToolTipRole: {
        if (!differs(element, component)) return {};
        const double diff =
            std::fabs(array_->value(element, component) - reference_->value(element, component));
        return tr("expected %1 (off by %2)")
            .arg(formatValue(*reference_, element, component), shortest(diff));
    }
    default:
        return {};
    }
}

QString ArrayTableModel::rowLabel(qint64 row) const {
    if (!array_ || array_->shape().size() < 3) return QString::number(row);
    const auto d1 = static_cast<qint64>(array_->shape()[1]);
    if (d1 == 0) return QString::number(row);
    return QStringLiteral("[%1, %2]").arg(row / d1).arg(row % d1);
}

QString ArrayTableModel::columnLabel(qint64 column) const {
    if (!array_) return {};
    if (array_->shape().size() == 1)
        return components_ == 1 ? tr("value") : QString::fromLatin1(kComponentNames[column]);
    if (components_ == 1) return QString::number(column);
    return QStringLiteral("%1.%2")
        .arg(column / components_)
        .arg(QLatin1String(kComponentNames[column % components_]));
}

QVariant ArrayTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || !array_) return {};
    return orientation == Qt::Vertical ? rowLabel(firstRow_ + section) : columnLabel(firstColumn_ + section);
}
