// The Help menu: the guide, the keyboard shortcuts, the lessons (each a page of HelpDialog) and About.
// MainWindow opens the help window at the page asked for.
#pragma once

#include <QMenu>

class HelpMenu : public QMenu {
    Q_OBJECT
public:
    explicit HelpMenu(QWidget* parent);

signals:
    void pageRequested(int page); // HelpDialog::Page
};
