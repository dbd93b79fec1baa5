#include "RunActions.h"

#include "ActionIcons.h"
#include "BackendChooser.h"
#include "Settings.h"

#include <QAction>
#include <QEvent>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QSpinBox>
#include <QToolBar>
#include <QToolButton>

RunActions::RunActions(QMainWindow* window, BackendChooser* backends, RunController* runs)
    : QObject(window), window_(window), runs_(runs), repeat_(new QSpinBox(window)) {
    repeat_->setRange(1, 1000);
    repeat_->setValue(5);
    repeat_->setPrefix(tr("repeat "));
    repeat_->setToolTip(tr("Timed runs: the timings show their spread"));
    QMenu* menu = window->menuBar()->addMenu(tr("&Run"));
    run_ = menu->addAction(tr("&Run"));
    run_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    run_->setToolTip(tr("Run the kernel (F5, Ctrl+R)"));
    stop_ = menu->addAction(tr("&Stop"));
    stop_->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(Qt::SHIFT | Qt::Key_F5)});
    stop_->setToolTip(tr("Stop the run (Esc, Shift+F5)"));
    compile_ = menu->addAction(tr("&Compile"));
    compile_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    compile_->setToolTip(tr("Compile now (Ctrl+B); it also compiles when you pause typing"));
    sweep_ = menu->addAction(tr("S&weep"));
    sweep_->setShortcut(QKeySequence(Qt::Key_F6));
    sweep_->setToolTip(
        tr("Run the kernel over a range of sizes on each backend and plot GPU against CPU (F6)"));
    showCode_ = menu->addAction(tr("Show Compiled &Code"));
    showCode_->setShortcut(QKeySequence(Qt::Key_F7));
    showCode_->setToolTip(
        tr("The PTX and SASS the kernel compiles to, with each kernel's registers and spills (F7)"));
    menu->addSeparator();
    bounds_ = menu->addAction(tr("Check &Bounds on the CPU"));
    bounds_->setObjectName(QStringLiteral("checkBoundsAction"));
    bounds_->setCheckable(true);
    bounds_->setToolTip(tr("The CPU backend checks every array index and names the thread and line of the "
                           "first out-of-bounds access"));
    // The toolbar's words, without the menu's accelerator: Qt drops the "&" but would keep the "(B)" of
    // "(&B)".
    bounds_->setIconText(tr("Check Bounds on the CPU"));
    menu->addAction(tr("&Time Limit..."), this, &RunActions::askTimeLimit);

    QToolBar* bar = window->addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->addAction(run_);
    bar->addAction(stop_);
    bar->addAction(compile_);
    bar->addSeparator();
    bar->addWidget(backends);
    bar->addWidget(repeat_);
    bar->addAction(bounds_);
    // The bounds check shows its box, ticked or empty, beside its words: on and off both read.
    if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(bounds_)))
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    drawIcons();
    window->installEventFilter(this);
}

void RunActions::drawIcons() {
    const QPalette palette = window_->palette();
    run_->setIcon(runIcon(palette));
    stop_->setIcon(stopIcon(palette));
    compile_->setIcon(compileIcon(palette));
    bounds_->setIcon(checkIcon(palette));
}

// A theme change is a new palette: the icons are drawn again for it.
bool RunActions::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::PaletteChange) drawIcons();
    return QObject::eventFilter(watched, event);
}

RunController::RunSettings RunActions::settings(const kp::launch::LaunchGeometry& geometry) const {
    return {repeat_->value(), bounds_->isChecked(), geometry};
}

void RunActions::setRunning(bool running) {
    run_->setEnabled(!running);
    stop_->setEnabled(running);
}

void RunActions::setSweeping(bool sweeping) {
    sweep_->setText(sweeping ? tr("Stop S&weep") : tr("S&weep"));
}

void RunActions::askTimeLimit() {
    bool ok = false;
    const double seconds =
        QInputDialog::getDouble(window_, tr("Time limit"), tr("Stop a run after this many seconds:"),
                                runs_->timeLimit(), 0.5, 3600, 1, &ok);
    if (!ok) return;
    runs_->setTimeLimit(seconds);
    Settings::setTimeLimitSeconds(seconds);
}
