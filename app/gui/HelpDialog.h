// Help inside the app: a short guide, the keyboard shortcuts (read from the window's own menus, so the
// list is never out of date) and every sample's lesson, with a button to open the sample.
#pragma once

#include "core/io/SampleCatalog.h"

#include <QDialog>

class LessonView;
class QMenuBar;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTextBrowser;
class QTreeWidget;

class HelpDialog : public QDialog {
    Q_OBJECT
public:
    enum class Page { Guide, Shortcuts, Lessons };

    HelpDialog(const QMenuBar* menus, const kp::io::SampleCatalog& samples, QWidget* parent = nullptr);
    void showPage(Page page);

    QTabWidget* tabs() const { return tabs_; }
    QTextBrowser* guide() const { return guide_; }
    QTableWidget* shortcuts() const { return shortcuts_; }
    QTreeWidget* lessonList() const { return lessons_; }
    LessonView* lesson() const { return lesson_; }
    QPushButton* openButton() const { return open_; }

signals:
    void openRequested(const QString& playground);

private:
    void fillShortcuts(const QMenuBar* menus);
    void fillLessons(const kp::io::SampleCatalog& samples);

    QTabWidget* tabs_;
    QTextBrowser* guide_;
    QTableWidget* shortcuts_;
    QTreeWidget* lessons_;
    LessonView* lesson_;
    QPushButton* open_;
};
