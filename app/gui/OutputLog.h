// The Output dock: what happened, line by line with the time (log), and what kernels, compilers and
// runtimes printed. MainWindow, PlaygroundDocument and RunController write to it through MainWindow.
#pragma once

#include <QPlainTextEdit>

class OutputLog : public QPlainTextEdit {
    Q_OBJECT
public:
    OutputLog(const QFont& font, QWidget* parent = nullptr);

    void log(const QString& text); // "[12:34:56] text"
};
