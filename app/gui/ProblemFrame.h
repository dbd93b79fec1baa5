// A red frame over a field that a problem names, drawn by a child of the field so that it looks the same
// in every widget style (a style sheet border replaces a spin box's native frame and buttons). The launch
// panel gives each of its spin boxes one and shows it while validation names that field.
#pragma once

#include <QWidget>

class ProblemFrame : public QWidget {
    Q_OBJECT
public:
    // Hidden until shown; follows `field`'s size.
    explicit ProblemFrame(QWidget* field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
};
