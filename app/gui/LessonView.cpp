#include "LessonView.h"

#include "core/io/FileBytes.h"

#include <QEvent>
#include <QFileInfo>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <utility>
#include <vector>

LessonView::LessonView(QWidget* parent) : QTextBrowser(parent) {
    setObjectName(QStringLiteral("lessonView"));
    setOpenExternalLinks(true);
    showLesson({});
}

bool LessonView::showLesson(const QString& path) {
    path_.clear();
    if (path.isEmpty()) {
        setLesson(tr("*This playground has no lesson.* The samples (View > Samples) each come with one."));
        return false;
    }
    // Through the core's reader: a lesson that is a FIFO or a device is refused at once, never waited on.
    std::string text;
    try {
        text = kp::io::readTextFile(path.toStdString());
    } catch (const std::exception& e) {
        setLesson(tr("*The lesson %1 cannot be read: %2.*").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
    // Relative links and pictures in the lesson resolve beside it.
    setSearchPaths({QFileInfo(path).absolutePath()});
    setLesson(QString::fromStdString(text));
    path_ = path;
    return true;
}

void LessonView::setLesson(const QString& markdown) {
    setMarkdown(markdown);
    sizeCodeAsText();
}

void LessonView::sizeCodeAsText() {
    // Markdown's code comes in the desktop's fixed font at its own size: give it the text's size, so that
    // code grows with the text in presentation mode.
    const qreal size = font().pointSizeF();
    std::vector<std::pair<int, int>> code; // (start, end) of each run of code
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (const QTextFragment fragment = it.fragment(); fragment.charFormat().fontFixedPitch())
                code.emplace_back(fragment.position(), fragment.position() + fragment.length());
    QTextCharFormat format;
    format.setFontPointSize(size);
    for (const auto& [start, end] : code) {
        QTextCursor cursor(document());
        cursor.setPosition(start);
        cursor.setPosition(end, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(format);
    }
    document()->setModified(false);
}

void LessonView::changeEvent(QEvent* event) {
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        // The text follows the font by itself; the code, sized explicitly, is sized again. The page shown
        // (the lesson, or one a link led to) stays, where it was scrolled to.
        const int scroll = verticalScrollBar()->value();
        sizeCodeAsText();
        verticalScrollBar()->setValue(scroll);
    }
}
