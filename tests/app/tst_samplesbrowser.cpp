// The samples browser and the lesson dock: the shipped samples grouped in teaching order by title,
// a selected sample's first paragraph, opening one by Enter or the Open button (the editor, the title
// and the lesson follow), a playground without a lesson, and broken samples listed with their problem.
// Drives the real window offscreen.
#include "../TestSupport.h"
#include "KernelEditor.h"
#include "LaunchPanel.h"
#include "LessonView.h"
#include "MainWindow.h"
#include "SamplesBrowser.h"

#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <nlohmann/json.hpp>

namespace {

const QString kSamples = QStringLiteral(KP_SOURCE_DIR "/samples");

QTreeWidgetItem* itemNamed(QTreeWidget* list, const QString& name) {
    for (int g = 0; g < list->topLevelItemCount(); ++g)
        for (int i = 0; i < list->topLevelItem(g)->childCount(); ++i)
            if (list->topLevelItem(g)->child(i)->data(0, Qt::UserRole + 1).toString() == name)
                return list->topLevelItem(g)->child(i);
    return nullptr;
}

} // namespace

class TestSamplesBrowser : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_CACHE_DIR", dir_.filePath(QStringLiteral("cache")).toLocal8Bit());
        qunsetenv("KERNELPAD_SAMPLES_DIR");
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
    }

    void listsTheSamplesByGroupInTeachingOrder() {
        SamplesBrowser browser;
        const int count = browser.load(kSamples);
        const auto& catalog = browser.catalog();
        QCOMPARE(count, static_cast<int>(catalog.samples.size()));
        QVERIFY(count >= 20);
        QTreeWidget* list = browser.list();
        QCOMPARE(list->topLevelItemCount(), 3);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("From the PyCUDA tutorial"));
        QCOMPARE(list->topLevelItem(1)->text(0), QStringLiteral("Classic teaching kernels"));
        QCOMPARE(list->topLevelItem(2)->text(0), QStringLiteral("Programs of several launches"));
        std::size_t next = 0;
        for (int g = 0; g < list->topLevelItemCount(); ++g) {
            QVERIFY(list->topLevelItem(g)->isExpanded());
            for (int i = 0; i < list->topLevelItem(g)->childCount(); ++i, ++next) {
                const auto& sample = catalog.samples[next];
                QCOMPARE(list->topLevelItem(g)->child(i)->text(0), QString::fromStdString(sample.title));
                QVERIFY(list->topLevelItem(g)->child(i)->toolTip(0).contains(
                    QString::fromStdString(sample.summary)));
            }
        }
        QCOMPARE(next, catalog.samples.size());
        QVERIFY(browser.findChild<QLabel*>(QStringLiteral("samplesProblems"))->isHidden());
        QCOMPARE(browser.pathOf(QStringLiteral("doublify")),
                 QString::fromStdString(catalog.find("doublify")->playground.string()));
        QCOMPARE(browser.pathOf(QStringLiteral("Multiply two vectors")),
                 kSamples + QStringLiteral("/multiply_them/multiply_them.kpad.json"));
        QVERIFY(browser.pathOf(QStringLiteral("no such sample")).isEmpty());
    }

    void selectingASampleShowsWhatItShows() {
        SamplesBrowser browser;
        browser.load(kSamples);
        auto* open = browser.findChild<QPushButton*>(QStringLiteral("samplesOpen"));
        auto* summary = browser.findChild<QLabel*>(QStringLiteral("samplesSummary"));
        QVERIFY(!open->isEnabled());
        browser.list()->setCurrentItem(itemNamed(browser.list(), QStringLiteral("sum_squares_atomic")));
        const auto* sample = browser.catalog().find("sum_squares_atomic");
        QVERIFY(open->isEnabled());
        QVERIFY2(summary->text().contains(QString::fromStdString(sample->title)),
                 qPrintable(summary->text()));
        // The first paragraph's opening; the whole lesson is in the Lesson dock once the sample is open.
        QVERIFY2(summary->text().contains(QString::fromStdString(sample->summary.substr(0, 60))),
                 qPrintable(summary->text()));
        QVERIFY2(summary->text().size() < 300, qPrintable(summary->text()));
        // A group is not a sample: nothing to open.
        browser.list()->setCurrentItem(browser.list()->topLevelItem(1));
        QVERIFY(!open->isEnabled());
    }

    void enterOpensTheSampleWithItsLesson() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTreeWidget* list = window.samples()->list();
        auto* item = itemNamed(list, QStringLiteral("sum_squares_reduction"));
        QVERIFY(item);
        list->setCurrentItem(item);
        list->setFocus();
        QTest::keyClick(list, Qt::Key_Return);
        const auto* sample = window.samples()->catalog().find("sum_squares_reduction");
        QCOMPARE(window.playgroundPath(), QString::fromStdString(sample->playground.string()));
        QVERIFY(window.editor()->text().contains(QStringLiteral("atomicAdd")));
        QVERIFY(window.windowTitle().startsWith(QString::fromStdString(sample->title)));
        QCOMPARE(window.lesson()->lessonPath(), QString::fromStdString(sample->lesson.string()));
        const QString lesson = window.lesson()->toPlainText();
        QVERIFY2(lesson.contains(QStringLiteral("What to try")), qPrintable(lesson));
        QVERIFY2(lesson.startsWith(QString::fromStdString(sample->title)), qPrintable(lesson));
        QVERIFY(!lesson.contains(QStringLiteral("## "))); // rendered, not shown as Markdown source
        // Its grid-stride loop covers the data past its fixed grid; the launch panel says so.
        QVERIFY(window.launch()->gridStride());
        QVERIFY2(window.launch()->idleText().contains(QStringLiteral("grid-stride")),
                 qPrintable(window.launch()->idleText()));
        window.grab().save(QStringLiteral("/tmp/kernelpad_samples_lesson.png"));

        // The Open button does the same for another sample.
        list->setCurrentItem(itemNamed(list, QStringLiteral("mandelbrot")));
        QTest::mouseClick(window.samples()->findChild<QPushButton*>(QStringLiteral("samplesOpen")),
                          Qt::LeftButton);
        QVERIFY(window.playgroundPath().endsWith(QStringLiteral("mandelbrot/mandelbrot.kpad.json")));
        QVERIFY(window.lesson()->lessonPath().endsWith(QStringLiteral("mandelbrot/README.md")));
        QVERIFY(!window.launch()->gridStride()); // one thread per pixel
        QTest::qWait(100);                       // let the panels lay out before the picture
        window.grab().save(QStringLiteral("/tmp/kernelpad_samples_mandelbrot.png"));
        window.close();
    }

    void openingASamplesFileSelectsIt() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        const QString path = window.samples()->pathOf(QStringLiteral("transpose_tiled"));
        QVERIFY(window.openFile(path));
        QVERIFY(window.samples()->list()->currentItem());
        QCOMPARE(window.samples()->list()->currentItem()->data(0, Qt::UserRole).toString(), path);
        window.close();
    }

    void aPlaygroundWithoutALessonSaysSo() {
        const QString path = dir_.filePath(QStringLiteral("plain.kpad.json"));
        const nlohmann::json plain = {
            {"format", "kernelpad/1"},
            {"title", "Plain"},
            {"code", "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 1; }"},
            {"kernel", "k"},
            {"launch", {{"grid", {1, 1, 1}}, {"block", {4, 1, 1}}}},
            {"args",
             {{{"name", "x"}, {"array", {{"dtype", "float32"}, {"shape", {4}}}}, {"direction", "out"}}}}};
        kp::test::writeText(path.toStdString(), plain.dump());
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(window.openFile(window.samples()->pathOf(QStringLiteral("doublify"))));
        QVERIFY(!window.lesson()->lessonPath().isEmpty());
        QVERIFY(window.openFile(path));
        QVERIFY(window.lesson()->lessonPath().isEmpty());
        QVERIFY2(window.lesson()->toPlainText().contains(QStringLiteral("has no lesson")),
                 qPrintable(window.lesson()->toPlainText()));
        // Not a sample: nothing stays selected in the browser.
        QCOMPARE(window.samples()->list()->currentItem(), nullptr);
        window.close();
    }

    void brokenSamplesAreListedWithTheirProblem() {
        QTemporaryDir folder;
        const std::string root = folder.path().toStdString();
        std::filesystem::create_directories(root + "/broken");
        kp::test::writeText(root + "/broken/broken.kpad.json", R"({"format": "kernelpad/1", "kernel": 3})");
        kp::test::writeText(root + "/index.json",
                            R"({"groups": [{"title": "G", "samples": ["broken", "gone"]}]})");
        SamplesBrowser browser;
        QCOMPARE(browser.load(folder.path()), 1);
        auto* problems = browser.findChild<QLabel*>(QStringLiteral("samplesProblems"));
        QVERIFY(!problems->isHidden());
        QVERIFY2(problems->text().contains(QStringLiteral("\"gone\"")), qPrintable(problems->text()));
        auto* item = itemNamed(browser.list(), QStringLiteral("broken"));
        QVERIFY(item);
        QVERIFY(item->text(0).contains(QStringLiteral("has a problem")));
        QVERIFY2(item->toolTip(0).contains(QStringLiteral("broken.kpad.json")), qPrintable(item->toolTip(0)));

        // A folder that is not there says so instead of showing an empty list without a word.
        QCOMPARE(browser.load(folder.filePath(QStringLiteral("nowhere"))), 0);
        QVERIFY(!problems->isHidden());
        QVERIFY(problems->text().contains(QStringLiteral("does not exist")));
    }
};

QTEST_MAIN(TestSamplesBrowser)
#include "tst_samplesbrowser.moc"
