// The window's wording of core messages: a line of the playground's code is "line 5", not "<code>:5"; a
// launch field is "Block:", not "launch.block:"; an argument is named, not "args[2]". Messages written
// from real ones the worker and the launch check give.
#include "StudentWords.h"

#include <QtTest>

class TestStudentWords : public QObject {
    Q_OBJECT

private slots:
    void rewritesPlacesAsAStudentSaysThem_data() {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("shown");
        QTest::newRow("bounds") << QStringLiteral(
                                       "out of bounds: y[1000] written by thread (232,0,0) of block "
                                       "(3,0,0) at <code>:3; y has 1000 elements")
                                << QStringLiteral(
                                       "out of bounds: y[1000] written by thread (232,0,0) of block "
                                       "(3,0,0) at line 3; y has 1000 elements");
        QTest::newRow("column") << QStringLiteral("<code>:12:7: error: expected a \";\"")
                                << QStringLiteral("line 12, column 7: error: expected a \";\"");
        QTest::newRow("block") << QStringLiteral("launch.block: x = 2048 is over the device's 1024")
                               << QStringLiteral("Block: x = 2048 is over the device's 1024");
        QTest::newRow("grid, after another")
            << QStringLiteral("args[0] x: shape is empty; launch.grid: the y dimension is 0")
            << QStringLiteral("Argument x: shape is empty; Grid: the y dimension is 0");
        QTest::newRow("shared") << QStringLiteral("launch.shared_bytes: 300000 B is over 232448 B")
                                << QStringLiteral("Dynamic shared memory: 300000 B is over 232448 B");
        QTest::newRow("argument by place")
            << QStringLiteral("args[2].value: not a number") << QStringLiteral("Argument 3: not a number");
        QTest::newRow("quoted argument")
            << QStringLiteral("args[2] \"b\": the kernel's parameter 2 is \"const float* b\"")
            << QStringLiteral("Argument b: the kernel's parameter 2 is \"const float* b\"");
        QTest::newRow("a step's argument")
            << QStringLiteral(
                   "steps[2].steps[0].launch.args[1]: there is no buffer or array argument \"partail\"")
            << QStringLiteral("Step 3.1, argument 2: there is no buffer or array argument \"partail\"");
        QTest::newRow("a step's grid") << QStringLiteral("steps[0].launch.grid[1]: \"m\" is 0")
                                       << QStringLiteral("Step 1, grid y: \"m\" is 0");
        QTest::newRow("a fault in a step")
            << QStringLiteral(
                   "at steps[1].steps[0] (poke<<<1, 32>>>(a, p * 4), pass 3 of its loop), the kernel poke "
                   "accessed memory out of bounds: a[8] is outside a")
            << QStringLiteral("at step 2.1 (poke<<<1, 32>>>(a, p * 4), pass 3 of its loop), the kernel poke "
                              "accessed memory out of bounds: a[8] is outside a");
        QTest::newRow("a loop") << QStringLiteral("steps[3].repeat: the loop has run 50 passes")
                                << QStringLiteral("Step 4, repeat: the loop has run 50 passes");
        QTest::newRow("a buffer") << QStringLiteral("buffers[0].array.shape[0]: \"n\" is not a variable here")
                                  << QStringLiteral("Buffer 1, shape: \"n\" is not a variable here");
        QTest::newRow("a variable") << QStringLiteral("variables.block: is empty")
                                    << QStringLiteral("Variable block: is empty");
        QTest::newRow("a file keeps its name") << QStringLiteral("kernel.cu:5: warning: unused variable")
                                               << QStringLiteral("kernel.cu:5: warning: unused variable");
        QTest::newRow("nothing to say differently") << QStringLiteral("Stopped after 2.0 s, as you asked.")
                                                    << QStringLiteral("Stopped after 2.0 s, as you asked.");
    }

    void rewritesPlacesAsAStudentSaysThem() {
        QFETCH(QString, message);
        QFETCH(QString, shown);
        QCOMPARE(inStudentWords(message), shown);
    }
};

QTEST_MAIN(TestStudentWords)
#include "tst_studentwords.moc"
