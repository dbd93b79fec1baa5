// The lesson of the open playground (its "lesson" key: Markdown beside the playground), shown in the
// Lesson dock so a student reads what to try while editing; links open in the system's browser.
#pragma once

#include <QTextBrowser>

class LessonView : public QTextBrowser {
    Q_OBJECT
public:
    explicit LessonView(QWidget* parent = nullptr);
    // Shows the Markdown file at `path`; an empty path or a file that cannot be read says so instead.
    // Returns whether a lesson is shown.
    bool showLesson(const QString& path);
    // The file shown, empty when none.
    QString lessonPath() const { return path_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void setLesson(const QString& markdown);
    void sizeCodeAsText();
    QString path_;
};
