// The runs of a session as a table: time of day, backend, kernel, median kernel time, total time and the
// change against the previous run of the same kernel ("3.0x faster"). The timings view shows it and
// plots it; it keeps the newest `capacity` runs and writes them as CSV.
#pragma once

#include "core/run/Timing.h"

#include <QAbstractTableModel>
#include <QTime>
#include <deque>

class TimingHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The change next to the time it compares; the long backend name last.
    enum Column { Number, Time, Kernel, KernelMs, Change, TotalMs, Label, Backend, ColumnCount };
    static constexpr int kDefaultCapacity = 200;

    struct Run {
        int number = 0; // counts every run of the session, so it stays the same as old runs drop off
        QTime time;
        QString label;
        kp::run::RunTimings timings;
        QString change; // against the previous run of the same kernel; empty for the first
    };

    explicit TimingHistoryModel(QObject* parent = nullptr, int capacity = kDefaultCapacity);

    // Appends a run, dropping the oldest when full; returns the run as stored.
    const Run& add(kp::run::RunTimings timings, const QString& label, QTime time = QTime::currentTime());
    void clear();
    const Run& run(int row) const { return runs_.at(static_cast<std::size_t>(row)); }
    int capacity() const { return capacity_; }
    // A header line, then one line per run, oldest first; times in ms.
    QString toCsv() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString changeFor(const kp::run::RunTimings& timings) const;
    QVariant display(const Run& run, int column) const;
    std::deque<Run> runs_;
    int capacity_;
    int nextNumber_ = 1;
};
