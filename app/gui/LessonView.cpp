#include "LessonView.h"

#include <QFile>
#include <QFileInfo>

LessonView::LessonView(QWidget* parent) : QTextBrowser(parent) {
    setObjectName(QStringLiteral("lessonView"));
    setOpenExternalLinks(true);
    showLesson({});
}

bool LessonView::showLesson(const QString& path) {
    path_.clear();
    if (path.isEmpty()) {
        setMarkdown(tr("*This playground has no lesson.* The samples (View > Samples) each come with one."));
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        setMarkdown(tr("*The lesson %1 cannot be read: %2.*").arg(path, file.errorString()));
        return false;
    }
    // Relative links and pictures in the lesson resolve beside it.
    setSearchPaths({QFileInfo(path).absolutePath()});
    setMarkdown(QString::fromUtf8(file.readAll()));
    path_ = path;
    return true;
}
