#include "OutputLog.h"

#include <QTime>

OutputLog::OutputLog(const QFont& font, QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setMaximumBlockCount(20000);
    setFont(font);
}

void OutputLog::log(const QString& text) {
    appendPlainText(
        QStringLiteral("[%1] %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
}
