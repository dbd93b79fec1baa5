// Plots as pictures, one way for every view (results, timings, sweeps): .png, .svg or .pdf by the file's
// extension, vector formats kept as vectors, written atomically so a failed export leaves no half file.
#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>

class QCustomPlot;

// The plot as the bytes of a "png", "svg" or "pdf" file drawn at `size`; empty for another format.
QByteArray renderPlot(QCustomPlot* plot, const QString& format, QSize size, const QString& title);

// The size to export at: the plot's own once it is laid out at least `minimum`, else `fallback` (a plot
// in a tab never shown has no size of its own).
QSize exportSize(const QCustomPlot* plot, QSize minimum, QSize fallback);

// Writes the plot to `path`; false with the reason in `error` (no or another extension, a folder that
// cannot be written).
bool exportPlot(QCustomPlot* plot, const QString& path, QSize size, const QString& title, QString* error);
