// Kernelpad's main window: wiring only. It places the editor and, as later panels land, the argument,
// launch, results and timing views; logic lives in core/ and in the widgets themselves.
#pragma once

#include "RecoveryStore.h"

#include <QMainWindow>
#include <QTimer>
#include <functional>

class QLabel;
class QsciScintilla;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // Shows a playground (*.kpad.json, its kernel source) or a .cu file; false with a message on failure.
    bool openFile(const QString& path);
    // Writes the editor's text to `path` atomically (temporary file, fsync, rename): a failed save leaves the old file as
    // it was and says why. False on failure.
    bool saveSource(const QString& path);

    // After a crash or a kill: offers to restore the text of sessions that did not end normally.
    // `ask` decides for each (default: a question box); returns how many were restored (at most one).
    int offerRecovery(const std::function<bool(const RecoveredSession&)>& ask = {});
    void setAutosaveInterval(int milliseconds) { autosave_.setInterval(milliseconds); }
    QsciScintilla* editor() const { return editor_; }
    // The notice naming the compile options an opened playground carries (hidden when it has none).
    QLabel* compileNotice() const { return compileNotice_; }
    const RecoveryStore& recovery() const { return recovery_; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void showBackendStatus();
    void autosave();
    QsciScintilla* editor_;
    QLabel* compileNotice_;
    RecoveryStore recovery_;
    QTimer autosave_;
    bool changedSinceAutosave_ = false;
    QString sourcePath_;
};
