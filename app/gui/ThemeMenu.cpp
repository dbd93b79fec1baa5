#include "ThemeMenu.h"

#include "Settings.h"

#include <QActionGroup>

ThemeMenu::ThemeMenu(QWidget* parent) : QMenu(tr("&Theme"), parent) {
    auto* themes = new QActionGroup(this);
    light_ = addAction(tr("&Light"), this, [this] { choose(Theme::Light); });
    dark_ = addAction(tr("&Dark"), this, [this] { choose(Theme::Dark); });
    for (QAction* action : {light_, dark_}) {
        action->setCheckable(true);
        themes->addAction(action);
    }
    action(currentAppearance().theme)->setChecked(true);
}

void ThemeMenu::choose(Theme theme) {
    Appearance appearance = currentAppearance();
    appearance.theme = theme;
    applyAppearance(appearance);
    action(theme)->setChecked(true);
    Settings::setTheme(themeName(theme));
}
