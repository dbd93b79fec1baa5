// The launch panel, driven as a user would, offscreen: a block typed past the device's limit is a
// message naming launch.block and the limit, on a red field, gone once fixed; "auto" follows the array
// and the block; totals, idle threads and occupancy follow every keystroke; launchChanged comes once per
// edit and never from the main window's set*() calls. Screenshots go to /tmp/launchpanel*.png.
#include "../TestSupport.h"
#include "GridDrawing.h"
#include "LaunchPanel.h"
#include "ProblemFrame.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

using namespace kp;

namespace {

using test::h100;

cuda::KernelAttributes kernelUsing(int registers, int maxThreads = 1024) {
    cuda::KernelAttributes a;
    a.registersPerThread = registers;
    a.maxThreadsPerBlock = maxThreads;
    return a;
}

model::LaunchSpec launchOf(std::array<std::uint32_t, 3> block, bool autoGrid = true,
                           std::array<std::uint32_t, 3> grid = {1, 1, 1}) {
    model::LaunchSpec spec;
    spec.block = block;
    spec.autoGrid = autoGrid;
    spec.grid = grid;
    return spec;
}

// Replaces the field's text with `text`, one keystroke at a time, as a user typing over a selection.
void typeInto(QSpinBox* field, const QString& text) {
    field->selectAll();
    QTest::keyClicks(field, text);
}

// How many of the image's pixels are `colour` (the drawing's solid fills) or close to it.
int pixelsOf(const QImage& image, const QColor& colour) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) +
                    std::abs(c.blue() - colour.blue()) <
                24)
                ++count;
        }
    return count;
}

} // namespace

class TestLaunchPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void typingABlockPastTheLimitShowsTheMessage() {
        LaunchPanel panel;
        panel.setLimits(launch::LaunchLimits::of(h100()));
        panel.setDataShape({1000});
        panel.show();
        QVERIFY(panel.problems().isEmpty());
        QVERIFY(!panel.problemsLabel()->isVisible());

        typeInto(panel.blockSpin(0), QStringLiteral("2048"));
        QCOMPARE(panel.blockSpin(0)->value(), 2048);
        QCOMPARE(panel.problems().size(), 1);
        const QString problem = panel.problems().front();
        QVERIFY2(problem.startsWith(QStringLiteral("launch.block")), qPrintable(problem));
        QVERIFY2(problem.contains(QStringLiteral("2048")) && problem.contains(QStringLiteral("1024")),
                 qPrintable(problem));
        QVERIFY(panel.problemsLabel()->isVisible());
        // Shown in the panel's own words: "Block: x = 2048 ...", not the file's "launch.block: ...".
        QVERIFY2(panel.problemsLabel()->text().startsWith(QStringLiteral("Block: ")),
                 qPrintable(panel.problemsLabel()->text()));
        QVERIFY(panel.problemsLabel()->text().contains(problem.mid(problem.indexOf(QLatin1Char(':')) + 2)));
        QVERIFY(panel.blockSpin(0)->property("problem").toBool());
        QVERIFY(panel.blockSpin(0)->findChild<ProblemFrame*>()->isVisible()); // the red frame
        QVERIFY(!panel.blockSpin(1)->property("problem").toBool());
        QVERIFY(!panel.gridSpin(0)->property("problem").toBool());
        panel.grab().save(QStringLiteral("/tmp/launchpanel_problem.png"));

        typeInto(panel.blockSpin(0), QStringLiteral("512"));
        QCOMPARE(panel.blockSpin(0)->value(), 512);
        QVERIFY2(panel.problems().isEmpty(), qPrintable(panel.problems().join(QLatin1Char('\n'))));
        QVERIFY(!panel.problemsLabel()->isVisible());
        QVERIFY(!panel.blockSpin(0)->property("problem").toBool());
        QVERIFY(!panel.blockSpin(0)->findChild<ProblemFrame*>()->isVisible());
    }

    void countsInTheSingular() {
        LaunchPanel panel;
        panel.setDataShape({1});
        panel.setLaunch(launchOf({1, 1, 1}));
        QCOMPARE(panel.totalsText(),
                 QStringLiteral("1 thread = 1 warp per block; 1 block, 1 thread, 1 warp in all"));
        panel.setDataShape({2});
        panel.setLaunch(launchOf({3, 1, 1}));
        QCOMPARE(panel.idleText(), QStringLiteral("1 idle thread (33.3%)"));
    }

    void marksEveryAxisWhenTheWholeBlockIsTooBig() {
        LaunchPanel panel;
        panel.setLimits(launch::LaunchLimits::of(h100()));
        panel.setDataShape({64, 64});
        panel.setLaunch(launchOf({32, 32, 1}));
        QVERIFY(panel.problems().isEmpty());
        typeInto(panel.blockSpin(2), QStringLiteral("2")); // 2048 threads, each axis within its own limit
        QCOMPARE(panel.problems().size(), 1);
        QVERIFY2(panel.problems().front().contains(QStringLiteral("2048 threads per block")),
                 qPrintable(panel.problems().front()));
        for (int axis = 0; axis < 3; ++axis)
            QVERIFY(panel.blockSpin(axis)->property("problem").toBool());
    }

    void namesTheKernelsOwnThreadLimit() {
        LaunchPanel panel;
        panel.setLimits(launch::LaunchLimits::of(h100()));
        panel.setDevice(h100());
        panel.setDataShape({4096});
        panel.setKernelAttributes(kernelUsing(128, 512));
        panel.setLaunch(launchOf({1024, 1, 1}));
        QCOMPARE(panel.problems().size(), 1);
        QVERIFY2(
            panel.problems().front().contains(QStringLiteral("at most 512 because it uses 128 registers")),
            qPrintable(panel.problems().front()));
    }

    void autoGridFollowsTheShapeAndTheBlock() {
        LaunchPanel panel;
        panel.setLaunch(launchOf({256, 1, 1}));
        panel.setDataShape({1000});
        QVERIFY(panel.autoGridBox()->isChecked());
        QCOMPARE(panel.gridSpin(0)->value(), 4);
        QVERIFY(!panel.gridSpin(0)->isEnabled());
        QCOMPARE(panel.idleText(), QStringLiteral("24 idle threads (2.3%)"));

        typeInto(panel.blockSpin(0), QStringLiteral("500"));
        QCOMPARE(panel.gridSpin(0)->value(), 2);
        QCOMPARE(panel.idleText(), QStringLiteral("0 idle threads (0.0%)"));

        panel.setDataShape({100, 100}); // x along the last dimension, y along the first
        typeInto(panel.blockSpin(0), QStringLiteral("16"));
        typeInto(panel.blockSpin(1), QStringLiteral("16"));
        QCOMPARE(panel.geometry().grid, (std::array<std::uint32_t, 3>{7, 7, 1}));
        QCOMPARE(panel.idleText(), QStringLiteral("2,544 idle threads (20.3%)"));
    }

    void turningAutoOffKeepsTheGridForEditing() {
        LaunchPanel panel;
        panel.setLaunch(launchOf({256, 1, 1}));
        panel.setDataShape({1000});
        panel.show();
        QTest::mouseClick(panel.autoGridBox(), Qt::LeftButton);
        QVERIFY(!panel.launch().autoGrid);
        QCOMPARE(panel.launch().grid, (std::array<std::uint32_t, 3>{4, 1, 1}));
        QVERIFY(panel.gridSpin(0)->isEnabled());

        typeInto(panel.gridSpin(0), QStringLiteral("3"));
        QCOMPARE(panel.launch().grid[0], 3u);
        QCOMPARE(panel.idleText(),
                 QStringLiteral("0 idle threads (0.0%); 232 elements (23.2%) past the grid: "
                                "no thread reaches them"));
    }

    void aGridStrideKernelReachesTheDataPastTheGrid() {
        LaunchPanel panel;
        panel.resize(420, 260);
        panel.setLaunch(launchOf({256, 1, 1}, false, {1024, 1, 1}));
        panel.setDataShape({4000, 4000});
        QVERIFY(panel.idleText().contains(QStringLiteral("no thread reaches them")));
        panel.setGridStride(true);
        QCOMPARE(panel.idleText(),
                 QStringLiteral("The kernel reads gridDim: a grid-stride loop, so its 262,144 threads reach "
                                "all 16,000,000 elements, about 61 each"));
        // The drawing shows the rest of the data as reached later, not as out of reach.
        const QImage picture = panel.drawing()->grab().toImage();
        picture.save(QStringLiteral("/tmp/kernelpad_launch_gridstride.png"));
        bool stride = false, unreached = false;
        for (int y = 0; y < picture.height(); ++y)
            for (int x = 0; x < picture.width(); ++x) {
                stride |= picture.pixelColor(x, y) == GridDrawing::strideColour();
                unreached |= picture.pixelColor(x, y) == GridDrawing::uncoveredColour();
            }
        QVERIFY(stride);
        QVERIFY(!unreached);

        // More threads than elements: the extra ones idle.
        panel.setDataShape({1000});
        QCOMPARE(panel.idleText(),
                 QStringLiteral("The kernel reads gridDim: a grid-stride loop, so its 262,144 threads reach "
                                "all 1,000 elements in one turn; 261,144 idle threads (99.6%)"));
    }

    void asksForAGridWhenAutoHasNoArray() {
        LaunchPanel panel;
        panel.setLaunch(launchOf({256, 1, 1}));
        panel.setDataShape({});
        QCOMPARE(panel.problems().size(), 1);
        QVERIFY(panel.problems().front().startsWith(QStringLiteral("launch.grid: \"auto\"")));
        QVERIFY(panel.idleText().isEmpty());
    }

    void showsTotals_data() {
        QTest::addColumn<model::LaunchSpec>("launch");
        QTest::addColumn<QString>("totals");
        QTest::newRow("1D") << launchOf({256, 1, 1}, false, {4, 1, 1})
                            << "256 threads = 8 warps per block; 4 blocks, 1,024 threads, 32 warps in all";
        QTest::newRow("2D") << launchOf({16, 16, 1}, false, {10, 5, 1})
                            << "256 threads = 8 warps per block; 50 blocks, 12,800 threads, 400 warps in all";
        // A partial warp is a whole warp.
        QTest::newRow("partial warp")
            << launchOf({100, 1, 1}, false, {3, 1, 1})
            << "100 threads = 4 warps per block; 3 blocks, 300 threads, 12 warps in all";
    }
    void showsTotals() {
        QFETCH(model::LaunchSpec, launch);
        QFETCH(QString, totals);
        LaunchPanel panel;
        panel.setDataShape({1000});
        panel.setLaunch(launch);
        QCOMPARE(panel.totalsText(), totals);
    }

    void showsOccupancyFromTheKernelsAttributes() {
        LaunchPanel panel;
        panel.setDataShape({1 << 20});
        panel.setLaunch(launchOf({256, 1, 1}));
        QCOMPARE(panel.occupancyText(),
                 QStringLiteral("Occupancy: applies only when the kernel runs on a GPU"));
        panel.setDevice(h100());
        QCOMPARE(panel.occupancyText(),
                 QStringLiteral("Occupancy on NVIDIA H100 80GB HBM3: known once the kernel is compiled"));
        panel.setKernelAttributes(kernelUsing(64));
        QCOMPARE(panel.occupancyText(),
                 QStringLiteral("Occupancy 50%: 32 of 64 warps, 4 blocks per SM; limited by "
                                "registers: 64 per thread allow 4 blocks of 256 threads per SM"));
        // Live, as the user types: smaller blocks, then shared memory that crowds the SM.
        typeInto(panel.blockSpin(0), QStringLiteral("128"));
        QCOMPARE(panel.occupancyText(),
                 QStringLiteral("Occupancy 50%: 32 of 64 warps, 8 blocks per SM; limited by "
                                "registers: 64 per thread allow 8 blocks of 128 threads per SM"));
        // 150000 B + 1 KiB reserved: one block per SM of 228 KiB.
        typeInto(panel.sharedSpin(), QStringLiteral("150000"));
        QVERIFY2(
            panel.occupancyText().startsWith(QStringLiteral("Occupancy 6%: 4 of 64 warps, 1 block per SM")),
            qPrintable(panel.occupancyText()));
        QVERIFY2(panel.occupancyText().contains(QStringLiteral("limited by shared memory")),
                 qPrintable(panel.occupancyText()));
    }

    void emitsLaunchChangedOncePerUserEdit() {
        LaunchPanel panel;
        QSignalSpy spy(&panel, &LaunchPanel::launchChanged);
        panel.setLaunch(launchOf({256, 1, 1}));
        panel.setDataShape({1000});
        panel.setLimits(launch::LaunchLimits::of(h100()));
        panel.setDevice(h100());
        panel.setKernelAttributes(kernelUsing(32));
        QCOMPARE(spy.count(), 0);
        panel.show();

        QTest::keyClick(panel.blockSpin(1), Qt::Key_Up);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).value<model::LaunchSpec>().block,
                 (std::array<std::uint32_t, 3>{256, 2, 1}));

        QTest::mouseClick(panel.autoGridBox(), Qt::LeftButton);
        QCOMPARE(spy.count(), 2);
        QVERIFY(!spy.last().at(0).value<model::LaunchSpec>().autoGrid);

        typeInto(panel.blockSpin(0), QStringLiteral("64")); // two keystrokes, two values: 6, then 64
        QCOMPARE(spy.count(), 4);
        QCOMPARE(spy.last().at(0).value<model::LaunchSpec>(), panel.launch());
        QCOMPARE(panel.launch().block[0], 64u);

        panel.setLaunch(launchOf({128, 1, 1}));
        panel.setDataShape({5000});
        QCOMPARE(spy.count(), 4);
    }

    void drawsIdleThreadsOnlyWhereThereAreSome() {
        LaunchPanel panel;
        panel.setLaunch(launchOf({256, 1, 1}));
        panel.setDataShape({1000});
        panel.resize(420, 420);
        panel.show();
        const QImage partial = panel.drawing()->grab().toImage();
        QVERIFY(pixelsOf(partial, GridDrawing::busyColour()) > 100);
        QVERIFY(pixelsOf(partial, GridDrawing::idleColour()) >
                20); // the hatch in the last block (and the legend's)
        QCOMPARE(pixelsOf(partial, GridDrawing::uncoveredColour()), 0);

        panel.setDataShape({1024});
        const QImage exact = panel.drawing()->grab().toImage();
        QVERIFY(pixelsOf(exact, GridDrawing::idleColour()) < pixelsOf(partial, GridDrawing::idleColour()));

        QTest::mouseClick(panel.autoGridBox(), Qt::LeftButton);
        typeInto(panel.gridSpin(0), QStringLiteral("3"));
        const QImage short_ = panel.drawing()->grab().toImage();
        QVERIFY(pixelsOf(short_, GridDrawing::uncoveredColour()) > 100);
    }

    // Tab went from Grid x to Block y (the fields were made column by column); it now reads the rows.
    void tabGoesAlongTheRows() {
        LaunchPanel panel;
        panel.setDataShape({1000});
        panel.setLaunch(launchOf({256, 1, 1}, false, {4, 1, 1}));
        panel.show();
        QApplication::setActiveWindow(&panel);
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        const std::vector<QWidget*> expected{panel.blockSpin(0),  panel.blockSpin(1), panel.blockSpin(2),
                                             panel.gridSpin(0),   panel.gridSpin(1),  panel.gridSpin(2),
                                             panel.autoGridBox(), panel.sharedSpin()};
        expected.front()->setFocus();
        QTRY_VERIFY(expected.front()->hasFocus());
        for (std::size_t i = 1; i < expected.size(); ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QVERIFY2(expected[i]->hasFocus(),
                     qPrintable(QStringLiteral("step %1: %2 has the focus")
                                    .arg(i)
                                    .arg(QApplication::focusWidget()->metaObject()->className())));
        }
    }

    // A grid that reaches 17% of the data is drawn blue over about 17% of the picture, not 88%.
    void aShortGridIsDrawnToScale() {
        LaunchPanel panel;
        panel.setDataShape({1000});
        panel.setLaunch(launchOf({10, 1, 1}, false, {17, 1, 1}));
        panel.resize(420, 420);
        panel.show();
        const QImage image = panel.drawing()->grab().toImage();
        const double blue = pixelsOf(image, GridDrawing::busyColour());
        const double red = pixelsOf(image, GridDrawing::uncoveredColour());
        QVERIFY2(std::abs(blue / (blue + red) - 0.17) < 0.05,
                 qPrintable(QStringLiteral("%1 of the picture is blue").arg(blue / (blue + red))));
    }

    // The reduction sample: `total` (one element) comes first, `in` (4M) is what the threads read. The
    // panel measured the grid over `total` and called every thread idle.
    void aReductionIsLaidOverItsInputNotItsTotal() {
        LaunchPanel panel;
        panel.setArrays({{QStringLiteral("total"), {1}}, {QStringLiteral("in"), {4194304}}});
        panel.setGridStride(true);
        panel.setLaunch(launchOf({256, 1, 1}, false, {1024, 1, 1}));
        QCOMPARE(panel.laidOver()->name, QStringLiteral("in"));
        QCOMPARE(
            panel.idleText(),
            QStringLiteral("Over in: The kernel reads gridDim: a grid-stride loop, so its 262,144 threads "
                           "reach all 4,194,304 elements, about 16 each"));
        // warp_aggregated_histogram: 16 bins first, the data second; not a grid-stride drawing here.
        panel.setGridStride(false);
        panel.setArrays({{QStringLiteral("bins"), {16}}, {QStringLiteral("data"), {131072}}});
        panel.setLaunch(launchOf({256, 1, 1}, false, {512, 1, 1}));
        QCOMPARE(panel.idleText(), QStringLiteral("Over data: 0 idle threads (0.0%)"));
        // An auto grid covers the first array, and the picture is of that one.
        panel.setLaunch(launchOf({256, 1, 1}));
        QCOMPARE(panel.laidOver()->name, QStringLiteral("bins"));
    }

    // half_precision_axpy: a thread per pair of halves. Not "50% of the data past the grid".
    void aGridSizedForPairsIsNotCalledShort() {
        LaunchPanel panel;
        panel.setArrays({{QStringLiteral("x"), {4194305}}, {QStringLiteral("y"), {4194305}}});
        panel.setLaunch(launchOf({256, 1, 1}, false, {8193, 1, 1}));
        QCOMPARE(
            panel.idleText(),
            QStringLiteral("Over x: The grid has one thread for every 2 elements: if each thread takes 2, "
                           "all 4,194,305 elements are reached; 255 idle threads (0.0%)"));
        panel.resize(420, 420);
        panel.show();
        QCOMPARE(pixelsOf(panel.drawing()->grab().toImage(), GridDrawing::uncoveredColour()), 0);
    }

    void summarisesAHugeGridWithoutTouchingTheData() {
        LaunchPanel panel;
        panel.setLaunch(launchOf({256, 1, 1}));
        panel.setDataShape({100'000'001}); // 100M elements: only their count is used
        QCOMPARE(panel.gridSpin(0)->value(), 390626);
        QCOMPARE(panel.idleText(), QStringLiteral("255 idle threads (0.0%)"));
        panel.resize(420, 420);
        QVERIFY(!panel.drawing()->grab().isNull());
    }

    void screenshot() {
        LaunchPanel panel;
        panel.setLimits(launch::LaunchLimits::of(h100()));
        panel.setDevice(h100());
        panel.setKernelAttributes(kernelUsing(64));
        panel.setLaunch(launchOf({256, 1, 1}));
        panel.setDataShape({1000});
        panel.resize(440, 420);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QImage shot = panel.grab().toImage();
        QVERIFY(!shot.isNull());
        QVERIFY(shot.save(QStringLiteral("/tmp/launchpanel.png")));

        panel.setDataShape({200, 300});
        panel.setLaunch(launchOf({32, 8, 1}));
        QCoreApplication::processEvents(); // the labels' new heights
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/launchpanel_2d.png")));
        panel.setDataShape({100'000'001});
        panel.setLaunch(launchOf({256, 1, 1}, false, {390'000, 1, 1}));
        QCoreApplication::processEvents();
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/launchpanel_large.png")));
    }
};

QTEST_MAIN(TestLaunchPanel)
#include "tst_launchpanel.moc"
