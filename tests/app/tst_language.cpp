// The window in Spanish and Simplified Chinese: the translations are built in and finished, with the
// placeholders, accelerators, shortcuts and markup of their sources; the language follows the setting,
// else the system's preferences; the Language menu stores a choice; a real window speaks the language.
#include "BackendChooser.h"
#include "HelpDialog.h"
#include "KernelEditor.h"
#include "Language.h"
#include "MainWindow.h"
#include "ResultsView.h"
#include "SampleCopy.h"
#include "TimingsView.h"
#include "WindowHost.h"

#include <QActionGroup>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLibraryInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

struct Message {
    QString context;
    QString source;
    QStringList translations; // one, or one per plural form
    bool finished = true;
};

// The messages of resources/translations/kernelpad_<code>.ts, as lupdate wrote them.
QList<Message> messagesOf(const QString& code, QString* error) {
    QFile file(QStringLiteral(KP_SOURCE_DIR "/resources/translations/kernelpad_%1.ts").arg(code));
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return {};
    }
    QList<Message> messages;
    QString context;
    QXmlStreamReader xml(&file);
    while (xml.readNextStartElement()) {
        const auto name = xml.name();
        if (name == QLatin1String("TS")) continue;
        if (name == QLatin1String("context")) {
            while (xml.readNextStartElement()) {
                if (xml.name() == QLatin1String("name")) {
                    context = xml.readElementText();
                } else if (xml.name() == QLatin1String("message")) {
                    Message m{context, {}, {}, true};
                    while (xml.readNextStartElement()) {
                        if (xml.name() == QLatin1String("source")) {
                            m.source = xml.readElementText();
                        } else if (xml.name() == QLatin1String("translation")) {
                            const auto type = xml.attributes().value(QLatin1String("type"));
                            m.finished = type.isEmpty();
                            bool plural = false;
                            QString text;
                            while (!xml.atEnd()) {
                                xml.readNext();
                                if (xml.isCharacters()) text += xml.text();
                                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform")) {
                                    plural = true;
                                    m.translations << xml.readElementText();
                                }
                                if (xml.isEndElement() && xml.name() == QLatin1String("translation")) break;
                            }
                            if (!plural) m.translations << text;
                        } else {
                            xml.skipCurrentElement();
                        }
                    }
                    messages << m;
                } else {
                    xml.skipCurrentElement();
                }
            }
        } else {
            xml.skipCurrentElement();
        }
    }
    if (xml.hasError()) *error = xml.errorString();
    return messages;
}

// What a translation must keep from its source, in order-free lists.
QStringList matches(const QString& text, const QRegularExpression& pattern) {
    QStringList found;
    for (auto it = pattern.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    found.sort();
    return found;
}

const QRegularExpression kPlaceholder(QStringLiteral("%L?\\d+|%n|%v|%m"));
const QRegularExpression kMarkup(QStringLiteral("</?[a-z][a-z0-9]*[^>]*>"));
const QRegularExpression kKeys(QStringLiteral("\\b(?:Ctrl|Shift|Alt)\\+\\w+|\\bF\\d+\\b|\\bEsc\\b"));
const QRegularExpression kMnemonic(QStringLiteral("&(?!&)\\S"));

QStringList menuTitles(const MainWindow& window) {
    QStringList titles;
    for (const QAction* action : window.menuBar()->actions())
        if (action->menu()) titles << action->menu()->title();
    return titles;
}

} // namespace

class TestLanguage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("Kernelpad"));
        QCoreApplication::setApplicationName(QStringLiteral("Kernelpad"));
        qunsetenv("KERNELPAD_LANGUAGE");
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
        qputenv("KERNELPAD_SAMPLES_DIR", KP_SOURCE_DIR "/samples");
    }

    void cleanup() {
        Language::install(QStringLiteral("en"));
        QSettings().remove(QStringLiteral("language"));
        qunsetenv("KERNELPAD_LANGUAGE");
    }

    void offersEnglishSpanishAndChineseByTheirOwnNames() {
        QStringList names;
        for (const Language& l : Language::available())
            names << l.code + QLatin1Char('=') + l.name;
        QCOMPARE(names, (QStringList{QStringLiteral("en=English"), QStringLiteral("es=Español"),
                                     QStringLiteral("zh_CN=简体中文")}));
    }

    void translationsAreBuiltIn_data() {
        QTest::addColumn<QString>("code");
        QTest::newRow("es") << "es";
        QTest::newRow("zh_CN") << "zh_CN";
    }
    void translationsAreBuiltIn() {
        QFETCH(QString, code);
        const QString path = QStringLiteral(":/i18n/kernelpad_%1.qm").arg(code);
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QTranslator translator;
        QVERIFY(translator.load(path));
        QVERIFY(!translator.isEmpty());
        QCOMPARE(translator.language().left(2), code.left(2));
    }

    void translatesKnownWords_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("expected");
        QTest::newRow("es File") << "es"
                                 << "FileMenu"
                                 << "&File" << -1 << "&Archivo";
        QTest::newRow("es Run") << "es"
                                << "RunActions"
                                << "&Run" << -1 << "E&jecutar";
        QTest::newRow("es Arguments") << "es"
                                      << "DockLayout"
                                      << "Arguments" << -1 << "Argumentos";
        QTest::newRow("es one error")
            << "es"
            << "RunController"
            << "Does not compile: 1 error (see Problems)" << -1 << "No compila: 1 error (ver Problemas)";
        QTest::newRow("es errors") << "es"
                                   << "RunController"
                                   << "Does not compile: %L1 errors (see Problems)" << -1
                                   << "No compila: %L1 errores (ver Problemas)";
        QTest::newRow("es Language") << "es"
                                     << "Language"
                                     << "&Language" << -1 << "&Idioma";
        QTest::newRow("zh File") << "zh_CN"
                                 << "FileMenu"
                                 << "&File" << -1 << "文件(&F)";
        QTest::newRow("zh Run") << "zh_CN"
                                << "RunActions"
                                << "&Run" << -1 << "运行(&R)";
        QTest::newRow("zh Arguments") << "zh_CN"
                                      << "DockLayout"
                                      << "Arguments" << -1 << "参数";
        QTest::newRow("zh errors") << "zh_CN"
                                   << "RunController"
                                   << "Does not compile: %L1 errors (see Problems)" << -1
                                   << "无法编译：%L1 个错误（请查看“问题”）";
        QTest::newRow("zh a step") << "zh_CN"
                                   << "StudentWords"
                                   << "Step %1" << -1 << "步骤 %1";
        QTest::newRow("zh Language") << "zh_CN"
                                     << "Language"
                                     << "&Language" << -1 << "语言(&L)";
        QTest::newRow("zh check") << "zh_CN"
                                  << "CheckSummary"
                                  << "Not checked: %1" << -1 << "未校验：%1";
    }
    void translatesKnownWords() {
        QFETCH(QString, code);
        QFETCH(QString, context);
        QFETCH(QString, source);
        QFETCH(int, count);
        QFETCH(QString, expected);
        QVERIFY(Language::install(code));
        QCOMPARE(Language::current(), code);
        QCOMPARE(QCoreApplication::translate(context.toUtf8().constData(), source.toUtf8().constData(),
                                             nullptr, count),
                 expected);
        QVERIFY(Language::install(QStringLiteral("en")));
        QCOMPARE(QCoreApplication::translate(context.toUtf8().constData(), source.toUtf8().constData()),
                 source);
    }

    void installsQtsOwnWordsWhenDebianHasThem() {
        if (!QFile::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath) +
                           QStringLiteral("/qtbase_es.qm")))
            QSKIP("Qt's own translations are not installed (Debian package qt6-translations-l10n)");
        QVERIFY(Language::install(QStringLiteral("es")));
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancelar"));
        QVERIFY(Language::install(QStringLiteral("zh_CN")));
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("取消"));
    }

    void refusesALanguageWithoutTranslation() {
        QVERIFY(Language::install(QStringLiteral("es")));
        QVERIFY(!Language::install(QStringLiteral("fr")));
        QCOMPARE(Language::current(), QStringLiteral("en"));
        QCOMPARE(QCoreApplication::translate("MainWindow", "&File"), QStringLiteral("&File"));
    }

    void followsTheSystemLocale_data() {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("expected");
        QTest::newRow("es_ES") << "es_ES"
                               << "es";
        QTest::newRow("es_MX") << "es_MX"
                               << "es";
        QTest::newRow("es_AR") << "es_AR"
                               << "es";
        QTest::newRow("zh_CN") << "zh_CN"
                               << "zh_CN";
        QTest::newRow("zh_Hans") << "zh_Hans"
                                 << "zh_CN";
        QTest::newRow("zh_SG") << "zh_SG"
                               << "zh_CN";
        QTest::newRow("zh_TW (Traditional: none)") << "zh_TW"
                                                   << "en";
        QTest::newRow("en_US") << "en_US"
                               << "en";
        QTest::newRow("en_GB") << "en_GB"
                               << "en";
        QTest::newRow("fr_FR") << "fr_FR"
                               << "en";
        QTest::newRow("de_DE") << "de_DE"
                               << "en";
        QTest::newRow("C") << "C"
                           << "en";
    }
    void followsTheSystemLocale() {
        QFETCH(QString, locale);
        QFETCH(QString, expected);
        const QStringList preferred = QLocale(locale).uiLanguages();
        QCOMPARE(Language::fromPreferences(preferred), expected);
    }

    void takesTheFirstPreferenceItSpeaks_data() {
        QTest::addColumn<QStringList>("preferred");
        QTest::addColumn<QString>("expected");
        QTest::newRow("French, then Spanish") << QStringList{"fr-FR", "fr", "es-ES", "es"} << "es";
        QTest::newRow("French, English, Chinese") << QStringList{"fr-FR", "en-US", "zh-CN"} << "en";
        QTest::newRow("Traditional, then Simplified") << QStringList{"zh-Hant-TW", "zh-Hans-CN"} << "zh_CN";
        QTest::newRow("nothing") << QStringList{} << "en";
        QTest::newRow("nonsense") << QStringList{"", "xx-YY", "C"} << "en";
    }
    void takesTheFirstPreferenceItSpeaks() {
        QFETCH(QStringList, preferred);
        QFETCH(QString, expected);
        QCOMPARE(Language::fromPreferences(preferred), expected);
    }

    void theSettingOverridesTheSystem() {
        const QString system = Language::fromPreferences(QLocale::system().uiLanguages());
        QCOMPARE(Language::chosen(), system);
        for (const char* code : {"es", "zh_CN", "en"}) {
            QSettings().setValue(QStringLiteral("language"), QString::fromLatin1(code));
            QCOMPARE(Language::chosen(), QString::fromLatin1(code));
        }
        QSettings().setValue(QStringLiteral("language"), QStringLiteral("klingon"));
        QCOMPARE(Language::chosen(), system);
        // The environment is for demos and tests: it wins over the setting.
        QSettings().setValue(QStringLiteral("language"), QStringLiteral("zh_CN"));
        qputenv("KERNELPAD_LANGUAGE", "es");
        QCOMPARE(Language::chosen(), QStringLiteral("es"));
    }

    void theMenuStoresTheChoiceForTheNextStart() {
        QVERIFY(Language::install(QStringLiteral("es")));
        QWidget window;
        QMenu* menu = Language::menu(&window);
        QCOMPARE(menu->title(), QStringLiteral("&Idioma"));
        const QList<QAction*> actions = menu->actions();
        QCOMPARE(actions.size(), 3);
        QStringList names, checked;
        for (QAction* a : actions) {
            QVERIFY(a->isCheckable());
            QVERIFY(a->actionGroup() && a->actionGroup()->isExclusive());
            names << a->text();
            if (a->isChecked()) checked << a->data().toString();
        }
        QCOMPARE(names, (QStringList{QStringLiteral("English"), QStringLiteral("Español"),
                                     QStringLiteral("简体中文")}));
        QCOMPARE(checked, QStringList{QStringLiteral("es")});

        actions[2]->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("zh_CN"));
        QVERIFY(actions[2]->isChecked());
        QVERIFY(!actions[1]->isChecked());
        QCOMPARE(Language::current(), QStringLiteral("es")); // until the next start
        auto* notice = window.findChild<QMessageBox*>(QStringLiteral("languageNotice"));
        QVERIFY(notice);
        // In the language shown and in the one chosen.
        QVERIFY2(notice->text().contains(
                     QStringLiteral("Kernelpad se mostrará en 简体中文 la próxima vez que se inicie.")),
                 qPrintable(notice->text()));
        QVERIFY2(
            notice->text().contains(QStringLiteral("下次启动时，Kernelpad 的界面语言将切换为“简体中文”。")),
            qPrintable(notice->text()));
        notice->grab().save(QDir::temp().filePath(QStringLiteral("kernelpad-language-notice.png")));
        notice->close();
        QTRY_VERIFY(!window.findChild<QMessageBox*>(QStringLiteral("languageNotice")));

        // Back to the language shown: stored, and nothing to announce.
        actions[1]->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("es"));
        QVERIFY(!window.findChild<QMessageBox*>(QStringLiteral("languageNotice")));
    }

    // A language chosen in the menu applies at once (it needed a restart): the window is built anew in
    // it and keeps the student's unsaved code, the file it came from, the results and the timings.
    void choosingALanguageRebuildsTheWindowKeepingTheWork() {
        QVERIFY(Language::install(QStringLiteral("en")));
        const auto discard = [] { return QMessageBox::Discard; };
        WindowHost host;
        MainWindow* first = host.window();
        first->setSaveQuestion(discard);
        first->resize(1400, 900);
        first->show();
        const QString path = copyMultiplyThem(dir_.filePath(QStringLiteral("switch")));
        QSignalSpy compiled(first, &MainWindow::compileFinished);
        first->backends()->setBackend(QStringLiteral("cpu"));
        QVERIFY(first->openFile(path));
        QVERIFY(compiled.wait(120000));
        QSignalSpy ran(first, &MainWindow::runFinished);
        QVERIFY(first->startRun());
        QVERIFY(ran.wait(120000));
        first->editor()->append(QStringLiteral("// mine\n"));
        QVERIFY(first->isModified());

        QSignalSpy replaced(&host, &WindowHost::windowReplaced);
        first->findChild<QAction*>(QStringLiteral("language_es"))->trigger();
        QVERIFY(replaced.wait(5000));
        MainWindow* second = host.window(); // the first one is gone
        second->setSaveQuestion(discard);
        QCOMPARE(Language::current(), QStringLiteral("es"));
        QCOMPARE(second->menuBar()->actions().first()->text(), QStringLiteral("&Archivo"));
        QVERIFY(second->editor()->text().contains(QStringLiteral("// mine")));
        QVERIFY(second->isModified());
        QCOMPARE(QFileInfo(second->currentFile()).canonicalFilePath(), QFileInfo(path).canonicalFilePath());
        QCOMPARE(second->results()->outputCount(), 1);
        QCOMPARE(second->timings()->historySize(), 1);
        QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("es"));

        second->findChild<QAction*>(QStringLiteral("language_en"))->trigger();
        QVERIFY(replaced.wait(5000));
        host.window()->setSaveQuestion(discard);
        QCOMPARE(host.window()->menuBar()->actions().first()->text(), QStringLiteral("&File"));
        QVERIFY(host.window()->isModified());
    }

    void everyMessageIsTranslatedAndKeepsItsPlaceholders_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("pluralForms");
        QTest::newRow("es") << "es" << 2;
        QTest::newRow("zh_CN") << "zh_CN" << 1;
    }
    void everyMessageIsTranslatedAndKeepsItsPlaceholders() {
        QFETCH(QString, code);
        QFETCH(int, pluralForms);
        QString error;
        const QList<Message> messages = messagesOf(code, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(messages.size() > 300);
        QTranslator built;
        QVERIFY(built.load(QStringLiteral(":/i18n/kernelpad_%1.qm").arg(code)));
        for (const Message& m : messages) {
            const QString where = m.context + QStringLiteral(": ") + m.source;
            QVERIFY2(m.finished, qPrintable(where + QStringLiteral(" is unfinished")));
            const bool plural = m.source.contains(QLatin1String("%n"));
            QVERIFY2(m.translations.size() == (plural ? pluralForms : 1), qPrintable(where));
            for (const QString& t : m.translations) {
                QVERIFY2(!t.isEmpty(), qPrintable(where + QStringLiteral(" is empty")));
                QVERIFY2(matches(t, kPlaceholder) == matches(m.source, kPlaceholder),
                         qPrintable(where + QStringLiteral(" -> ") + t));
                QVERIFY2(matches(t, kMarkup) == matches(m.source, kMarkup),
                         qPrintable(where + QStringLiteral(" -> ") + t));
                QVERIFY2(matches(t, kKeys) == matches(m.source, kKeys),
                         qPrintable(where + QStringLiteral(" -> ") + t));
                QVERIFY2(matches(t, kMnemonic).size() == matches(m.source, kMnemonic).size(),
                         qPrintable(where + QStringLiteral(" -> ") + t));
                if (code == QLatin1String("zh_CN") && t.contains(QLatin1Char('&')))
                    QVERIFY2(t.contains(
                                 QRegularExpression(QStringLiteral("\\(&[A-Z0-9]\\)(\\.\\.\\.|…)?[:：]?$"))),
                             qPrintable(where + QStringLiteral(" -> ") + t +
                                        QStringLiteral(": not the (&X) style")));
            }
            // The built .qm is this .ts (a stale build would fail here).
            if (!plural)
                QVERIFY2(built.translate(m.context.toUtf8().constData(), m.source.toUtf8().constData()) ==
                             m.translations.first(),
                         qPrintable(where));
        }
    }

    void theWindowSpeaksTheInstalledLanguage_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("menus");
        QTest::addColumn<QString>("docks");
        QTest::newRow("es") << "es" << QStringList{"&Archivo", "&Editar", "E&jecutar", "&Ver", "Ay&uda"}
                            << "Argumentos";
        QTest::newRow("zh_CN") << "zh_CN"
                               << QStringList{"文件(&F)", "编辑(&E)", "运行(&R)", "视图(&V)", "帮助(&H)"}
                               << "参数";
    }
    void theWindowSpeaksTheInstalledLanguage() {
        QFETCH(QString, code);
        QFETCH(QStringList, menus);
        QFETCH(QString, docks);
        QVERIFY(Language::install(code));
        MainWindow window;
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.resize(1280, 800);
        window.show();
        QVERIFY(
            window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/multiply_them.kpad.json")));
        const QStringList titles = menuTitles(window);
        for (const QString& menu : menus)
            QVERIFY2(titles.contains(menu), qPrintable(titles.join(QLatin1Char(' '))));
        auto* arguments = window.findChild<QDockWidget*>(QStringLiteral("argumentsDock"));
        QVERIFY(arguments);
        QCOMPARE(arguments->windowTitle(), docks);
        QTest::qWait(200);
        const QString shot = QDir::temp().filePath(QStringLiteral("kernelpad-language-%1.png").arg(code));
        QVERIFY(window.grab().save(shot));

        // The shortcuts list reads the translated menus, without their accelerators.
        HelpDialog* help = window.showHelp(int(HelpDialog::Page::Shortcuts));
        for (int r = 0; r < help->shortcuts()->rowCount(); ++r)
            for (int c = 0; c < 2; ++c) {
                const QString cell = help->shortcuts()->item(r, c)->text();
                QVERIFY2(!cell.contains(QLatin1Char('&')) &&
                             !cell.contains(QRegularExpression(QStringLiteral("\\([A-Z]\\)"))),
                         qPrintable(cell));
            }
        help->grab().save(
            QDir::temp().filePath(QStringLiteral("kernelpad-language-%1-shortcuts.png").arg(code)));
        help->close();
        window.close();
    }
};

QTEST_MAIN(TestLanguage)
#include "tst_language.moc"
