// Tick labels for a time axis whose values are milliseconds, each in the unit a person reads it in:
// "200 ns", "1.50 µs", "3 ms" rather than "0.0002" or "2e-4". Ticker is QCPAxisTicker or a subclass
// (QCPAxisTickerLog for a logarithmic axis).
#pragma once

#include "core/run/Timing.h"

#include <qcustomplot.h>

template <class Ticker> class DurationTicker : public Ticker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return QString::fromStdString(kp::run::formatDuration(tick));
    }
};
