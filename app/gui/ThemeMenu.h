// View ▸ Theme: light or dark for the editor, the panels and the plots, remembered in the settings.
// MainWindow puts it in the View menu and chooses the remembered theme when it starts.
#pragma once

#include "Appearance.h"

#include <QMenu>

class ThemeMenu : public QMenu {
    Q_OBJECT
public:
    explicit ThemeMenu(QWidget* parent);

    QAction* action(Theme theme) const { return theme == Theme::Dark ? dark_ : light_; }
    void choose(Theme theme);

private:
    QAction* light_;
    QAction* dark_;
};
