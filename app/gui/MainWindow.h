// Kernelpad's main window: wiring only. The editor in the middle; arguments and launch beside it;
// problems, output, results and timings below; samples and the lesson on the left. Compiles as you type and runs
// through the worker (WorkerTask), so the GUI thread never waits for a compiler or a kernel; the
// panels hold their own logic and MainWindow moves values between them and the playground.
#pragma once

#include "Appearance.h"
#include "RecoveryStore.h"
#include "TrustedFiles.h"
#include "WorkerTask.h"

#include "core/model/Playground.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QTimer>
#include <functional>
#include <optional>

class ArgumentPanel;
class BackendChooser;
class CompiledCodeView;
class HelpDialog;
class KernelEditor;
class LaunchPanel;
class LessonView;
class ProblemsView;
class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;
class ResultsView;
class SamplesBrowser;
class SweepView;
class TimingsView;

// What a person answers when a crashed session is offered back.
enum class RecoveryAnswer {
    Restore, // into a window: the whole playground, modified and not saved
    Keep,    // left in the recovery folder: offered again at the next start
    Discard, // removed for good
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    using RecoveryQuestion = std::function<RecoveryAnswer(const RecoveredSession&)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows a playground (*.kpad.json, its kernel source) or a .cu file; false with a message on failure.
    // Only regular files are read (a FIFO or a device is refused at once, saying so).
    bool openFile(const QString& path);
    // Saves to the current file (Save As when there is none); false when it was not saved.
    bool save();
    // Writes the playground to `path`, or only the kernel's text when `path` names a CUDA source (.cu,
    // .cuh). Any other name saves a playground, its name ending in .kpad.json. A playground that names
    // its source is written with it as a pair: both or neither. Existing files this window did not open
    // or write are replaced only when the overwrite question says yes. Links are followed, permissions
    // kept; a failed save leaves the old files as they were and says why. False when nothing was saved.
    bool saveAs(const QString& path);
    // Writes the editor's text to `path` atomically. False on failure (the status bar says why).
    bool saveSource(const QString& path);
    // The playground as the panels show it now: the editor's text as its code, their arguments and launch.
    kp::model::Playground currentPlayground() const;

    // Starts a run on the chosen backend (returns false, saying why, when one cannot start: a run in
    // progress, problems in the panels). runFinished() follows; the GUI stays responsive meanwhile.
    bool startRun();
    void stopRun();
    bool running() const { return runId_ != 0; }
    // Starts a sweep with the Sweep dock's settings (false, saying why, when one cannot start); rows
    // arrive in the dock as they are measured and sweepFinished() follows. The settings and the results
    // are kept in the playground's "sweep" member.
    bool startSweep();
    void stopSweep();
    bool sweeping() const { return sweepId_ != 0; }
    // Opens the help window at a page (HelpDialog::Page: guide, shortcuts, lessons); it closes itself.
    HelpDialog* showHelp(int page);
    // Compiles the text now instead of after the typing pause.
    void compileNow();
    bool compiling() const { return inspectId_ != 0; }

    // The app's start: offers back, one by one, the sessions that did not end normally, and opens `file`
    // (the command line's) whatever is restored; `fallback` (the first start's sample) only when neither
    // gives the window anything to show. A session of `file` is restored over it; other sessions go
    // into this window while it is unused, else each into a window of its own. Returns how many were
    // restored.
    int start(const QString& file, const QString& fallback = {}, const RecoveryQuestion& ask = {});
    // After a crash or a kill: offers each session that did not end normally, one by one. `ask` decides
    // for each (default: a question box); kept ones stay for the next start. Returns how many were restored.
    int offerRecovery(const RecoveryQuestion& ask);
    // The same, with yes (restore) or no (discard) for an answer.
    int offerRecovery(const std::function<bool(const RecoveredSession&)>& ask = {});
    // Shows a crashed session here: its whole playground (source, arguments, launch, the rest) and the
    // files it belongs to, marked modified. A session that kept only the text (an older Kernelpad's)
    // comes back into its file's playground as read from disk. The session's file is removed once this
    // window has autosaved it.
    void restore(const RecoveredSession& session);
    void setAutosaveInterval(int milliseconds) { autosave_.setInterval(milliseconds); }
    // Replaces the "save your changes?" question (tests answer it without a dialog).
    void setSaveQuestion(std::function<QMessageBox::StandardButton()> ask) { askSave_ = std::move(ask); }
    // Replaces "replace this file?", asked before a save replaces a file this window did not open or write.
    void setOverwriteQuestion(std::function<bool(const QString& path)> ask) {
        askOverwrite_ = std::move(ask);
    }
    void setTimeLimit(double seconds) { timeLimitSeconds_ = seconds; }
    // Where this machine has no sandbox: asked before code from a file the user did not write runs
    // unconfined. Tests answer it without a dialog.
    enum class UnsandboxedAnswer { Cancel, RunOnce, RunAndRemember };
    void setUnsandboxedQuestion(std::function<UnsandboxedAnswer(const QString& why)> ask) { askUnsandboxed_ = std::move(ask); }

    KernelEditor* editor() const { return editor_; }
    QLabel* compileNotice() const { return compileNotice_; }
    ProblemsView* problems() const { return problems_; }
    ArgumentPanel* arguments() const { return arguments_; }
    LaunchPanel* launch() const { return launch_; }
    ResultsView* results() const { return results_; }
    TimingsView* timings() const { return timings_; }
    BackendChooser* backends() const { return backends_; }
    SamplesBrowser* samples() const { return samples_; }
    LessonView* lesson() const { return lesson_; }
    SweepView* sweep() const { return sweep_; }
    // The open playground's file, empty for a lone .cu file or a new playground.
    QString playgroundPath() const { return playgroundPath_; }
    QPlainTextEdit* output() const { return output_; }
    QAction* runAction() const { return runAction_; }
    QAction* stopAction() const { return stopAction_; }
    QAction* presentationAction() const { return presentationAction_; }
    CompiledCodeView* compiledCode() const { return code_; }
    // Run ▸ Show Compiled Code (F7): the Compiled Code dock, compiling the kernel for its architecture.
    void showCompiledCode();
    bool compilingCode() const { return codeId_ != 0; }
    QAction* themeAction(Theme theme) const { return theme == Theme::Dark ? darkAction_ : lightAction_; }

    // View ▸ Theme: the editor, the panels and the plots in light or dark; remembered in the settings.
    void setTheme(Theme theme);
    // View ▸ Presentation Mode (F11): large fonts everywhere, high contrast and full screen, for a
    // classroom; leaving it gives back the window and the sizes as they were.
    void setPresentation(bool on);
    const RecoveryStore& recovery() const { return recovery_; }
    QString currentFile() const { return playgroundPath_.isEmpty() ? sourcePath_ : playgroundPath_; }
    bool isModified() const;

signals:
    void runFinished(bool ok);
    void sweepFinished(bool ok);
    void compileFinished();
    void compiledCodeShown(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createDocks();
    QDockWidget* dock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
    void autosave();
    void forgetAutosave();
    void textEdited();
    // Parses the text and fits the argument panel to its kernel, from `arguments` (empty: the panel's own).
    void reparse(const std::vector<kp::model::ArgumentSpec>& arguments = {});
    void inspectFinished(quint64 id, const WorkerResultPtr& result);
    void runDone(quint64 id, const WorkerResultPtr& result);
    void backendChanged();
    void sweepDone(quint64 id, const WorkerResultPtr& result);
    void showSweep();          // the playground's stored sweep settings and results in the dock
    void sweepSettingsChanged();
    // A run's floating-point operations: the sweep's FLOPs formula at the swept array's size, when the
    // playground gives one; then the timings show its GFLOP/s against the device's peak.
    std::optional<double> runFlops() const;
    void showPlayground(const kp::model::Playground& playground);
    bool loadFile(const QString& path, QString* error); // openFile without the message box
    // Save and Save As: `confirmed` is a file the person already agreed to replace (the file dialog asked).
    bool saveTo(const QString& path, const QString& confirmed);
    bool saveKernelSource(const QString& path, const QString& confirmed);
    bool mayReplace(const QString& path, const QString& confirmed);
    void saved(const QString& path);
    // The file whose code a run executes: the playground, else the lone .cu file, else none (typed here).
    QString runFile() const;
    bool runTrusted() const;
    // After a run or sweep refused for want of a sandbox: asks, and says whether to run it again unconfined.
    bool allowUnsandboxed(const QString& why);
    RecoveryAnswer askRecovery(const RecoveredSession& session);
    MainWindow* windowFor(const RecoveredSession& session, bool& used);
    void setModifiedPanels(bool modified);
    void updateTitle();
    void updateRunState();
    bool maybeSave();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void log(const QString& text);
    void showFindBar();
    kp::worker::InspectRequest compileRequest(); // the kernel alone, as compiling as you type sends it
    void requestCompiledCode(const QString& arch, bool lineInfo);
    void submitCompiledCode(kp::worker::InspectRequest request, const QString& arch, bool lineInfo); // from compileRequest()
    void compiledCodeDone(quint64 id, const WorkerResultPtr& result);
    void findNext();

    KernelEditor* editor_;
    QLabel* compileNotice_;
    QLineEdit* findBar_;
    ProblemsView* problems_;
    ArgumentPanel* arguments_;
    LaunchPanel* launch_;
    ResultsView* results_;
    TimingsView* timings_;
    SamplesBrowser* samples_;
    LessonView* lesson_;
    SweepView* sweep_;
    QPlainTextEdit* output_;
    BackendChooser* backends_;
    QSpinBox* repeat_;
    QAction* boundsAction_ = nullptr;
    QAction* runAction_ = nullptr;
    QAction* stopAction_ = nullptr;
    QAction* compileAction_ = nullptr;
    QAction* lightAction_ = nullptr;
    QAction* darkAction_ = nullptr;
    QAction* presentationAction_ = nullptr;
    Qt::WindowStates stateBeforePresentation_ = Qt::WindowNoState;
    QByteArray geometryBeforePresentation_;
    QByteArray docksBeforePresentation_;
    CompiledCodeView* code_ = nullptr;
    QDockWidget* codeDock_ = nullptr;
    WorkerTask codeTask_;  // a worker of its own: looking at the code does not hold up compiling as you type
    quint64 codeId_ = 0;   // the newest request for the compiled code, 0 when none is waiting
    QMenu* recentMenu_ = nullptr;
    QLabel* state_;
    QProgressBar* busy_;

    WorkerTask runTask_;
    WorkerTask inspectTask_;
    WorkerTask sweepTask_;  // a worker of its own: a sweep does not hold up runs or compiles
    quint64 sweepId_ = 0;   // the sweep in progress, 0 when none
    QAction* sweepAction_ = nullptr;
    quint64 runId_ = 0;     // the run in progress, 0 when none
    quint64 inspectId_ = 0; // the newest compile asked for; answers to older ones are dropped
    std::vector<kp::model::Diagnostic> parseProblems_;

    kp::model::Playground playground_; // as opened (or new), before the panels' edits
    QString playgroundPath_;           // the *.kpad.json, empty for a lone .cu file or a new playground
    QString sourcePath_;               // the kernel's .cu file, empty for inline code
    bool panelsModified_ = false;
    double timeLimitSeconds_ = 30;
    std::function<QMessageBox::StandardButton()> askSave_;
    std::function<bool(const QString&)> askOverwrite_;
    QStringList written_; // files this window created or saved (canonical paths): replaced without asking
    std::function<UnsandboxedAnswer(const QString&)> askUnsandboxed_;
    TrustedFiles trusted_;
    bool runUnsandboxedOnce_ = false; // the user said "run anyway" for the run or sweep about to start

    RecoveryStore recovery_;
    QTimer autosave_;
    QTimer compileTimer_;
    bool changedSinceAutosave_ = false;
};
