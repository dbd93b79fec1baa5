#include "TimingHistoryModel.h"

#include <QColor>
#include <QStringList>

namespace {

QString duration(double ms) {
    return QString::fromStdString(kp::run::formatDuration(ms));
}

// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
QString csvField(QString text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    text.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + text + QLatin1Char('"');
}

} // namespace

TimingHistoryModel::TimingHistoryModel(QObject* parent, int capacity)
    : QAbstractTableModel(parent), capacity_(std::max(1, capacity)) {}

QString TimingHistoryModel::changeFor(const kp::run::RunTimings& timings) const {
    for (auto it = runs_.rbegin(); it != runs_.rend(); ++it)
        if (it->timings.kernel == timings.kernel)
            return QString::fromStdString(kp::run::speedupText(it->timings, timings));
    return {};
}

const TimingHistoryModel::Run& TimingHistoryModel::add(kp::run::RunTimings timings, const QString& label,
                                                       QTime time) {
    // Compared before the oldest drops off: it may be the run this one improves on.
    Run run{nextNumber_++, time, label, std::move(timings), {}};
    run.change = changeFor(run.timings);
    if (static_cast<int>(runs_.size()) >= capacity_) {
        beginRemoveRows({}, 0, 0);
        runs_.pop_front();
        endRemoveRows();
    }
    const int row = static_cast<int>(runs_.size());
    beginInsertRows({}, row, row);
    runs_.push_back(std::move(run));
    endInsertRows();
    return runs_.back();
}

void TimingHistoryModel::clear() {
    beginResetModel();
    runs_.clear();
    endResetModel();
}

int TimingHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int TimingHistoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimingHistoryModel::display(const Run& run, int column) const {
    switch (column) {
    case Number:
        return run.number;
    case Time:
        return run.time.toString(QStringLiteral("HH:mm:ss"));
    case Label:
        return run.label;
    case Backend:
        return QString::fromStdString(run.timings.backend);
    case Kernel:
        return QString::fromStdString(run.timings.kernel);
    case KernelMs:
        return run.timings.kernelMs.empty() ? QStringLiteral("-")
                                            : duration(run.timings.kernelSpread().median);
    case TotalMs:
        return duration(run.timings.totalMs());
    case Change:
        return run.change.isEmpty() ? QStringLiteral("-") : run.change;
    default:
        return {};
    }
}

QVariant TimingHistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Run& r = run(index.row());
    if (role == Qt::DisplayRole) return display(r, index.column());
    if (role == Qt::TextAlignmentRole &&
        (index.column() == Number || index.column() == KernelMs || index.column() == TotalMs))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == Change) {
        if (r.change.endsWith(QLatin1String("faster"))) return QColor(0x1e, 0x7b, 0x1e);
        if (r.change.endsWith(QLatin1String("slower"))) return QColor(0xa0, 0x1c, 0x1c);
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == KernelMs) {
        const auto spread = r.timings.kernelSpread();
        if (spread.count == 1)
            return tr("1 timed run"); // its median, fastest and slowest are the cell's time
        return tr("Median of %L1 timed runs, from %2 to %3")
            .arg(static_cast<qulonglong>(spread.count))
            .arg(duration(spread.min), duration(spread.max));
    }
    return {};
}

QVariant TimingHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Number:
        return tr("Run");
    case Time:
        return tr("Time");
    case Label:
        return tr("Label");
    case Backend:
        return tr("Backend");
    case Kernel:
        return tr("Kernel");
    case KernelMs:
        return tr("Kernel time");
    case TotalMs:
        return tr("Total time");
    case Change:
        return tr("Change");
    default:
        return {};
    }
}

QString TimingHistoryModel::toCsv() const {
    QStringList lines{
        QStringLiteral("run,time,label,backend,kernel,repeats,kernel_median_ms,kernel_min_ms,kernel_max_ms,"
                       "h2d_median_ms,d2h_median_ms,total_ms,change")};
    const auto number = [](double value) { return QString::number(value, 'g', 9); };
    for (const Run& r : runs_) {
        const auto kernel = r.timings.kernelSpread();
        lines << QStringList{QString::number(r.number),
                             r.time.toString(QStringLiteral("HH:mm:ss")),
                             csvField(r.label),
                             csvField(QString::fromStdString(r.timings.backend)),
                             csvField(QString::fromStdString(r.timings.kernel)),
                             QString::number(kernel.count),
                             number(kernel.median),
                             number(kernel.min),
                             number(kernel.max),
                             number(kp::run::spreadOf(r.timings.h2dMs).median),
                             number(kp::run::spreadOf(r.timings.d2hMs).median),
                             number(r.timings.totalMs()),
                             csvField(r.change)}
                     .join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}
