// The languages the window speaks (English, Spanish, Simplified Chinese) and the choice among them.
// main() installs the chosen one before the window exists; MainWindow's View menu offers them with
// one line: `view->addMenu(Language::menu(this, switchTo));`, where switchTo builds the window anew in
// the language chosen (WindowHost); without it a choice applies at the next start.
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>

class QMenu;
class QWidget;

struct Language {
    QString code; // "en", "es", "zh_CN": the setting's value and the suffix of kernelpad_XX.qm
    QString name; // in the language itself, as its speakers look for it: "English", "Español", "简体中文"

    bool operator==(const Language&) const = default;

    // Every language there is a translation for, English first.
    static QList<Language> available();
    // The first of `preferred` (in QLocale::uiLanguages() order: "es-MX", "zh-Hans-CN", "fr-FR", ...)
    // that the window speaks; English when none is.
    static QString fromPreferences(const QStringList& preferred);
    // $KERNELPAD_LANGUAGE (for demos and tests), else the setting "language", else the system's languages.
    static QString chosen();
    // Installs the translations of `code`, Kernelpad's and Qt's own (standard buttons and dialogs, when
    // Debian's qt6-translations-l10n is there), in place of those installed before. False, leaving
    // English, for a language there is no translation for.
    static bool install(const QString& code);
    // The language installed last; "en" before any.
    static QString current();
    // Stores `code` in the setting "language": the window speaks it from the next start.
    static void choose(const QString& code);
    // The "Language" submenu: one checkable action per language, the current one checked. Choosing one
    // stores it, then calls `switchTo` with its code; without `switchTo` it says, in both languages, that
    // it applies at the next start.
    static QMenu* menu(QWidget* parent, const std::function<void(const QString& code)>& switchTo = {});

    Q_DECLARE_TR_FUNCTIONS(Language)
};
