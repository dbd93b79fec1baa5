// Keeps a playground's program and the window in step: the Steps panel's edits mark the document changed
// and are planned as you type, off the GUI thread (a loop of a million passes plans for a second); the
// source's kernels reach the launch form; a failed run's step is selected with its message; and "Make it a
// program" turns the single launch into a program's first step. The launch panel is for single launches:
// a program's launches have their grids and blocks in its steps.
#pragma once

#include <QObject>
#include <QPointer>

class LaunchPanel;
class PlaygroundDocument;
class ProgramPanel;
class QDockWidget;
class RunController;

class ProgramController : public QObject {
    Q_OBJECT
public:
    ProgramController(ProgramPanel* panel, PlaygroundDocument* document, RunController* runs,
                      LaunchPanel* launch, QObject* parent);

    // The panels for the document just opened: its program, or the offer to make one.
    void showOpened();
    // Plans the document's program as it stands; the answer reaches the panel (planned() follows).
    void plan();
    // "Make it a program": the single launch becomes the program's first step.
    void makeProgram();

signals:
    void planned(bool ok);
    void becameProgram(bool program); // the playground is a program now (or no longer)

private:
    ProgramPanel* panel_;
    PlaygroundDocument* document_;
    RunController* runs_;
    LaunchPanel* launch_;
    quint64 generation_ = 0; // the newest plan asked for; older answers are dropped
};
