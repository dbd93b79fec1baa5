#include "PresentationMode.h"

#include "Appearance.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QScreen>
#include <QSignalBlocker>
#include <QStatusBar>

PresentationMode::PresentationMode(QMainWindow* window)
    : QObject(window), window_(window), action_(new QAction(tr("&Presentation Mode"), window)) {
    action_->setShortcut(QKeySequence(Qt::Key_F11));
    action_->setCheckable(true);
    action_->setToolTip(tr("Large fonts, high contrast and full screen, for a classroom (F11)"));
    connect(action_, &QAction::toggled, this, &PresentationMode::set);
}

void PresentationMode::set(bool on) {
    if (on == currentAppearance().presentation) return;
    Appearance appearance = currentAppearance();
    appearance.presentation = on;
    if (on) {
        stateBefore_ = window_->windowState();
        geometryBefore_ = window_->saveGeometry();
        docksBefore_ = window_->saveState();
    }
    applyAppearance(appearance);
    const QSignalBlocker quiet(action_);
    action_->setChecked(on);
    if (!on) {
        window_->centralWidget()->setMinimumWidth(0);
        window_->setWindowState(stateBefore_);
        window_->restoreState(docksBefore_);
        return;
    }
    window_->showFullScreen();
    makeRoomForTheCode();
    window_->statusBar()->showMessage(tr("Presentation mode: F11 leaves it"), 5000);
}

QByteArray PresentationMode::windowGeometry() const {
    return currentAppearance().presentation ? geometryBefore_ : window_->saveGeometry();
}

// Large text makes the panels wide: the code stays the widest thing on the screen, and the samples
// (chosen before the class) make room for it; leaving gives the panels back as they were.
void PresentationMode::makeRoomForTheCode() {
    const QSize screen = window_->screen()->geometry().size();
    window_->centralWidget()->setMinimumWidth(screen.width() * 2 / 5);
    const auto dockNamed = [this](const char* name) {
        return window_->findChild<QDockWidget*>(QLatin1String(name));
    };
    if (auto* samples = dockNamed("samplesDock")) samples->hide();
    if (auto* left = dockNamed("lessonDock"); left && left->isVisible())
        window_->resizeDocks({left}, {screen.width() / 5}, Qt::Horizontal);
    if (auto* right = dockNamed("argumentsDock"); right && right->isVisible())
        window_->resizeDocks({right}, {screen.width() * 3 / 10}, Qt::Horizontal);
    if (auto* bottom = dockNamed("resultsDock"); bottom && bottom->isVisible())
        window_->resizeDocks({bottom}, {screen.height() * 3 / 10}, Qt::Vertical);
}
