// The Run menu and the Run toolbar: run, stop, compile, sweep, show the compiled code, check bounds on
// the CPU, the time limit, the backend and the repeat count. MainWindow connects the actions to what
// they do and reads settings() when a run starts; the time limit goes straight to the RunController.
#pragma once

#include "RunController.h"

#include <QObject>

class BackendChooser;
class QAction;
class QMainWindow;
class QSpinBox;

class RunActions : public QObject {
    Q_OBJECT
public:
    RunActions(QMainWindow* window, BackendChooser* backends, RunController* runs);

    QAction* run() const { return run_; }
    QAction* stop() const { return stop_; }
    QAction* compile() const { return compile_; }
    QAction* sweep() const { return sweep_; }
    QAction* showCode() const { return showCode_; }
    // The repeat count and bounds checking as the toolbar shows them, for a run of `geometry`.
    RunController::RunSettings settings(const kp::launch::LaunchGeometry& geometry) const;
    void setRunning(bool running);
    void setSweeping(bool sweeping);

    QAction* bounds() const { return bounds_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void askTimeLimit();
    void drawIcons();

    QMainWindow* window_;
    RunController* runs_;
    QSpinBox* repeat_;
    QAction* run_;
    QAction* stop_;
    QAction* compile_;
    QAction* sweep_;
    QAction* showCode_;
    QAction* bounds_;
};
