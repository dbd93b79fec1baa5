#include "PlotAppearance.h"

#include "Appearance.h"

#include <QSet>
#include <qcustomplot.h>
#include <tuple>
#include <vector>

namespace {

// Gives a part's property its themed value. The value the code set (the design) is kept on the part
// next to the value given; a current value that differs from the one given was set by the code since,
// and becomes the new design.
template <typename T, typename Set, typename Map>
void follow(QObject* part, const char* name, const T& now, Set set, Map map) {
    const QByteArray designKey = QByteArrayLiteral("kpDesign.") + name;
    const QByteArray appliedKey = QByteArrayLiteral("kpApplied.") + name;
    const QVariant applied = part->property(appliedKey.constData());
    const T design = applied.isValid() && applied.value<T>() == now
                         ? part->property(designKey.constData()).value<T>()
                         : now;
    const T value = map(design);
    part->setProperty(designKey.constData(), QVariant::fromValue(design));
    part->setProperty(appliedKey.constData(), QVariant::fromValue(value));
    if (!(value == now)) set(value);
}

struct Themer {
    const Appearance& appearance;
    QColor background;

    QFont font(const QFont& designed) const {
        QFont f = designed;
        if (designed.pointSizeF() > 0) f.setPointSizeF(designed.pointSizeF() * appearance.fontScale());
        return f;
    }
    QColor text(const QColor& designed) const { return adaptForeground(designed, background, appearance); }
    QPen line(const QPen& designed) const {
        QPen pen = designed;
        pen.setColor(text(designed.color()));
        return pen;
    }
    // Data lines are thicker in presentation mode: they are read from the back of a room.
    QPen dataLine(const QPen& designed) const {
        QPen pen = line(designed);
        if (appearance.presentation && designed.style() != Qt::NoPen)
            pen.setWidthF(std::max(1.0, designed.widthF()) * 1.5);
        return pen;
    }
    QPen subtleLine(const QPen& designed) const {
        QPen pen = designed;
        pen.setColor(adaptBackground(designed.color(), appearance));
        return pen;
    }
    QBrush fill(const QBrush& designed) const {
        QBrush brush = designed;
        if (designed.style() == Qt::SolidPattern)
            brush.setColor(adaptBackground(designed.color(), appearance));
        return brush;
    }
};

void themeAxis(QCPAxis* axis, const Themer& t) {
    follow(
        axis, "basePen", axis->basePen(), [axis](const QPen& p) { axis->setBasePen(p); },
        [&](const QPen& p) { return t.line(p); });
    follow(
        axis, "tickPen", axis->tickPen(), [axis](const QPen& p) { axis->setTickPen(p); },
        [&](const QPen& p) { return t.line(p); });
    follow(
        axis, "subTickPen", axis->subTickPen(), [axis](const QPen& p) { axis->setSubTickPen(p); },
        [&](const QPen& p) { return t.line(p); });
    follow(
        axis, "tickLabelColor", axis->tickLabelColor(),
        [axis](const QColor& c) { axis->setTickLabelColor(c); }, [&](const QColor& c) { return t.text(c); });
    follow(
        axis, "labelColor", axis->labelColor(), [axis](const QColor& c) { axis->setLabelColor(c); },
        [&](const QColor& c) { return t.text(c); });
    follow(
        axis, "labelFont", axis->labelFont(), [axis](const QFont& f) { axis->setLabelFont(f); },
        [&](const QFont& f) { return t.font(f); });
    follow(
        axis, "tickLabelFont", axis->tickLabelFont(), [axis](const QFont& f) { axis->setTickLabelFont(f); },
        [&](const QFont& f) { return t.font(f); });
    QCPGrid* grid = axis->grid();
    follow(
        grid, "pen", grid->pen(), [grid](const QPen& p) { grid->setPen(p); },
        [&](const QPen& p) { return t.subtleLine(p); });
    follow(
        grid, "subGridPen", grid->subGridPen(), [grid](const QPen& p) { grid->setSubGridPen(p); },
        [&](const QPen& p) { return t.subtleLine(p); });
    follow(
        grid, "zeroLinePen", grid->zeroLinePen(), [grid](const QPen& p) { grid->setZeroLinePen(p); },
        [&](const QPen& p) { return t.line(p); });
}

void themeLegend(QCPLegend* legend, const Themer& t) {
    // QCPLegend's setFont and setTextColor pass the value on to every entry: the entries keep theirs,
    // and are themed from them below.
    std::vector<std::tuple<QCPAbstractLegendItem*, QFont, QColor>> entries;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i))
            entries.emplace_back(item, item->font(), item->textColor());
    follow(
        legend, "font", legend->font(), [legend](const QFont& f) { legend->setFont(f); },
        [&](const QFont& f) { return t.font(f); });
    follow(
        legend, "textColor", legend->textColor(), [legend](const QColor& c) { legend->setTextColor(c); },
        [&](const QColor& c) { return t.text(c); });
    for (const auto& [item, font, colour] : entries) {
        item->setFont(font);
        item->setTextColor(colour);
    }
    follow(
        legend, "brush", legend->brush(), [legend](const QBrush& b) { legend->setBrush(b); },
        [&](const QBrush& b) { return t.fill(b); });
    follow(
        legend, "borderPen", legend->borderPen(), [legend](const QPen& p) { legend->setBorderPen(p); },
        [&](const QPen& p) { return t.line(p); });
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = legend->item(i);
        if (!item) continue; // an empty cell of a wrapped legend
        // An item made since the last replot copied the legend's font and colour as shown: it was drawn
        // with the legend's design.
        if (!item->property("kpApplied.font").isValid()) {
            if (item->font() == legend->font())
                item->setFont(legend->property("kpDesign.font").value<QFont>());
            if (item->textColor() == legend->textColor())
                item->setTextColor(legend->property("kpDesign.textColor").value<QColor>());
        }
        follow(
            item, "font", item->font(), [item](const QFont& f) { item->setFont(f); },
            [&](const QFont& f) { return t.font(f); });
        follow(
            item, "textColor", item->textColor(), [item](const QColor& c) { item->setTextColor(c); },
            [&](const QColor& c) { return t.text(c); });
    }
}

void themeText(QCPTextElement* text, const Themer& t) {
    follow(
        text, "font", text->font(), [text](const QFont& f) { text->setFont(f); },
        [&](const QFont& f) { return t.font(f); });
    follow(
        text, "textColor", text->textColor(), [text](const QColor& c) { text->setTextColor(c); },
        [&](const QColor& c) { return t.text(c); });
}

void themeItem(QCPAbstractItem* item, const Themer& t) {
    if (auto* text = qobject_cast<QCPItemText*>(item)) {
        follow(
            text, "brush", text->brush(), [text](const QBrush& b) { text->setBrush(b); },
            [&](const QBrush& b) { return t.fill(b); });
        // A label's text is read on its own box where it has one.
        const QBrush box = text->brush();
        const Themer onBox{t.appearance, box.style() == Qt::SolidPattern && box.color().alpha() > 128
                                             ? box.color()
                                             : t.background};
        follow(
            text, "font", text->font(), [text](const QFont& f) { text->setFont(f); },
            [&](const QFont& f) { return t.font(f); });
        follow(
            text, "color", text->color(), [text](const QColor& c) { text->setColor(c); },
            [&](const QColor& c) { return onBox.text(c); });
        follow(
            text, "pen", text->pen(), [text](const QPen& p) { text->setPen(p); },
            [&](const QPen& p) { return t.line(p); });
    } else if (auto* line = qobject_cast<QCPItemStraightLine*>(item)) {
        follow(
            line, "pen", line->pen(), [line](const QPen& p) { line->setPen(p); },
            [&](const QPen& p) { return t.line(p); });
    } else if (auto* segment = qobject_cast<QCPItemLine*>(item)) {
        follow(
            segment, "pen", segment->pen(), [segment](const QPen& p) { segment->setPen(p); },
            [&](const QPen& p) { return t.line(p); });
    } else if (auto* rect = qobject_cast<QCPItemRect*>(item)) {
        follow(
            rect, "pen", rect->pen(), [rect](const QPen& p) { rect->setPen(p); },
            [&](const QPen& p) { return t.line(p); });
        follow(
            rect, "brush", rect->brush(), [rect](const QBrush& b) { rect->setBrush(b); },
            [&](const QBrush& b) { return t.fill(b); });
    } else if (auto* tracer = qobject_cast<QCPItemTracer*>(item)) {
        follow(
            tracer, "pen", tracer->pen(), [tracer](const QPen& p) { tracer->setPen(p); },
            [&](const QPen& p) { return t.line(p); });
    }
}

void themePlottable(QCPAbstractPlottable* plottable, const Themer& t) {
    follow(
        plottable, "pen", plottable->pen(), [plottable](const QPen& p) { plottable->setPen(p); },
        [&](const QPen& p) { return t.dataLine(p); });
    follow(
        plottable, "brush", plottable->brush(), [plottable](const QBrush& b) { plottable->setBrush(b); },
        [&](const QBrush& b) { return t.fill(b); });
}

} // namespace

void followAppearance(QCustomPlot* plot) {
    // Parts the plot makes later (axes, legends) take the plot's font: the base size, which the
    // appearance scales, never the application's font that presentation has already scaled.
    const QFont base = baseFont();
    plot->setFont(base);
    QFont bold = base;
    bold.setBold(true);
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setLabelFont(base);
        axis->setTickLabelFont(base);
        axis->setSelectedLabelFont(bold);
        axis->setSelectedTickLabelFont(bold);
    }
    plot->legend->setFont(base);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot,
                     [plot] { applyAppearance(plot, currentAppearance()); });
}

void applyAppearance(QCustomPlot* plot, const Appearance& appearance) {
    const Themer t{appearance, adaptBackground(Qt::white, appearance)};
    plot->setBackground(QBrush(t.background));
    QSet<QCPAxis*> axes;
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes())
            axes.insert(axis);
    // Every element, those in the axes' inset layouts included.
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* scale = qobject_cast<QCPColorScale*>(element)) axes.insert(scale->axis());
        if (auto* text = qobject_cast<QCPTextElement*>(element)) themeText(text, t);
        if (auto* legend = qobject_cast<QCPLegend*>(element)) themeLegend(legend, t);
    }
    for (QCPAxis* axis : axes)
        themeAxis(axis, t);
    for (int i = 0; i < plot->plottableCount(); ++i)
        themePlottable(plot->plottable(i), t);
    for (int i = 0; i < plot->itemCount(); ++i)
        themeItem(plot->item(i), t);
}
