// View ▸ Presentation Mode (F11) for a main window: large fonts everywhere, high contrast and full
// screen, for a classroom; leaving it gives back the window and the dock sizes as they were.
// MainWindow puts its action in the View menu and asks it for the geometry to remember on closing.
#pragma once

#include <QByteArray>
#include <QObject>

class QAction;
class QMainWindow;

class PresentationMode : public QObject {
    Q_OBJECT
public:
    explicit PresentationMode(QMainWindow* window);

    QAction* action() const { return action_; } // checkable, F11
    void set(bool on);
    // The window's own geometry: the one before presentation's full screen while it is on (the window
    // manager undoes the full screen only later).
    QByteArray windowGeometry() const;

private:
    void makeRoomForTheCode();

    QMainWindow* window_;
    QAction* action_;
    Qt::WindowStates stateBefore_ = Qt::WindowNoState;
    QByteArray geometryBefore_;
    QByteArray docksBefore_;
};
