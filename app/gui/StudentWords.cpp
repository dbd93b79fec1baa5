#include "StudentWords.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <functional>

// The words this file gives, in a translation context of their own ("StudentWords") that lupdate lists.
class StudentWords {
    Q_DECLARE_TR_FUNCTIONS(StudentWords)

public:
    static QString fieldWords(const QString& field);
    static QString rewrite(const QString& message);
};

namespace {

// Replaces every match of `pattern` in `text` with what `words` makes of it.
QString replaceEach(const QString& text, const QRegularExpression& pattern,
                    const std::function<QString(const QRegularExpressionMatch&)>& words) {
    QString out;
    qsizetype from = 0;
    for (auto it = pattern.globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        out += text.mid(from, match.capturedStart() - from) + words(match);
        from = match.capturedEnd();
    }
    return out + text.mid(from);
}

QString axis(const QString& index) {
    static const QString names[] = {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")};
    const int i = index.toInt();
    return i >= 0 && i < 3 ? names[i] : index;
}

} // namespace

// The field of a step or buffer as the Steps panel labels it: ".launch.args[1]" is "argument 2".
QString StudentWords::fieldWords(const QString& field) {
    static const QRegularExpression indexed(QStringLiteral("(\\w+)\\[(\\d+)\\]$"));
    const auto last = indexed.match(field);
    if (last.hasMatch()) {
        QString what = last.captured(1);
        const QString index = last.captured(2);
        const int n = index.toInt() + 1;
        if (what == QLatin1String("args")) return tr("argument %1").arg(n);
        if (what == QLatin1String("grid")) return tr("grid %1").arg(axis(index));
        if (what == QLatin1String("block")) return tr("block %1").arg(axis(index));
        if (what == QLatin1String("template")) return tr("template argument %1").arg(n);
        if (what == QLatin1String("values")) return tr("value %1").arg(n);
        if (what == QLatin1String("shape")) return tr("shape");
        if (what == QLatin1String("swap")) return n == 1 ? tr("first buffer") : tr("second buffer");
        return what;
    }
    QString name = field.section(QLatin1Char('.'), -1);
    if (name == QLatin1String("shared_bytes")) return tr("shared memory");
    if (name == QLatin1String("launch") || name.isEmpty()) return {};
    return name;
}

QString inStudentWords(const QString& message) {
    return StudentWords::rewrite(message);
}

QString StudentWords::rewrite(const QString& message) {
    QString text = message;
    // The playground's own code, compiled without a file name.
    static const QRegularExpression lineAndColumn(QStringLiteral("<code>:(\\d+):(\\d+)"));
    static const QRegularExpression line(QStringLiteral("<code>:(\\d+)"));
    static const QRegularExpression code(QStringLiteral("<code>"));
    text.replace(lineAndColumn, tr("line \\1, column \\2"));
    text.replace(line, tr("line \\1"));
    text.replace(code, tr("the code"));
    // A program's step by its number in the Steps panel ("steps[2].steps[0].launch.args[1]" is "step 3.1,
    // argument 2"), a buffer and a variable by their names there. Before the arguments: a step holds args[].
    static const QRegularExpression step(
        QStringLiteral("(^|[^\\w.])(steps\\[\\d+\\](?:\\.steps\\[\\d+\\])*)((?:\\.\\w+(?:\\[\\d+\\])?)*)"));
    text = replaceEach(text, step, [](const QRegularExpressionMatch& m) {
        QStringList numbers;
        static const QRegularExpression index(QStringLiteral("\\[(\\d+)\\]"));
        for (auto it = index.globalMatch(m.captured(2)); it.hasNext();)
            numbers << QString::number(it.next().captured(1).toInt() + 1);
        const bool first = m.captured(1).isEmpty() || m.captured(1) == QLatin1String("\n");
        const QString words = (first ? tr("Step %1") : tr("step %1")).arg(numbers.join(QLatin1Char('.')));
        const QString field = fieldWords(m.captured(3));
        return m.captured(1) + (field.isEmpty() ? words : words + QStringLiteral(", ") + field);
    });
    static const QRegularExpression buffer(
        QStringLiteral("\\bbuffers\\[(\\d+)\\]((?:\\.\\w+(?:\\[\\d+\\])?)*)"));
    text = replaceEach(text, buffer, [](const QRegularExpressionMatch& m) {
        const QString words = tr("Buffer %1").arg(m.captured(1).toInt() + 1);
        const QString field = fieldWords(m.captured(2));
        return field.isEmpty() ? words : words + QStringLiteral(", ") + field;
    });
    static const QRegularExpression variable(QStringLiteral("\\bvariables\\.(\\w+)"));
    text.replace(variable, tr("Variable \\1"));
    // The launch fields by the names the launch panel gives them.
    static const QRegularExpression block(QStringLiteral("\\blaunch\\.block: "));
    static const QRegularExpression grid(QStringLiteral("\\blaunch\\.grid: "));
    static const QRegularExpression shared(QStringLiteral("\\blaunch\\.shared_bytes: "));
    text.replace(block, tr("Block: "));
    text.replace(grid, tr("Grid: "));
    text.replace(shared, tr("Dynamic shared memory: "));
    // An argument by its name where the message gives one ("args[2] n: ...", 'args[2] "n": ...'), else by
    // its place.
    static const QRegularExpression named(
        QStringLiteral("\\bargs\\[\\d+\\](?:\\.\\w+)* \"?([A-Za-z_]\\w*)\"?: "));
    text.replace(named, tr("Argument \\1: "));
    static const QRegularExpression placed(QStringLiteral("\\bargs\\[(\\d+)\\](?:\\.\\w+)*: "));
    return replaceEach(text, placed, [](const QRegularExpressionMatch& m) {
        return tr("Argument %1: ").arg(m.captured(1).toInt() + 1);
    });
}
