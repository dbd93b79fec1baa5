#include "StudentWords.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("StudentWords", text);
}

} // namespace

QString inStudentWords(const QString& message) {
    QString text = message;
    // The playground's own code, compiled without a file name.
    static const QRegularExpression lineAndColumn(QStringLiteral("<code>:(\\d+):(\\d+)"));
    static const QRegularExpression line(QStringLiteral("<code>:(\\d+)"));
    static const QRegularExpression code(QStringLiteral("<code>"));
    text.replace(lineAndColumn, tr("line \\1, column \\2"));
    text.replace(line, tr("line \\1"));
    text.replace(code, tr("the code"));
    // The launch fields by the names the launch panel gives them.
    static const QRegularExpression block(QStringLiteral("\\blaunch\\.block: "));
    static const QRegularExpression grid(QStringLiteral("\\blaunch\\.grid: "));
    static const QRegularExpression shared(QStringLiteral("\\blaunch\\.shared_bytes: "));
    text.replace(block, tr("Block: "));
    text.replace(grid, tr("Grid: "));
    text.replace(shared, tr("Dynamic shared memory: "));
    // An argument by its name where the message gives one ("args[2] n: ..."), else by its place.
    static const QRegularExpression named(QStringLiteral("\\bargs\\[\\d+\\](?:\\.\\w+)* ([A-Za-z_]\\w*): "));
    text.replace(named, tr("Argument \\1: "));
    static const QRegularExpression placed(QStringLiteral("\\bargs\\[(\\d+)\\](?:\\.\\w+)*: "));
    QString out;
    qsizetype from = 0;
    for (auto it = placed.globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        out += text.mid(from, match.capturedStart() - from);
        out += tr("Argument %1: ").arg(match.captured(1).toInt() + 1);
        from = match.capturedEnd();
    }
    return out + text.mid(from);
}
