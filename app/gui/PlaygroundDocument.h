// The playground a window edits and its files (*.kpad.json, .cu): open, save (asking before it replaces
// a file it did not write), modified state, recent files, trusted files and the crash-recovery autosave.
// MainWindow shows it in the editor and the panels; RunController reads it for each request.
#pragma once

#include "RecoveryStore.h"
#include "TrustedFiles.h"
#include "core/model/Playground.h"
#include "core/run/Sweep.h"
#include "core/run/SweepResult.h"

#include <QMessageBox>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <functional>

class ArgumentPanel;
class KernelEditor;
class LaunchPanel;
class ProgramPanel;

class PlaygroundDocument : public QObject {
    Q_OBJECT
public:
    using SaveQuestion = std::function<QMessageBox::StandardButton()>;
    using OverwriteQuestion = std::function<bool(const QString& path)>;
    // Where to save, given a suggestion (empty: none); an empty answer cancels. A file dialog by default.
    using SavePathQuestion = std::function<QString(const QString& suggested)>;

    // The editor holds the text; the panels the arguments, the launch and a program's steps. `window`
    // parents the questions.
    PlaygroundDocument(KernelEditor* editor, const ArgumentPanel* arguments, const LaunchPanel* launch,
                       const ProgramPanel* program, QWidget* window);

    // As opened (or new), with what changed outside the panels: the kernel's new name, the sweep.
    const kp::model::Playground& playground() const { return playground_; }
    // The playground as the panels show it now: the editor's text as its code, their arguments and launch,
    // and a program's variables, buffers and steps.
    kp::model::Playground current() const;
    QString playgroundPath() const {
        return playgroundPath_;
    }                                                  // empty for a lone .cu file or a new playground
    QString sourcePath() const { return sourcePath_; } // empty for inline code
    // The file whose code a run executes: the playground, else the lone .cu file, else none (typed here).
    QString currentFile() const { return playgroundPath_.isEmpty() ? sourcePath_ : playgroundPath_; }
    bool isModified() const;
    void setPanelsModified(bool modified);
    void markUnchanged(); // just shown: nothing to save or autosave
    void textEdited();
    void renameKernel(const std::string& name);
    // Keeps the sweep's settings and results (none: only the settings) in the playground's "sweep".
    void storeSweep(const kp::run::SweepSpec& spec, const kp::run::SweepResult* result);

    // Reads a playground or a .cu file and shows it; false with the reason in `error`.
    bool open(const QString& path, QString* error);
    void showNew(); // File ▸ New: a small kernel to start from, in no file yet
    // Shows `playground` from these files, unmodified: opened() follows.
    void show(const kp::model::Playground& playground, const QString& playgroundPath = {},
              const QString& sourcePath = {});
    // A crashed session's playground (or only its text), modified; its recovery file is removed.
    void restore(const RecoveredSession& session);
    // What this document holds, as an autosave keeps it.
    RecoveredSession session() const;
    // Shows what `from` holds (the same file, or its unsaved text, arguments and launch, still unsaved)
    // and takes over its autosave: for a window built anew, in another language.
    void carryOver(PlaygroundDocument& from);

    bool save(); // Save As when there is no file yet
    // `confirmed` is a file the person already agreed to replace (the file dialog asked).
    bool saveTo(const QString& requested, const QString& confirmed);
    bool saveSource(const QString& path); // the editor's text, atomically
    bool maybeSave();                     // asks to save a modified document; false: cancelled
    void setSaveQuestion(SaveQuestion ask) { askSave_ = std::move(ask); }
    void setOverwriteQuestion(OverwriteQuestion ask) { askOverwrite_ = std::move(ask); }
    void setSavePathQuestion(SavePathQuestion ask) { askSavePath_ = std::move(ask); }
    const SaveQuestion& saveQuestion() const { return askSave_; }
    const OverwriteQuestion& overwriteQuestion() const { return askOverwrite_; }

    // Where this machine has no sandbox, code runs unconfined only from a file the user wrote or
    // trusts, or from the samples that come with Kernelpad (in `samplesFolder`).
    void setSamplesFolder(const QString& folder) { samplesFolder_ = folder; }
    // Whether the open file is one of the samples Kernelpad comes with: trusted, and never saved over
    // (Save asks where to put a copy of the student's own).
    bool isInstalledSample() const;
    bool isTrusted() const;
    void trust() { trusted_.trust(currentFile()); }

    const RecoveryStore& recovery() const { return recovery_; }
    void setAutosaveInterval(int milliseconds) { autosave_.setInterval(milliseconds); }
    void endSession(); // closed normally: nothing to recover

signals:
    void opened(); // a playground to show in the panels
    void modifiedChanged();
    void recentFilesChanged();
    void message(const QString& text, int timeoutMs); // for the status bar
    void logged(const QString& text);

private:
    bool showRestored(const RecoveredSession& session);
    bool saveKernelSource(const QString& path, const QString& confirmed);
    bool mayReplace(const QString& path, const QString& confirmed);
    void saved(const QString& path);
    void addRecent(const QString& path);
    void autosave();    // on the store's thread (the timer's)
    void autosaveNow(); // before anything that needs the file written
    void forgetAutosave();
    void say(const QString& text); // the status bar and the log

    KernelEditor* editor_;
    const ArgumentPanel* arguments_;
    const LaunchPanel* launch_;
    const ProgramPanel* program_;
    QWidget* window_;
    kp::model::Playground playground_;
    QString playgroundPath_;
    QString sourcePath_;
    bool panelsModified_ = false;
    SaveQuestion askSave_;
    OverwriteQuestion askOverwrite_;
    SavePathQuestion askSavePath_;
    QStringList written_; // files this window created or saved (canonical paths): replaced without asking
    TrustedFiles trusted_;
    QString samplesFolder_;
    RecoveryStore recovery_;
    QTimer autosave_;
    bool changedSinceAutosave_ = false;
};
