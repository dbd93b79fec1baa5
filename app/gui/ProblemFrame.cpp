#include "ProblemFrame.h"

#include <QEvent>
#include <QPainter>

ProblemFrame::ProblemFrame(QWidget* field) : QWidget(field) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    setGeometry(field->rect());
    field->installEventFilter(this);
    hide();
}

bool ProblemFrame::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parent() && event->type() == QEvent::Resize) {
        setGeometry(parentWidget()->rect());
        raise(); // above the field's own children (a spin box's line edit)
    }
    return QWidget::eventFilter(watched, event);
}

void ProblemFrame::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(QColor(0xc6, 0x28, 0x28), 2));
    painter.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 3, 3);
}
