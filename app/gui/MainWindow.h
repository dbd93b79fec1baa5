// Kernelpad's main window: wiring only. It places the editor and, as later panels land, the argument,
// launch, results and timing views; logic lives in core/ and in the widgets themselves.
#pragma once

#include <QMainWindow>

class QsciScintilla;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // Shows a playground (*.kpad.json, its kernel source) or a .cu file; false with a message on failure.
    bool openFile(const QString& path);

private:
    void showBackendStatus();
    QsciScintilla* editor_;
};
