// Kernelpad's main window: wiring only. The editor in the middle; arguments and launch beside it;
// problems, output, results and timings below; samples and the lesson on the left. Compiles as you type and
// runs through the worker (RunController), so the GUI thread never waits for a compiler or a kernel; the
// playground's files are PlaygroundDocument's. The panels hold their own logic; MainWindow connects them.
#pragma once

#include "Appearance.h"
#include "CompileNotice.h"
#include "OutputLog.h"
#include "PlaygroundDocument.h"
#include "PresentationMode.h"
#include "RecoveryOffer.h"
#include "RunActions.h"
#include "RunController.h"
#include "ThemeMenu.h"
#include "core/model/Playground.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QTimer>
#include <functional>
#include <memory>

class ArgumentPanel;
class BackendChooser;
class CompiledCodeView;
class DockLayout;
class FindBar;
class HelpDialog;
class KernelEditor;
class LaunchPanel;
class LessonView;
class ProblemsView;
class ProgramController;
class ProgramPanel;
class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class ResultsView;
class SamplesBrowser;
class SweepView;
class TimingsView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    using RecoveryQuestion = RecoveryOffer::Question;
    using UnsandboxedAnswer = RunController::UnsandboxedAnswer;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    PlaygroundDocument* document() const { return document_; }
    RunController* runs() const { return runs_; }

    // Shows a playground (*.kpad.json, its kernel source) or a .cu file; false with a message on failure.
    // Only regular files are read (a FIFO or a device is refused at once, saying so).
    bool openFile(const QString& path);
    // Saves to the current file (Save As when there is none); false when it was not saved.
    bool save() { return document_->save(); }
    // Writes the playground to `path`, or only the kernel's text when `path` names a CUDA source (.cu,
    // .cuh). Any other name saves a playground, its name ending in .kpad.json. A playground that names
    // its source is written with it as a pair: both or neither. Existing files this window did not open
    // or write are replaced only when the overwrite question says yes. Links are followed, permissions
    // kept; a failed save leaves the old files as they were and says why. False when nothing was saved.
    bool saveAs(const QString& path) { return document_->saveTo(path, {}); }
    // Writes the editor's text to `path` atomically. False on failure (the status bar says why).
    bool saveSource(const QString& path) { return document_->saveSource(path); }
    // The playground as the panels show it now: the editor's text as its code, their arguments and launch.
    kp::model::Playground currentPlayground() const { return document_->current(); }

    // Starts a run on the chosen backend (returns false, saying why, when one cannot start: a run in
    // progress, problems in the panels). runFinished() follows; the GUI stays responsive meanwhile.
    bool startRun();
    void stopRun();
    bool running() const { return runs_->running(); }
    // Starts a sweep with the Sweep dock's settings (false, saying why, when one cannot start); rows
    // arrive in the dock as they are measured and sweepFinished() follows. The settings and the results
    // are kept in the playground's "sweep" member.
    bool startSweep();
    void stopSweep() { runs_->stopSweep(); }
    bool sweeping() const { return runs_->sweeping(); }
    // Opens the help window at a page (HelpDialog::Page: guide, shortcuts, lessons); it closes itself.
    HelpDialog* showHelp(int page);
    // Compiles the text now instead of after the typing pause.
    void compileNow();
    bool compiling() const { return runs_->compiling(); }
    // Whether the markers answer the text as it is: no check waits for the typing pause or runs.
    bool markersCurrent() const { return !compileTimer_.isActive() && !compiling(); }

    // The app's start: offers back, one by one, the sessions that did not end normally, and opens `file`
    // (the command line's) whatever is restored; `fallback` (the first start's sample) only when neither
    // gives the window anything to show. A session of `file` is restored over it; other sessions go
    // into this window while it is unused, else each into a window of its own. Returns how many were
    // restored.
    int start(const QString& file, const QString& fallback = {}, const RecoveryQuestion& ask = {}) {
        return RecoveryOffer(*this).start(file, fallback, ask);
    }
    // After a crash or a kill: offers each session that did not end normally, one by one. `ask` decides
    // for each (default: a question box); kept ones stay for the next start. Returns how many were restored.
    int offerRecovery(const RecoveryQuestion& ask) { return start({}, {}, ask); }
    // The same, with yes (restore) or no (discard) for an answer.
    int offerRecovery(const std::function<bool(const RecoveredSession&)>& ask = {}) {
        if (!ask) return offerRecovery(RecoveryQuestion{});
        return offerRecovery([&](const RecoveredSession& session) {
            return ask(session) ? RecoveryAnswer::Restore : RecoveryAnswer::Discard;
        });
    }
    // Shows a crashed session here: its whole playground (source, arguments, launch, the rest) and the
    // files it belongs to, marked modified. A session that kept only the text (an older Kernelpad's)
    // comes back into its file's playground as read from disk. The session's file is removed once this
    // window has autosaved it.
    void restore(const RecoveredSession& session) { document_->restore(session); }
    void setAutosaveInterval(int milliseconds) { document_->setAutosaveInterval(milliseconds); }
    // Replaces the "save your changes?" question (tests answer it without a dialog).
    void setSaveQuestion(PlaygroundDocument::SaveQuestion ask) { document_->setSaveQuestion(std::move(ask)); }
    // Replaces "replace this file?", asked before a save replaces a file this window did not open or write.
    void setOverwriteQuestion(PlaygroundDocument::OverwriteQuestion ask) {
        document_->setOverwriteQuestion(std::move(ask));
    }
    void setTimeLimit(double seconds) { runs_->setTimeLimit(seconds); }
    // Where this machine has no sandbox: asked before code from a file the user did not write runs
    // unconfined. Tests answer it without a dialog.
    void setUnsandboxedQuestion(RunController::UnsandboxedQuestion ask) {
        runs_->setUnsandboxedQuestion(std::move(ask));
    }

    KernelEditor* editor() const { return editor_; }
    QLabel* compileNotice() const { return compileNotice_; }
    ProblemsView* problems() const { return problems_; }
    ArgumentPanel* arguments() const { return arguments_; }
    LaunchPanel* launch() const { return launch_; }
    ProgramPanel* steps() const { return steps_; }
    ProgramController* programs() const { return programs_; }
    ResultsView* results() const { return results_; }
    TimingsView* timings() const { return timings_; }
    BackendChooser* backends() const { return backends_; }
    SamplesBrowser* samples() const { return samples_; }
    LessonView* lesson() const { return lesson_; }
    SweepView* sweep() const { return sweep_; }
    // The open playground's file, empty for a lone .cu file or a new playground.
    QString playgroundPath() const { return document_->playgroundPath(); }
    QPlainTextEdit* output() const { return output_; }
    QAction* runAction() const { return actions_->run(); }
    QAction* stopAction() const { return actions_->stop(); }
    QAction* presentationAction() const { return presentation_->action(); }
    CompiledCodeView* compiledCode() const { return code_; }
    // Run ▸ Show Compiled Code (F7): the Compiled Code dock, compiling the kernel for its architecture.
    void showCompiledCode();
    bool compilingCode() const { return runs_->compilingCode(); }
    QAction* themeAction(Theme theme) const { return theme_->action(theme); }

    // View ▸ Theme: the editor, the panels and the plots in light or dark; remembered in the settings.
    void setTheme(Theme theme) { theme_->choose(theme); }
    // View ▸ Presentation Mode (F11): large fonts everywhere, high contrast and full screen, for a
    // classroom; leaving it gives back the window and the sizes as they were.
    void setPresentation(bool on) { presentation_->set(on); }
    const RecoveryStore& recovery() const { return document_->recovery(); }
    QString currentFile() const { return document_->currentFile(); }
    bool isModified() const { return document_->isModified(); }

    // Lays the docks out afresh for the window's size (View ▸ Reset Layout); see DockLayout.
    void resetLayout();
    // Takes over what `previous` shows, for a window built anew in another language: its playground
    // (saved or not, with its autosave), geometry and docks, backend, time limit, results, timings and
    // presentation mode. `previous` is left empty, to be deleted.
    void takeOver(MainWindow& previous);

signals:
    // View ▸ Language chose `code` (stored already): the window is to be built anew in it (WindowHost).
    void languageSwitchRequested(const QString& code);
    void runFinished(bool ok);
    void sweepFinished(bool ok);
    void compileFinished();
    void compiledCodeShown(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void createActions();
    void createDocks();
    void connectPanels();
    void connectRuns();
    void raiseDock(const char* name);
    void showArraysInLaunch(); // the arguments' arrays, for "auto" and the launch drawing
    void showPlayground();     // the document's, just opened, in the editor and the panels
    void showRun(const std::shared_ptr<RunController::Ran>& run);
    void updateTitle();
    void updateRunState();

    KernelEditor* editor_;
    CompileNotice* compileNotice_;
    FindBar* findBar_;
    ProblemsView* problems_;
    ArgumentPanel* arguments_;
    LaunchPanel* launch_;
    ProgramPanel* steps_;
    ResultsView* results_;
    TimingsView* timings_;
    SamplesBrowser* samples_;
    LessonView* lesson_;
    SweepView* sweep_;
    OutputLog* output_;
    BackendChooser* backends_;
    QLabel* state_;
    QProgressBar* busy_;
    CompiledCodeView* code_;
    PlaygroundDocument* document_;
    RunController* runs_;
    ProgramController* programs_;
    PresentationMode* presentation_;
    RunActions* actions_ = nullptr;
    ThemeMenu* theme_ = nullptr;
    QDockWidget* codeDock_ = nullptr;
    std::unique_ptr<DockLayout> layout_;
    bool laidOut_ = false; // by the user's remembered layout, or on the first showing
    QTimer compileTimer_;
};
