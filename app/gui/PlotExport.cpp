#include "PlotExport.h"

#include "core/io/FileBytes.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>
#include <span>

namespace {

void drawVectorized(QCustomPlot* plot, QPaintDevice* device, QSize size, bool setWindow) {
    QCPPainter painter;
    painter.begin(device);
    if (setWindow) painter.setWindow(QRect(QPoint(0, 0), size)); // the PDF's points onto its 1200 dpi device
    painter.setMode(QCPPainter::pmVectorized);
    plot->toPainter(&painter, size.width(), size.height());
    painter.end();
}

} // namespace

QByteArray renderPlot(QCustomPlot* plot, const QString& format, QSize size, const QString& title) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (format == QLatin1String("png")) {
        plot->toPixmap(size.width(), size.height()).save(&buffer, "PNG");
    } else if (format == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        drawVectorized(plot, &svg, size, false);
    } else if (format == QLatin1String("pdf")) {
        QPdfWriter pdf(&buffer);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("Kernelpad"));
        pdf.setPageLayout(
            QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF()));
        drawVectorized(plot, &pdf, size, true);
    }
    return buffer.data();
}

QSize exportSize(const QCustomPlot* plot, QSize minimum, QSize fallback) {
    return plot->width() >= minimum.width() && plot->height() >= minimum.height() ? plot->size() : fallback;
}

bool exportPlot(QCustomPlot* plot, const QString& path, QSize size, const QString& title, QString* error) {
    const auto fail = [error](const QString& reason) {
        if (error) *error = reason;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix.isEmpty())
        return fail(QCoreApplication::translate(
                        "PlotExport", "Cannot export to %1: it has no extension; choose a file name "
                                      "ending in .png, .svg or .pdf")
                        .arg(path));
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
        return fail(QCoreApplication::translate(
                        "PlotExport", "Cannot export a .%1 file: choose a file name ending in .png, "
                                      ".svg or .pdf")
                        .arg(suffix));
    const QByteArray bytes = renderPlot(plot, suffix, size, title);
    try {
        if (bytes.isEmpty())
            throw std::runtime_error(
                QCoreApplication::translate("PlotExport", "the plot could not be drawn").toStdString());
        kp::io::writeFileAtomically(path.toStdString(),
                                    std::as_bytes(std::span(bytes.constData(), std::size_t(bytes.size()))));
    } catch (const std::exception& e) {
        return fail(QCoreApplication::translate("PlotExport", "Could not write %1: %2")
                        .arg(path, QString::fromUtf8(e.what())));
    }
    return true;
}
