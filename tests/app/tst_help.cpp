// Help inside the app: the guide renders, the shortcuts page lists every menu action that has keys (read
// from the menus, so it cannot drift), and the lessons page shows each sample's lesson and opens it.
#include "../TestSupport.h"
#include "HelpDialog.h"
#include "LessonView.h"
#include "MainWindow.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

namespace {

int actionsWithKeys(const QMenu* menu) {
    int count = 0;
    for (const QAction* action : menu->actions())
        count += action->menu() ? actionsWithKeys(action->menu())
                                : (!action->isSeparator() && !action->shortcuts().isEmpty());
    return count;
}

QString keysOf(const QTableWidget* table, const QString& action) {
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 1)->text() == action) return table->item(r, 2)->text();
    return {};
}

} // namespace

class TestHelp : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
        qputenv("KERNELPAD_SAMPLES_DIR", KP_SOURCE_DIR "/samples");
    }

    void guideRenders() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        HelpDialog* help = window.showHelp(int(HelpDialog::Page::Guide));
        QCOMPARE(help->tabs()->count(), 3);
        QCOMPARE(help->tabs()->currentIndex(), 0);
        const QString guide = help->guide()->toPlainText();
        QVERIFY2(guide.startsWith(QStringLiteral("Kernelpad in five minutes")), qPrintable(guide.left(200)));
        for (const char* part :
             {"Open a sample", "Choose the launch", "Sweep: GPU against CPU", "kernelpad-cli sweep"})
            QVERIFY2(guide.contains(QLatin1String(part)), part);
        help->resize(900, 640);
        help->grab().save(QDir::temp().filePath(QStringLiteral("kernelpad-help-guide.png")));
    }

    void shortcutsComeFromTheMenus() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        HelpDialog* help = window.showHelp(int(HelpDialog::Page::Shortcuts));
        QCOMPARE(help->tabs()->currentIndex(), 1);
        int expected = 0;
        for (const QAction* menu : window.menuBar()->actions())
            if (menu->menu()) expected += actionsWithKeys(menu->menu());
        QVERIFY(expected >= 10);
        QCOMPARE(help->shortcuts()->rowCount(), expected);
        QCOMPARE(keysOf(help->shortcuts(), QStringLiteral("Run")), QStringLiteral("F5, Ctrl+R"));
        QCOMPARE(keysOf(help->shortcuts(), QStringLiteral("Stop")), QStringLiteral("Esc, Shift+F5"));
        QCOMPARE(keysOf(help->shortcuts(), QStringLiteral("Sweep")), QStringLiteral("F6"));
        QCOMPARE(keysOf(help->shortcuts(), QStringLiteral("Compile")), QStringLiteral("Ctrl+B"));
        QCOMPARE(keysOf(help->shortcuts(), QStringLiteral("Kernelpad Guide")), QStringLiteral("F1"));
        for (int r = 0; r < help->shortcuts()->rowCount(); ++r) {
            QVERIFY(!help->shortcuts()->item(r, 0)->text().contains(QLatin1Char('&')));
            QVERIFY(!help->shortcuts()->item(r, 2)->text().isEmpty());
        }
        help->grab().save(QDir::temp().filePath(QStringLiteral("kernelpad-help-shortcuts.png")));
    }

    void lessonsShowAndOpenTheirSample() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        HelpDialog* help = window.showHelp(int(HelpDialog::Page::Lessons));
        QTreeWidget* list = help->lessonList();
        QCOMPARE(list->topLevelItemCount(), 3); // the tutorial's, the classic kernels, the programs
        int lessons = 0;
        QTreeWidgetItem* sumSquares = nullptr;
        for (int g = 0; g < list->topLevelItemCount(); ++g)
            for (int i = 0; i < list->topLevelItem(g)->childCount(); ++i) {
                ++lessons;
                if (list->topLevelItem(g)->child(i)->toolTip(0) == QStringLiteral("sum_squares_reduction"))
                    sumSquares = list->topLevelItem(g)->child(i);
            }
        QCOMPARE(lessons, kp::test::samplesInSourceTree());
        QVERIFY(sumSquares);
        QVERIFY(!help->openButton()->isEnabled());
        list->setCurrentItem(sumSquares);
        QVERIFY(help->openButton()->isEnabled());
        QVERIFY2(help->lesson()->lessonPath().endsWith(QStringLiteral("sum_squares_reduction/README.md")),
                 qPrintable(help->lesson()->lessonPath()));
        QVERIFY(help->lesson()->toPlainText().contains(QStringLiteral("What to look at in the timings")));
        help->grab().save(QDir::temp().filePath(QStringLiteral("kernelpad-help-lessons.png")));
        QTest::mouseClick(help->openButton(), Qt::LeftButton);
        QVERIFY2(window.playgroundPath().endsWith(
                     QStringLiteral("sum_squares_reduction/sum_squares_reduction.kpad.json")),
                 qPrintable(window.playgroundPath()));
        QVERIFY(!help->isVisible());
    }
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
