// Where the main window's docks go on a given screen. The code keeps at least 100 columns and 30 lines
// (25 in presentation, at its larger text); what is left is shared out:
// - wide (a 1600-px screen and up): the samples above the lesson in a column on the left, the arguments
//   above the launch on the right;
// - narrow (a 1366×768 laptop, presentation on a projector): the lesson and the samples are tabs beside
//   the arguments, the launch below them.
// A program's steps are a tab beside the launch.
// The side columns take the window's whole height; problems, output, results, timings, sweep and
// compiled code are tabs under the code. MainWindow arranges on its first showing (when no layout of the
// user's was restored), on View ▸ Reset Layout and on entering presentation.
#pragma once

#include <QCoreApplication>
#include <QSize>
#include <initializer_list>
#include <memory>
#include <vector>

class KernelEditor;
class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

class DockLayout {
    Q_DECLARE_TR_FUNCTIONS(DockLayout)
public:
    // The window's panels, each given a dock of its own.
    struct Panels {
        QWidget* samples;
        QWidget* lesson;
        QWidget* arguments;
        QWidget* launch;
        QWidget* steps;
        QWidget* problems;
        QWidget* output;
        QWidget* results;
        QWidget* timings;
        QWidget* sweep;
        QWidget* code;
    };
    // Makes a dock for each panel (named "samplesDock", "launchDock", ...; the tall ones scroll rather than
    // make the window taller than the screen), lists them in `view` and lays them out for the window.
    static std::unique_ptr<DockLayout> build(QMainWindow* window, KernelEditor* editor, const Panels& panels,
                                             QMenu* view);
    // The window's centre: `widgets` top to bottom with no margins (the compile notice, the editor, the
    // find bar).
    static QWidget* column(QWidget* parent, std::initializer_list<QWidget*> widgets);

    struct Docks {
        QDockWidget* samples = nullptr;
        QDockWidget* lesson = nullptr;
        QDockWidget* arguments = nullptr;
        QDockWidget* launch = nullptr;
        QDockWidget* steps = nullptr;     // tabbed with the launch
        std::vector<QDockWidget*> bottom; // tabbed in this order
        QDockWidget* raised = nullptr;    // the bottom tab in front
    };

    DockLayout(QMainWindow* window, KernelEditor* editor, Docks docks);

    // Lays the docks out for a window of `room` (its full size) with `lines` of code in view. Docks the
    // user closed stay closed; floating ones come back in.
    void arrange(QSize room, int lines);
    // Whether `room` gives the samples and the lesson a column of their own.
    bool wide(QSize room) const;
    // A program's steps in front of the launch, with the larger share of the column below the arguments
    // (its tree and its form need the room); a single launch's launch panel in front.
    void showSteps(bool program);
    // The dock that holds `panel`, or nullptr.
    QDockWidget* dockOf(const QWidget* panel) const;

private:
    int chromeHeight() const; // menu bar, tool bars and status bar

    QMainWindow* window_;
    KernelEditor* editor_;
    Docks docks_;
};
