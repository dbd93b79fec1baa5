#include "ActionIcons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <functional>

namespace {

// Colours that stand out on a light and a dark tool bar alike.
const QColor kGo(0x2e, 0xa0, 0x43);
const QColor kHalt(0xd9, 0x3a, 0x3a);

// One pixmap per common size, drawn on a 16-unit square; a disabled icon is the style's greyed version.
QIcon drawn(const std::function<void(QPainter&)>& draw, QIcon::State state = QIcon::Off, QIcon icon = {}) {
    for (int size : {16, 22, 24, 32, 48, 64}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(size / 16.0, size / 16.0);
        draw(painter);
        painter.end();
        icon.addPixmap(pixmap, QIcon::Normal, state);
    }
    return icon;
}

} // namespace

QIcon runIcon(const QPalette& palette) {
    return drawn([&](QPainter& p) {
        QPainterPath triangle;
        triangle.moveTo(4, 2.5);
        triangle.lineTo(13.5, 8);
        triangle.lineTo(4, 13.5);
        triangle.closeSubpath();
        p.setPen(
            QPen(palette.color(QPalette::Window).lightness() < 128 ? kGo.lighter(130) : kGo.darker(130), 1));
        p.setBrush(kGo);
        p.drawPath(triangle);
    });
}

QIcon stopIcon(const QPalette& palette) {
    return drawn([&](QPainter& p) {
        p.setPen(QPen(
            palette.color(QPalette::Window).lightness() < 128 ? kHalt.lighter(130) : kHalt.darker(130), 1));
        p.setBrush(kHalt);
        p.drawRoundedRect(QRectF(3, 3, 10, 10), 1.5, 1.5);
    });
}

QIcon compileIcon(const QPalette& palette) {
    return drawn([&](QPainter& p) {
        const QColor ink = palette.color(QPalette::WindowText);
        p.setPen(QPen(ink, 1.8, Qt::SolidLine, Qt::RoundCap));
        p.setBrush(Qt::NoBrush);
        p.drawArc(QRectF(3, 3, 10, 10), 60 * 16, 280 * 16);
        // The arrow head at the arc's open end.
        QPainterPath head;
        head.moveTo(10.2, 1.6);
        head.lineTo(13.6, 4.2);
        head.lineTo(9.6, 5.6);
        head.closeSubpath();
        p.setPen(Qt::NoPen);
        p.setBrush(ink);
        p.drawPath(head);
    });
}

QIcon checkIcon(const QPalette& palette) {
    const QColor ink = palette.color(QPalette::WindowText);
    const QColor base = palette.color(QPalette::Base);
    const auto box = [&](QPainter& p) {
        p.setPen(QPen(ink, 1.2));
        p.setBrush(base);
        p.drawRoundedRect(QRectF(2.5, 2.5, 11, 11), 1.5, 1.5);
    };
    QIcon icon = drawn(box, QIcon::Off);
    return drawn(
        [&](QPainter& p) {
            box(p);
            p.setPen(QPen(kGo, 2.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
            p.drawPolyline(QPolygonF({QPointF(5, 8.2), QPointF(7.2, 10.5), QPointF(11.2, 5.2)}));
        },
        QIcon::On, icon);
}
