#include "Language.h"

#include "Settings.h"

#include <QAction>
#include <QActionGroup>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QTranslator>
#include <algorithm>
#include <optional>

namespace {

const char* const kRestartNotice =
    QT_TRANSLATE_NOOP("Language", "Kernelpad will be shown in %1 the next time it starts.");

struct Installed {
    QPointer<QTranslator> kernelpad;
    QPointer<QTranslator> qt;
    QString code = QStringLiteral("en");
};

Installed& installed() {
    static Installed state;
    return state;
}

QString qmPath(const QString& code) {
    return QStringLiteral(":/i18n/kernelpad_%1.qm").arg(code);
}

// The language `name` ("es-MX", "zh-Hans-CN", "zh_CN", "en") is in, when the window speaks it.
std::optional<QString> spoken(const QString& name) {
    if (name.trimmed().isEmpty()) return std::nullopt; // QLocale(QString()) would be the default locale
    const QLocale locale(name.trimmed());
    switch (locale.language()) {
    case QLocale::English:
        return QStringLiteral("en");
    case QLocale::Spanish:
        return QStringLiteral("es");
    case QLocale::Chinese:
        // Traditional Chinese has no translation (yet): a later preference may be one there is.
        if (locale.script() == QLocale::SimplifiedHanScript) return QStringLiteral("zh_CN");
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

void uninstall(QPointer<QTranslator>& translator) {
    if (!translator) return;
    QCoreApplication::removeTranslator(translator);
    delete translator;
}

// The notice in the language `code` itself, read from its own .qm rather than the installed one.
QString noticeIn(const QString& code, const QString& name) {
    QTranslator translator;
    QString text;
    if (code != QLatin1String("en") && translator.load(qmPath(code)))
        text = translator.translate("Language", kRestartNotice);
    if (text.isEmpty()) text = QString::fromUtf8(kRestartNotice);
    return text.arg(name);
}

// Said in the language shown now and in the one chosen, so that whoever chose it can read it.
void announce(QMenu* menu, const Language& language) {
    if (language.code == Language::current()) return; // the window speaks it already
    QString text = Language::tr(kRestartNotice).arg(language.name);
    const QString theirs = noticeIn(language.code, language.name);
    if (theirs != text) text += QStringLiteral("\n\n") + theirs;
    QWidget* owner = menu->parentWidget();
    while (qobject_cast<QMenu*>(owner))
        owner = owner->parentWidget();
    auto* box = new QMessageBox(QMessageBox::Information, Language::tr("Language"), text, QMessageBox::Ok,
                                owner ? owner->window() : nullptr);
    box->setObjectName(QStringLiteral("languageNotice"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // not exec(): the menu's click returns at once
}

} // namespace

QList<Language> Language::available() {
    return {{QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("es"), QStringLiteral("Español")},
            {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

QString Language::fromPreferences(const QStringList& preferred) {
    for (const QString& name : preferred)
        if (const auto code = spoken(name)) return *code;
    return QStringLiteral("en");
}

QString Language::chosen() {
    for (const QString& asked : {qEnvironmentVariable("KERNELPAD_LANGUAGE"), Settings::language()})
        if (const auto code = spoken(asked)) return *code;
    return fromPreferences(QLocale::system().uiLanguages());
}

bool Language::install(const QString& code) {
    Installed& now = installed();
    uninstall(now.kernelpad);
    uninstall(now.qt);
    now.code = QStringLiteral("en");
    if (code == QLatin1String("en")) return true;
    const QList<Language> all = available();
    if (std::none_of(all.cbegin(), all.cend(), [&](const Language& l) { return l.code == code; }))
        return false;
    auto* kernelpad = new QTranslator(QCoreApplication::instance());
    if (!kernelpad->load(qmPath(code))) {
        delete kernelpad;
        return false;
    }
    QCoreApplication::installTranslator(kernelpad);
    now.kernelpad = kernelpad;
    now.code = code;
    // Qt's own words are optional: without Debian's qt6-translations-l10n its buttons stay English.
    auto* qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        now.qt = qt;
    } else {
        delete qt;
    }
    return true;
}

QString Language::current() {
    return installed().code;
}

void Language::choose(const QString& code) {
    Settings::setLanguage(code);
}

QMenu* Language::menu(QWidget* parent, const std::function<void(const QString& code)>& switchTo) {
    auto* menu = new QMenu(tr("&Language"), parent);
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(menu);
    for (const Language& language : available()) {
        QAction* action = menu->addAction(language.name);
        action->setObjectName(QStringLiteral("language_%1").arg(language.code));
        action->setData(language.code);
        action->setCheckable(true);
        action->setChecked(language.code == current());
        group->addAction(action);
        QObject::connect(action, &QAction::triggered, menu, [menu, language, switchTo] {
            choose(language.code);
            if (switchTo && language.code != current())
                switchTo(language.code);
            else if (!switchTo)
                announce(menu, language);
        });
    }
    return menu;
}
