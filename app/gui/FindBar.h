// Find inside the editor: a line under the code that Ctrl+F opens; Enter (or F3) goes to the next
// match, Esc closes it. MainWindow places it below the KernelEditor and shows its messages in the status bar.
#pragma once

#include <QLineEdit>

class KernelEditor;

class FindBar : public QLineEdit {
    Q_OBJECT
public:
    FindBar(KernelEditor* editor, QWidget* parent = nullptr);

    void open(); // shown, focused, its text selected to be typed over
    void findNext();

signals:
    void message(const QString& text, int timeoutMs); // for the status bar

private:
    KernelEditor* editor_;
};
