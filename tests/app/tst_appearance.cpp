// Themes and presentation mode: the main window in presentation mode has large fonts in the editor, the
// tables, the panels and the plots, high contrast and full screen, and leaving it gives every size back
// exactly; widgets made during it are scaled once; the dark theme darkens the editor, the panels and the
// plots with readable text, and is remembered. Drives the real window offscreen and looks at screenshots.
#include "Appearance.h"
#include "KernelEditor.h"
#include "LessonView.h"
#include "MainWindow.h"
#include "PlotAppearance.h"
#include "SweepPlots.h"
#include "TimingsView.h"

#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <Qsci/qscilexer.h>
#include <Qsci/qscilexercpp.h>
#include <QtTest>
#include <qcustomplot.h>

namespace {

// The sizes a reader sees, gathered from every kind of place that has text.
struct Sizes {
    qreal app = 0, menu = 0, table = 0, output = 0, plotTicks = 0, plotLegend = 0;
    long editorLine = 0; // pixels from one line of code to the next
    bool operator==(const Sizes&) const = default;
};

Sizes sizesOf(MainWindow& window) {
    QCoreApplication::processEvents(); // the application's font reaches the widgets as posted events
    Sizes s;
    s.app = QApplication::font().pointSizeF();
    s.menu = window.menuBar()->font().pointSizeF();
    const auto tables = window.timings()->findChildren<QTableView*>();
    s.table = tables.isEmpty() ? 0 : tables.front()->font().pointSizeF();
    s.output = window.output()->font().pointSizeF();
    QCustomPlot* plot = window.timings()->barsPlot();
    plot->replot();
    s.plotTicks = plot->xAxis->tickLabelFont().pointSizeF();
    s.plotLegend = plot->legend->font().pointSizeF();
    s.editorLine = window.editor()->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, 0);
    return s;
}

QByteArray describe(const Sizes& s) {
    return QStringLiteral("app %1 menu %2 table %3 output %4 ticks %5 legend %6 editor line %7 px")
        .arg(s.app)
        .arg(s.menu)
        .arg(s.table)
        .arg(s.output)
        .arg(s.plotTicks)
        .arg(s.plotLegend)
        .arg(s.editorLine)
        .toUtf8();
}

const int kCodeStyles[] = {
    QsciLexerCPP::Default,      QsciLexerCPP::Comment,     QsciLexerCPP::CommentLine,
    QsciLexerCPP::Number,       QsciLexerCPP::Keyword,     QsciLexerCPP::DoubleQuotedString,
    QsciLexerCPP::PreProcessor, QsciLexerCPP::Operator,    QsciLexerCPP::Identifier,
    QsciLexerCPP::KeywordSet2,  QsciLexerCPP::GlobalClass, QsciLexerCPP::CommentDoc};

// The weakest contrast of text on paper among the styles code is drawn in.
double weakestCodeContrast(KernelEditor* editor) {
    double weakest = 21;
    for (int style : kCodeStyles)
        weakest =
            std::min(weakest, contrastRatio(editor->lexer()->color(style), editor->lexer()->paper(style)));
    return weakest;
}

// multiply_them over 1,000 to 10 million elements on an H100 and the CPU backend: the GPU's kernel wins
// from about 3,000 elements.
kp::run::SweepResult sweep() {
    kp::run::SweepResult result;
    result.spec.from = 1000;
    result.spec.to = 1e7;
    result.spec.steps = 5;
    result.spec.backends = {"cuda:0", "cpu"};
    result.title = "multiply_them";
    result.kernel = "multiply_them";
    result.array = "dest";
    result.backends.push_back({"cuda:0", "cuda:0 NVIDIA H100 80GB HBM3", {3352, 66900}});
    result.backends.push_back({"cpu", "cpu (16 threads)", {}});
    for (const std::int64_t n : {1000, 10000, 100000, 1000000, 10000000})
        for (const std::string backend : {"cuda:0", "cpu"}) {
            kp::run::SweepRow r;
            r.value = n;
            r.elements = static_cast<std::uint64_t>(n);
            r.backend = backend;
            const double x = static_cast<double>(n);
            const double ms = backend == "cpu" ? 0.002 + 3e-6 * x : 0.008 + 1e-8 * x;
            r.kernelMs = {ms, 0.97 * ms, 1.1 * ms};
            r.bytes = 12 * r.elements;
            r.flops = x;
            r.check = "passed";
            result.rows.push_back(r);
        }
    return result;
}

// Whether every run of code in the lesson is at the size of the lesson's text (there is code to check).
bool lessonCodeAtTextSize(LessonView* lesson) {
    int runs = 0;
    for (QTextBlock block = lesson->document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (const QTextCharFormat format = it.fragment().charFormat(); format.fontFixedPitch()) {
                if (format.fontPointSize() != lesson->font().pointSizeF()) return false;
                ++runs;
            }
    return runs > 0;
}

} // namespace

class TestAppearance : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    void openSample(MainWindow& window) {
        window.setSaveQuestion(
            [] { return QMessageBox::Discard; }); // the test decides: its edits are not kept
        window.resize(1280, 800);
        window.show();
        QVERIFY(
            window.openFile(QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/multiply_them.kpad.json")));
    }

    void save(QWidget& widget, const QString& name) {
        QCoreApplication::processEvents(); // palette and font changes reach the widgets as events
        const QImage shot = widget.grab().toImage();
        QVERIFY(!shot.isNull());
        QVERIFY(shot.save(QStringLiteral("/tmp/kernelpad_%1.png").arg(name)));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
    }

    void cleanup() {
        applyAppearance(Appearance{});
        QSettings().clear();
    }

    void contrastIsMeasuredAsWcagDoes() {
        QCOMPARE(qRound(contrastRatio(Qt::black, Qt::white) * 10), 210);
        QCOMPARE(contrastRatio(QColor(0x77, 0x77, 0x77), QColor(0x77, 0x77, 0x77)), 1.0);
        // #767676 on white is the classic 4.5:1 grey.
        QVERIFY(std::abs(contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white) - 4.54) < 0.01);
        const QColor orange(255, 160, 60);
        QVERIFY(contrastRatio(orange, Qt::white) < 3);
        QVERIFY(contrastRatio(withContrast(orange, Qt::white, 7), Qt::white) >= 7);
        QCOMPARE(withContrast(orange, Qt::white, 7).hslHue(), orange.hslHue());
    }

    void darkThemeTurnsPaperAndGreysOverAndKeepsColoursReadable() {
        const Appearance dark{Theme::Dark, false};
        const QColor base = colorsOf(dark).base;
        QCOMPARE(adaptBackground(Qt::white, dark), base);
        QVERIFY(adaptBackground(QColor(0xc8, 0xc8, 0xc8), dark).lightness() <
                100); // a light grid line stays subtle
        const QColor text = adaptForeground(Qt::black, base, dark);
        QVERIFY2(contrastRatio(text, base) >= 4.5, qPrintable(text.name()));
        const QColor blue = adaptForeground(QColor(0, 0, 0xa0), base, dark);
        QVERIFY(contrastRatio(blue, base) >= 4.5);
        QCOMPARE(blue.hslHue(), QColor(0, 0, 0xa0).hslHue());
        // The light theme shows what was drawn.
        QCOMPARE(adaptForeground(QColor(255, 160, 60), Qt::white, Appearance{}), QColor(255, 160, 60));
        QCOMPARE(adaptBackground(QColor(0xfd, 0xe8, 0xe8), Appearance{}), QColor(0xfd, 0xe8, 0xe8));
    }

    void presentationScalesFontsEverywhereAndGivesThemBack() {
        MainWindow window;
        openSample(window);
        const Sizes before = sizesOf(window);
        QVERIFY2(before.app > 0 && before.table > 0 && before.output > 0 && before.plotTicks > 0,
                 describe(before));
        QVERIFY(!window.isFullScreen());

        window.presentationAction()->trigger();
        QVERIFY(currentAppearance().presentation);
        QVERIFY(window.presentationAction()->isChecked());
        QTRY_VERIFY(window.isFullScreen());
        const Sizes large = sizesOf(window);
        QVERIFY(lessonCodeAtTextSize(window.lesson())); // the lesson's code grew with its text
        const double k = Appearance::kPresentationScale;
        QCOMPARE(large.app, before.app * k);
        QCOMPARE(large.menu, before.menu * k);
        QCOMPARE(large.table, before.table * k);
        QCOMPARE(large.output, before.output * k); // a font the output pane set for itself
        QCOMPARE(large.plotTicks, before.plotTicks * k);
        QCOMPARE(large.plotLegend, before.plotLegend * k);
        QVERIFY2(static_cast<double>(large.editorLine) >= static_cast<double>(before.editorLine) * 1.4,
                 describe(before) + " / " + describe(large));
        // High contrast: the panels' text and the code on their backgrounds at 7:1 or more.
        const QPalette palette = QApplication::palette();
        QVERIFY(contrastRatio(palette.color(QPalette::WindowText), palette.color(QPalette::Window)) >= 7);
        QVERIFY(contrastRatio(palette.color(QPalette::Text), palette.color(QPalette::Base)) >= 7);
        QVERIFY2(weakestCodeContrast(window.editor()) >= 7,
                 QByteArray::number(weakestCodeContrast(window.editor())));
        save(window, QStringLiteral("presentation"));

        // Applying it again scales nothing twice.
        applyAppearance(currentAppearance());
        const Sizes again = sizesOf(window);
        QVERIFY2(again == large, describe(again) + " / " + describe(large));

        window.presentationAction()->trigger();
        QVERIFY(!currentAppearance().presentation);
        QTRY_VERIFY(!window.isFullScreen());
        QVERIFY(lessonCodeAtTextSize(window.lesson()));
        const Sizes after = sizesOf(window);
        QVERIFY2(after == before, describe(after) + " / " + describe(before));
        QVERIFY2(weakestCodeContrast(window.editor()) < 7, "the light theme shows the editor's own colours");
        QCOMPARE(window.editor()->lexer()->color(QsciLexerCPP::Keyword), QColor(0x00, 0x00, 0xa0));
        window.close();
    }

    void widgetsMadeDuringPresentationAreScaledOnce() {
        const QFont base = QApplication::font();
        Appearance presenting;
        presenting.presentation = true;
        applyAppearance(presenting);
        const double k = Appearance::kPresentationScale;

        // A label that made its font bold from the (already large) application font.
        QLabel label(QStringLiteral("bold"));
        QFont bold = label.font();
        bold.setBold(true);
        label.setFont(bold);
        label.show();
        QCOMPARE(label.font().pointSizeF(), base.pointSizeF() * k);

        // A plot made now: its axes and an 8-point label drawn by the code grow once.
        QCustomPlot plot;
        followAppearance(&plot);
        auto* note = new QCPItemText(&plot);
        note->setFont(QFont(base.family(), 8));
        note->setText(QStringLiteral("note"));
        plot.replot();
        QCOMPARE(plot.xAxis->tickLabelFont().pointSizeF(), base.pointSizeF() * k);
        QCOMPARE(note->font().pointSizeF(), 8 * k);
        plot.replot();
        QCOMPARE(note->font().pointSizeF(), 8 * k);

        // The code changes the label's font later: the new size is what it drew, and it is scaled.
        note->setFont(QFont(base.family(), 10));
        plot.replot();
        QCOMPARE(note->font().pointSizeF(), 10 * k);
        applyAppearance(Appearance{});
        plot.replot();
        QCOMPARE(note->font().pointSizeF(), 10.0);
        QCOMPARE(plot.xAxis->tickLabelFont().pointSizeF(), base.pointSizeF());
        QCOMPARE(label.font().pointSizeF(), base.pointSizeF());
    }

    // The Run and Stop icons were the style's dark grey glyphs, nearly invisible on the dark tool bar;
    // the bounds check showed no off state. Each icon's strongest ink, as the tool bar shows it, now
    // stands out from the bar in both themes, and the check's off and on pictures differ.
    void runAndStopIconsShowOnBothThemes() {
        MainWindow window;
        window.show();
        for (const Theme theme : {Theme::Light, Theme::Dark}) {
            window.themeAction(theme)->trigger();
            QCoreApplication::processEvents();
            const QColor bar = window.palette().color(QPalette::Window);
            for (QAction* action : {window.runAction(), window.stopAction()}) {
                const QImage icon = action->icon().pixmap(24, 24).toImage();
                double best = 1;
                for (int y = 0; y < icon.height(); ++y)
                    for (int x = 0; x < icon.width(); ++x)
                        if (const QColor c = icon.pixelColor(x, y); c.alpha() > 200)
                            best = std::max(best, contrastRatio(c, bar));
                QVERIFY2(best >= 3,
                         qPrintable(QStringLiteral("%1 on the %2 theme: contrast %3")
                                        .arg(action->text(), theme == Theme::Dark ? "dark" : "light")
                                        .arg(best)));
            }
        }
        QAction* bounds = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->isCheckable() && action->text().contains(QStringLiteral("Bounds"))) bounds = action;
        QVERIFY(bounds);
        QVERIFY(!bounds->icon().isNull());
        QVERIFY(bounds->icon().pixmap(24, 24, QIcon::Normal, QIcon::Off).toImage() !=
                bounds->icon().pixmap(24, 24, QIcon::Normal, QIcon::On).toImage());
        window.themeAction(Theme::Light)->trigger();
    }

    void darkThemeDarkensEditorPanelsAndPlots() {
        MainWindow window;
        openSample(window);
        QCustomPlot* plot = window.timings()->barsPlot();
        plot->replot();
        const QPen lightAxis = plot->xAxis->basePen();
        QCOMPARE(plot->xAxis->tickLabelColor(), QColor(Qt::black));

        window.themeAction(Theme::Dark)->trigger();
        QVERIFY(currentAppearance().dark());
        QVERIFY(window.themeAction(Theme::Dark)->isChecked());
        const QPalette palette = QApplication::palette();
        QVERIFY(palette.color(QPalette::Window).lightness() < 60);
        QVERIFY(palette.color(QPalette::Base).lightness() < 40);
        QVERIFY(contrastRatio(palette.color(QPalette::WindowText), palette.color(QPalette::Window)) >= 7);

        KernelEditor* editor = window.editor();
        QVERIFY(editor->lexer()->paper(QsciLexerCPP::Default).lightness() < 40);
        QVERIFY2(weakestCodeContrast(editor) >= 4.5, QByteArray::number(weakestCodeContrast(editor)));
        QVERIFY(editor->lexer()->color(QsciLexerCPP::Keyword) !=
                editor->lexer()->color(QsciLexerCPP::Comment));

        plot->replot();
        QVERIFY(plot->xAxis->tickLabelColor().lightness() > 180);
        QVERIFY(plot->xAxis->basePen().color().lightness() > 180);
        QVERIFY(contrastRatio(plot->xAxis->tickLabelColor(),
                              adaptBackground(Qt::white, currentAppearance())) >= 4.5);
        // A label marked as an error is readable on the dark panels.
        QLabel error(QStringLiteral("wrong"));
        setTone(&error, Tone::Error);
        QVERIFY(contrastRatio(error.palette().color(QPalette::WindowText), palette.color(QPalette::Window)) >=
                4.5);
        save(window, QStringLiteral("dark"));

        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("dark"));
        {
            MainWindow again; // the next window (the next start) opens in the theme chosen
            QVERIFY(again.themeAction(Theme::Dark)->isChecked());
        }
        QVERIFY(currentAppearance().dark());

        window.themeAction(Theme::Light)->trigger();
        plot->replot();
        QCOMPARE(plot->xAxis->tickLabelColor(), QColor(Qt::black));
        QCOMPARE(plot->xAxis->basePen(), lightAxis);
        QCOMPARE(editor->lexer()->color(QsciLexerCPP::Keyword), QColor(0x00, 0x00, 0xa0));
        QCOMPARE(editor->lexer()->paper(QsciLexerCPP::Default), QColor(Qt::white));
        QCOMPARE(error.palette().color(QPalette::WindowText), colorsOf(Appearance{}).error);
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("light"));
        window.close();
    }

    void sweepPlotsInTheDarkThemeAndPresentation() {
        applyAppearance(Appearance{Theme::Dark, true});
        SweepPlots plots;
        plots.resize(1100, 700);
        plots.setResult(sweep());
        plots.show();
        QCustomPlot* time = plots.timePlot();
        time->replot();
        QVERIFY(time->graphCount() >= 2);
        QVERIFY(time->itemCount() > 0); // the crossover's line and label
        const QColor background = adaptBackground(Qt::white, currentAppearance());
        QVERIFY(background.lightness() < 20);
        for (int i = 0; i < time->itemCount(); ++i)
            if (auto* label = qobject_cast<QCPItemText*>(time->item(i)); label && !label->text().isEmpty()) {
                const QColor box =
                    label->brush().style() == Qt::NoBrush ? background : label->brush().color();
                QVERIFY2(contrastRatio(label->color(), box) >= 7, qPrintable(label->text()));
                QVERIFY(label->font().pointSizeF() >= 8 * Appearance::kPresentationScale);
            }
        QVERIFY(contrastRatio(time->xAxis->labelColor(), background) >= 7);
        // The legend's entries, made after the legend was themed, are scaled and coloured once.
        QVERIFY(time->legend->itemCount() >= 2);
        for (int i = 0; i < time->legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* entry = time->legend->item(i)) {
                QCOMPARE(entry->font().pointSizeF(), time->legend->font().pointSizeF());
                QVERIFY(contrastRatio(entry->textColor(), background) >= 7);
            }
        QVERIFY(time->graph(0)->pen().widthF() > 1.8);
        // Leaving and entering presentation with the entries there: each is scaled once, from what the
        // code set, and its colour turned once.
        const QFont entryFont = time->legend->item(0)->font();
        const QColor entryColour = time->legend->item(0)->textColor();
        applyAppearance(Appearance{Theme::Dark, false});
        time->replot();
        QCOMPARE(time->legend->item(0)->font().pointSizeF(),
                 entryFont.pointSizeF() / Appearance::kPresentationScale);
        applyAppearance(Appearance{Theme::Dark, true});
        time->replot();
        QCOMPARE(time->legend->item(0)->font(), entryFont);
        QCOMPARE(time->legend->item(0)->textColor(), entryColour);
        QCoreApplication::processEvents();
        save(plots, QStringLiteral("sweep_dark_presentation"));
    }

    void plotsInTheDarkThemeKeepTheirHues() {
        Appearance dark;
        dark.theme = Theme::Dark;
        applyAppearance(dark);
        QCustomPlot plot;
        followAppearance(&plot);
        QCPGraph* graph = plot.addGraph();
        graph->setPen(QPen(QColor(0x3d, 0x9a, 0x3a), 1.8));
        graph->setData({1, 2, 3}, {1, 4, 9});
        plot.replot();
        QCOMPARE(graph->pen().color().hslHue(), QColor(0x3d, 0x9a, 0x3a).hslHue());
        QVERIFY(contrastRatio(graph->pen().color(), adaptBackground(Qt::white, dark)) >= 4.5);
        // The code draws a new pen: it is the one adapted, not the old one.
        graph->setPen(QPen(QColor(0xe0, 0x8a, 0x2c), 1.8));
        plot.replot();
        QCOMPARE(graph->pen().color().hslHue(), QColor(0xe0, 0x8a, 0x2c).hslHue());
        applyAppearance(Appearance{});
        plot.replot();
        QCOMPARE(graph->pen().color(), QColor(0xe0, 0x8a, 0x2c));
        QCOMPARE(graph->pen().widthF(), 1.8);
    }
};

QTEST_MAIN(TestAppearance)
#include "tst_appearance.moc"
