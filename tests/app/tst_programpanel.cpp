// The Steps panel in a real window: a program opens with its steps in front and how often each runs; a
// field typed wrong is marked on its step as you type; steps are added, moved and deleted and the program
// saves and reopens as it was; a single launch becomes a program that runs on the CPU backend with its
// timeline; and a run that faults selects the step it names. Screenshots go to /tmp for a person to look at.
#include "BackendChooser.h"
#include "KernelEditor.h"
#include "LaunchPanel.h"
#include "MainWindow.h"
#include "ProblemsView.h"
#include "ProgramController.h"
#include "ProgramPanel.h"
#include "ResultsView.h"
#include "RunActions.h"
#include "SampleCopy.h"
#include "TimingsView.h"
#include "core/io/PlaygroundFile.h"

#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <qcustomplot.h>

namespace {

const QString kProgram =
    QStringLiteral(KP_SOURCE_DIR "/samples/sum_squares_multipass/sum_squares_multipass.kpad.json");

QTreeWidgetItem* stepItem(QTreeWidget* tree, const QString& startsWith) {
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if ((*it)->text(0).startsWith(startsWith)) return *it;
    return nullptr;
}

} // namespace

class TestProgramPanel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Opens `path` on the CPU backend and waits for its compile and its program's plan.
    static bool open(MainWindow& window, const QString& path) {
        QSignalSpy compiled(&window, &MainWindow::compileFinished);
        QSignalSpy planned(window.programs(), &ProgramController::planned);
        window.backends()->setBackend(QStringLiteral("cpu"));
        if (!window.openFile(path)) return false;
        if (!compiled.wait(120000)) return false;
        return !window.steps()->isProgram() || planned.count() > 0 || planned.wait(10000);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        qputenv("KERNELPAD_RECOVERY_DIR", dir_.filePath(QStringLiteral("recovery")).toLocal8Bit());
        qputenv("KERNELPAD_WORKER", KP_WORKER_PATH);
    }

    void opensAProgramWithItsStepsInFront() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.resize(1600, 1000);
        window.show();
        QVERIFY(open(window, kProgram));
        QTest::qWait(50);
        auto* steps = window.findChild<QDockWidget*>(QStringLiteral("stepsDock"));
        QVERIFY(steps && !steps->visibleRegion().isEmpty());
        QVERIFY(!window.launch()->isEnabled()); // a program's launches are in its steps
        auto* tree = window.steps()->tree();
        QTreeWidgetItem* loop = stepItem(tree, QStringLiteral("passes 2, 3"));
        QVERIFY(loop);
        QCOMPARE(loop->text(1), QStringLiteral("2 passes"));
        QCOMPARE(loop->childCount(), 3);
        QCOMPARE(loop->child(0)->text(1), QStringLiteral("×2"));
        QVERIFY(window.steps()->problemsLabel()->isHidden());
        QCOMPARE(window.problems()->errorCount(), 0); // the kernels of the program compile
        // The argument panel shows the program's own arguments.
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("argumentsDock")));
        window.grab().save(QStringLiteral("/tmp/kernelpad_program_steps.png"));
    }

    // A grid that names nothing is marked on its step while typing; fixing it clears the mark.
    void aBadFieldIsMarkedOnItsStep() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QVERIFY(open(window, kProgram));
        auto* panel = window.steps();
        panel->select({0});
        QLineEdit* grid = panel->field(QStringLiteral("grid.x"));
        QVERIFY(grid);
        QSignalSpy planned(window.programs(), &ProgramController::planned);
        grid->selectAll();
        QTest::keyClicks(grid, QStringLiteral("blocks"));
        QVERIFY(planned.wait(10000));
        while (planned.wait(300)) {
        }
        QVERIFY(window.isModified());
        QVERIFY(panel->problemsLabel()->isVisible());
        QVERIFY2(panel->problemsLabel()->text().contains(QStringLiteral("Step 1, grid x:")),
                 qPrintable(panel->problemsLabel()->text()));
        QTreeWidgetItem* first = panel->tree()->currentItem();
        QVERIFY(!first->icon(0).isNull());
        window.grab().save(QStringLiteral("/tmp/kernelpad_program_problem.png"));
        grid->selectAll();
        QTest::keyClicks(grid, QStringLiteral("divup(n, 2 * block)"));
        QVERIFY(planned.wait(10000));
        while (planned.wait(300)) {
        }
        QVERIFY(panel->problemsLabel()->isHidden());
        QVERIFY(first->icon(0).isNull());
    }

    // Add, move into the loop, delete: what is saved is what the panel shows, and it opens again so.
    void editsSaveAndReopen() {
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QVERIFY(open(window, kProgram));
        auto* panel = window.steps();
        panel->select({1}); // the set step
        panel->addStep(kp::model::StepKind::Fill);
        QCOMPARE(panel->steps().size(), std::size_t{5});
        QVERIFY(std::holds_alternative<kp::model::FillStep>(panel->steps()[2].action));
        panel->moveSelected(false); // into the loop, at its start
        QCOMPARE(panel->steps().size(), std::size_t{4});
        const auto& loop = std::get<kp::model::RepeatStep>(panel->steps()[2].action);
        QCOMPARE(loop.steps.size(), std::size_t{4});
        QVERIFY(std::holds_alternative<kp::model::FillStep>(loop.steps[0].action));
        panel->field(QStringLiteral("buffer"))->setText(QString());
        QTest::keyClicks(panel->field(QStringLiteral("buffer")), QStringLiteral("spare"));
        panel->duplicateSelected();
        panel->removeSelected();
        const QString copy = dir_.filePath(QStringLiteral("edited.kpad.json"));
        QVERIFY(QDir().mkpath(dir_.path()));
        for (const char* file : {"sum_squares_multipass.ref.cpp", "README.md"}) // the save writes the .cu
            QFile::copy(QStringLiteral(KP_SOURCE_DIR "/samples/sum_squares_multipass/") + QLatin1String(file),
                        dir_.filePath(QLatin1String(file)));
        QVERIFY(window.saveAs(copy));
        const auto saved = kp::io::readPlayground(copy.toStdString());
        QCOMPARE(saved.steps, panel->steps());
        const auto& fill = std::get<kp::model::FillStep>(
            std::get<kp::model::RepeatStep>(saved.steps[2].action).steps[0].action);
        QCOMPARE(fill.buffer, std::string("spare"));
        MainWindow again;
        again.setSaveQuestion([] { return QMessageBox::Discard; });
        QVERIFY(open(again, copy));
        QCOMPARE(again.steps()->steps(), saved.steps);
    }

    // multiply_them becomes a program of one launch, runs on the CPU backend, and its timeline shows.
    void aSingleLaunchBecomesAProgramThatRuns() {
        const QString path = copyMultiplyThem(dir_.filePath(QStringLiteral("mt")));
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.resize(1600, 1000);
        window.show();
        QVERIFY(open(window, path));
        QVERIFY(!window.steps()->isProgram());
        QVERIFY(window.launch()->isEnabled());
        QSignalSpy planned(window.programs(), &ProgramController::planned);
        QTest::mouseClick(window.steps()->makeProgramButton(), Qt::LeftButton);
        QVERIFY(window.steps()->isProgram());
        QVERIFY(!window.launch()->isEnabled());
        QVERIFY(planned.wait(10000));
        QVERIFY(window.steps()->problemsLabel()->isHidden());
        const auto& launch = std::get<kp::model::LaunchStep>(window.steps()->steps().front().action);
        QCOMPARE(launch.kernel, std::string("multiply_them"));
        QCOMPARE(launch.args.front(), std::string("dest"));
        QSignalSpy ran(&window, &MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(ran.wait(120000));
        QCOMPARE(ran.first().first().toBool(), true);
        QCOMPARE(window.results()->outputCount(), 1);
        QVERIFY(window.timings()->stepsPlot()->isVisibleTo(window.timings()));
        QVERIFY2(window.timings()->summaryText().contains(QStringLiteral("The program")),
                 qPrintable(window.timings()->summaryText()));
        window.grab().save(QStringLiteral("/tmp/kernelpad_program_timeline.png"));
    }

    // With bounds checking, a launch in a loop that writes past its array: the run fails and the panel
    // selects that step with the message that names its pass.
    void aFaultSelectsItsStep() {
        const QString path = dir_.filePath(QStringLiteral("poke.kpad.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "kernelpad/1", "title": "Poke",
            "code": "__global__ void poke(int* a, int at) { if (threadIdx.x == 0) a[at] = 1; }\n",
            "args": [{"name": "a", "array": {"dtype": "int32", "shape": [8]}, "direction": "inout"}],
            "steps": [{"fill": {"buffer": "a", "value": 0}},
                      {"repeat": {"times": 3, "counter": "p"},
                       "steps": [{"launch": {"kernel": "poke", "grid": [1], "block": [32], "args": ["a", "p * 4"]}}]}]})");
        file.close();
        MainWindow window;
        window.setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        QVERIFY(open(window, path));
        window.findChild<QAction*>(QStringLiteral("checkBoundsAction"))->setChecked(true);
        QSignalSpy ran(&window, &MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(ran.wait(120000));
        QCOMPARE(ran.first().first().toBool(), false);
        const auto* current = window.steps()->tree()->currentItem();
        QVERIFY(current);
        QVERIFY2(current->text(0).startsWith(QStringLiteral("poke<<<")), qPrintable(current->text(0)));
        QVERIFY2(window.steps()->problemsLabel()->text().contains(QStringLiteral("pass 3")),
                 qPrintable(window.steps()->problemsLabel()->text()));
    }
};

QTEST_MAIN(TestProgramPanel)
#include "tst_programpanel.moc"
