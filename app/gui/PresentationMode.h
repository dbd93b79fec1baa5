// View ▸ Presentation Mode (F11) for a main window: large fonts everywhere, high contrast and full
// screen, for a classroom; leaving it gives back the window and the dock sizes as they were.
// MainWindow puts its action in the View menu and asks it for the geometry to remember on closing.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QRect>
#include <QSize>
#include <functional>

class QAction;
class QMainWindow;

class PresentationMode : public QObject {
    Q_OBJECT
public:
    // `arrange` lays the window's docks out for a screen of the size given, presentation's text in place.
    PresentationMode(QMainWindow* window, std::function<void(QSize)> arrange);

    QAction* action() const { return action_; } // checkable, F11
    void set(bool on);
    // The window's own geometry: the one before presentation's full screen while it is on (the window
    // manager undoes the full screen only later).
    QByteArray windowGeometry() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void restoreDocks();

    QMainWindow* window_;
    std::function<void(QSize)> arrange_;
    QAction* action_;
    Qt::WindowStates stateBefore_ = Qt::WindowNoState;
    QByteArray geometryBefore_;
    QRect rectBefore_;
    QByteArray docksBefore_;
    bool restoreDocksOnResize_ = false;
};
