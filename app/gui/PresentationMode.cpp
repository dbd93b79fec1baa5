#include "PresentationMode.h"

#include "Appearance.h"

#include <QAction>
#include <QCoreApplication>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QMenuBar>
#include <QScreen>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

PresentationMode::PresentationMode(QMainWindow* window, std::function<void(QSize)> arrange)
    : QObject(window), window_(window), arrange_(std::move(arrange)),
      action_(new QAction(tr("&Presentation Mode"), window)) {
    action_->setShortcut(QKeySequence(Qt::Key_F11));
    action_->setCheckable(true);
    action_->setToolTip(tr("Large fonts, high contrast and full screen, for a classroom (F11)"));
    connect(action_, &QAction::toggled, this, &PresentationMode::set);
    window->installEventFilter(this);
}

void PresentationMode::set(bool on) {
    if (on == currentAppearance().presentation) return;
    Appearance appearance = currentAppearance();
    appearance.presentation = on;
    if (on) {
        stateBefore_ = window_->windowState();
        geometryBefore_ = window_->saveGeometry();
        rectBefore_ = window_->geometry();
        docksBefore_ = window_->saveState();
    }
    applyAppearance(appearance);
    const QSignalBlocker quiet(action_);
    action_->setChecked(on);
    if (!on) {
        window_->statusBar()->clearMessage();
        window_->setWindowState(stateBefore_);
        if (!(stateBefore_ & (Qt::WindowMaximized | Qt::WindowFullScreen)))
            window_->setGeometry(rectBefore_); // not restoreGeometry(): it guesses a title bar's height
        window_->restoreState(docksBefore_);
        // Again once the normal text has reached every widget, and once more when the window manager
        // gives the window its size back (see eventFilter()).
        QTimer::singleShot(0, this, &PresentationMode::restoreDocks);
        restoreDocksOnResize_ = true;
        return;
    }
    window_->showFullScreen();
    // The docks are laid out for the whole screen at the larger text: the code keeps its 100 columns.
    arrange_(window_->screen()->geometry().size());
    window_->statusBar()->showMessage(tr("Presentation mode: F11 leaves it"), 5000);
}

// Put back at the window's own size and the normal text's bars: the main window keeps a bar's height
// until the bar's style changes, and docks restored at another size are shared out in proportion.
void PresentationMode::restoreDocks() {
    if (currentAppearance().presentation) return;
    QCoreApplication::sendPostedEvents(); // the normal text's fonts and layouts, not input
    QList<QWidget*> bars = {window_->menuBar(), window_->statusBar()};
    for (auto* bar : window_->findChildren<QToolBar*>())
        bars << bar;
    for (QWidget* bar : bars) {
        QEvent restyled(QEvent::StyleChange);
        QCoreApplication::sendEvent(bar, &restyled);
        bar->updateGeometry();
    }
    window_->layout()->invalidate();
    window_->layout()->activate();
    window_->restoreState(docksBefore_);
}

// The window manager gives the window its size back after full screen, later than set(false).
bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::Resize && restoreDocksOnResize_ &&
        !window_->isFullScreen()) {
        restoreDocksOnResize_ = false;
        QTimer::singleShot(0, this, &PresentationMode::restoreDocks);
    }
    return QObject::eventFilter(watched, event);
}

QByteArray PresentationMode::windowGeometry() const {
    return currentAppearance().presentation ? geometryBefore_ : window_->saveGeometry();
}
