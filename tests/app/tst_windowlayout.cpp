// The window on the screens a class has: a 1366×768 laptop, a 1920×1080 desktop and the same projector in
// presentation mode. On each the whole window fits (menu to status bar), no dock covers another or the
// code, the editor shows at least 30 lines of 100 columns (25 in presentation), and leaving presentation
// gives back the layout exactly. The offscreen platform is given those screens from a file, so that the
// window is laid out on the sizes a person has, not on the platform's default 800×600.
#include "Appearance.h"
#include "KernelEditor.h"
#include "MainWindow.h"
#include "OutputPane.h"
#include "ResultsView.h"
#include "SamplesBrowser.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QScreen>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QWindow>
#include <Qsci/qsciscintilla.h>
#include <QtTest>

namespace {

QScreen* screenNamed(const QString& name) {
    for (QScreen* screen : QGuiApplication::screens())
        if (screen->name() == name) return screen;
    return nullptr;
}

// What the editor shows without scrolling: whole lines, and whole columns of its own font's digits.
struct EditorView {
    long lines = 0;
    long columns = 0;
};

EditorView editorView(KernelEditor* editor) {
    EditorView view;
    view.lines = editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
    long margins = editor->SendScintilla(QsciScintillaBase::SCI_GETMARGINLEFT) +
                   editor->SendScintilla(QsciScintillaBase::SCI_GETMARGINRIGHT);
    for (int margin = 0; margin < 5; ++margin)
        margins +=
            editor->SendScintilla(QsciScintillaBase::SCI_GETMARGINWIDTHN, static_cast<unsigned long>(margin));
    const long digits = editor->SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH, 0UL, "0000000000");
    view.columns = (editor->viewport()->width() - margins) * 10 / std::max(1L, digits);
    return view;
}

QString describe(const QWidget* widget) {
    const QRect r = widget->geometry();
    return QStringLiteral("%1 at %2,%3 %4×%5")
        .arg(widget->objectName())
        .arg(r.x())
        .arg(r.y())
        .arg(r.width())
        .arg(r.height());
}

// The docks a person sees (a tab behind another is hidden), in the window's coordinates.
QList<QDockWidget*> shownDocks(const MainWindow& window) {
    QList<QDockWidget*> docks;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible() && !dock->isFloating() && !dock->visibleRegion().isEmpty()) docks << dock;
    return docks;
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The window as a student opens it on `screen`: filling the screen's free area, on the reduction
    // sample (a lesson, two arrays and a launch to draw).
    static void openOn(MainWindow& window, QScreen* screen) {
        window.setWindowState(Qt::WindowNoState); // not the first start's maximized window on the primary
        window.winId();
        window.windowHandle()->setScreen(screen);
        window.setGeometry(screen->availableGeometry());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/reduction/reduction.kpad.json")));
        QTest::qWait(50);
    }

    // Opens the sample `name` in `window` and runs it on the backend the window chose; the run passes.
    static void runSample(MainWindow& window, const QString& name) {
        QVERIFY(window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/%1/%1.kpad.json").arg(name)));
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QTRY_VERIFY(!window.compiling());
        QVERIFY(window.startRun());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QTest::qWait(50);
    }

    static void checkFits(MainWindow& window, QScreen* screen, long lines) {
        const QSize size = screen->availableGeometry().size();
        QVERIFY2(window.minimumSizeHint().width() <= size.width() &&
                     window.minimumSizeHint().height() <= size.height(),
                 qPrintable(QStringLiteral("the window needs at least %1×%2")
                                .arg(window.minimumSizeHint().width())
                                .arg(window.minimumSizeHint().height())));
        QCOMPARE(window.size(), size);
        const QRect inside = window.rect();
        QVERIFY(inside.contains(window.statusBar()->geometry()));
        QVERIFY(window.statusBar()->isVisible() || window.isFullScreen());
        QVERIFY(inside.contains(window.centralWidget()->geometry()));
        const QList<QDockWidget*> docks = shownDocks(window);
        QVERIFY(docks.size() >= 3);
        for (QDockWidget* dock : docks) {
            QVERIFY2(inside.contains(dock->geometry()), qPrintable(describe(dock)));
            QVERIFY2(!dock->geometry().intersects(window.centralWidget()->geometry()),
                     qPrintable(describe(dock) + QStringLiteral(" covers the code")));
            const QSize needs = dock->widget()->minimumSizeHint();
            QVERIFY2(dock->widget()->width() >= needs.width() && dock->widget()->height() >= needs.height(),
                     qPrintable(
                         describe(dock) +
                         QStringLiteral(" is squeezed below %1×%2").arg(needs.width()).arg(needs.height())));
            for (QDockWidget* other : docks)
                QVERIFY2(other == dock || !dock->geometry().intersects(other->geometry()),
                         qPrintable(describe(dock) + QStringLiteral(" overlaps ") + describe(other)));
        }
        const EditorView view = editorView(window.editor());
        QVERIFY2(view.lines >= lines, qPrintable(QStringLiteral("%1 lines").arg(view.lines)));
        QVERIFY2(view.columns >= 100, qPrintable(QStringLiteral("%1 columns").arg(view.columns)));
    }

    void grab(QWidget& window, const char* name) {
        QVERIFY(window.grab().save(dir_.filePath(QLatin1String(name))));
        if (qEnvironmentVariableIsSet("KERNELPAD_SCREENSHOTS"))
            QVERIFY(window.grab().save(qEnvironmentVariable("KERNELPAD_SCREENSHOTS") + QLatin1Char('/') +
                                       QLatin1String(name)));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(screenNamed(QStringLiteral("laptop")));
        QVERIFY(screenNamed(QStringLiteral("projector")));
    }

    void fitsTheScreen_data() {
        QTest::addColumn<QString>("screen");
        QTest::newRow("1366x768") << QStringLiteral("laptop");
        QTest::newRow("1920x1080") << QStringLiteral("projector");
        QTest::newRow("1600x1000") << QStringLiteral("teacher");
    }

    // Opened for the first time (no layout remembered), on the whole of the screen.
    void fitsTheScreen() {
        QFETCH(QString, screen);
        QScreen* on = screenNamed(screen);
        QVERIFY(on);
        MainWindow window;
        openOn(window, on);
        checkFits(window, on, 30);
        grab(window, qPrintable(QStringLiteral("window-%1.png").arg(QLatin1String(QTest::currentDataTag()))));
        // The samples list shows a good part of the catalogue, in its column or brought to the front.
        window.findChild<QDockWidget*>(QStringLiteral("samplesDock"))->raise();
        QTest::qWait(20);
        auto* list = window.findChild<SamplesBrowser*>()->list();
        QVERIFY(!list->visibleRegion().isEmpty());
        QVERIFY2(list->viewport()->height() >= 8 * list->sizeHintForRow(0),
                 qPrintable(QStringLiteral("the samples list is %1 px").arg(list->viewport()->height())));
    }

    // Results, with their table and plot, take the room under the code that they are given: the code
    // keeps its lines after a run on the laptop.
    void aRunKeepsTheCodeInView() {
        QScreen* laptop = screenNamed(QStringLiteral("laptop"));
        MainWindow window;
        openOn(window, laptop);
        runSample(window, QStringLiteral("histogram_global"));
        if (QTest::currentTestFailed()) return;
        checkFits(window, laptop, 30);
        grab(window, "window-1366x768-results.png");
        // The same in the dark theme: the layout does not move, and the picture goes in the README.
        window.themeAction(Theme::Dark)->trigger();
        QTest::qWait(50);
        checkFits(window, laptop, 30);
        grab(window, "window-1366x768-dark.png");
        window.themeAction(Theme::Light)->trigger();
    }

    // A one-number result on the laptop: under the code's 30 lines it reads in the results' top line,
    // and the table's row of it is in view (the single output's tab bar gave its line to the table).
    void aOneNumberResultReadsUnderTheCode() {
        QScreen* laptop = screenNamed(QStringLiteral("laptop"));
        MainWindow window;
        openOn(window, laptop);
        runSample(window, QStringLiteral("cooperative_groups_reduction"));
        if (QTest::currentTestFailed()) return;
        checkFits(window, laptop, 30);
        OutputPane* pane = window.results()->pane(QStringLiteral("total"));
        QVERIFY(pane && pane->oneValueLabel());
        QVERIFY(pane->oneValueLabel()->text().startsWith(QStringLiteral("total = ")));
        QVERIFY(!pane->oneValueLabel()->visibleRegion().isEmpty());
        QCOMPARE(pane->oneValueLabel()->visibleRegion().boundingRect().size(), pane->oneValueLabel()->size());
        QVERIFY2(pane->table()->viewport()->height() >= pane->table()->rowHeight(0),
                 qPrintable(QStringLiteral("the table shows %1 px of its %2-px row")
                                .arg(pane->table()->viewport()->height())
                                .arg(pane->table()->rowHeight(0))));
        grab(window, "window-1366x768-one-number.png");
        // Presenting from the laptop (larger text: the screen holds 21 lines of 68 columns of it, not a
        // projector's 25 of 100): the number still reads whole.
        window.presentationAction()->trigger();
        QTRY_VERIFY(window.isFullScreen());
        QTest::qWait(50);
        QVERIFY(!pane->oneValueLabel()->visibleRegion().isEmpty());
        QCOMPARE(pane->oneValueLabel()->visibleRegion().boundingRect().size(), pane->oneValueLabel()->size());
        grab(window, "window-1366x768-one-number-presenting.png");
        window.presentationAction()->trigger();
        QTRY_VERIFY(!window.isFullScreen());
    }

    // Presentation mode on the projector: large text, and still 25 lines of 100 columns; F11 again gives
    // back the window and every dock where they were.
    void presentationFitsAndLeavesTheLayoutAsItWas() {
        QScreen* projector = screenNamed(QStringLiteral("projector"));
        MainWindow window;
        openOn(window, projector);
        QTest::qWait(50);
        const QRect before = window.geometry();
        QHash<QString, QRect> docksBefore;
        for (QDockWidget* dock : shownDocks(window))
            docksBefore.insert(dock->objectName(), dock->geometry());
        const auto zoomBefore = window.editor()->SendScintilla(QsciScintillaBase::SCI_GETZOOM);

        window.presentationAction()->trigger();
        QTRY_VERIFY(window.isFullScreen());
        QTest::qWait(50);
        QCOMPARE(window.geometry(), projector->geometry());
        checkFits(window, projector, 25);
        grab(window, "window-presentation.png");

        window.presentationAction()->trigger();
        QTRY_VERIFY(!window.isFullScreen());
        QTest::qWait(50);
        QCOMPARE(window.geometry(), before);
        QCOMPARE(window.editor()->SendScintilla(QsciScintillaBase::SCI_GETZOOM), zoomBefore);
        QHash<QString, QRect> docksAfter;
        for (QDockWidget* dock : shownDocks(window))
            docksAfter.insert(dock->objectName(), dock->geometry());
        QCOMPARE(docksAfter, docksBefore);
    }
};

int main(int argc, char** argv) {
    // Three screens side by side; each test puts the window on one.
    QTemporaryDir screens;
    if (!screens.isValid()) return 2;
    const QString config = screens.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly)) return 2;
    file.write(R"({"windowFrameMargins": false, "screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "projector", "x": 1366, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "teacher", "x": 3286, "y": 0, "width": 1600, "height": 1000, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
    ]})");
    file.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    QApplication app(argc, argv);
    TestWindowLayout test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_windowlayout.moc"
