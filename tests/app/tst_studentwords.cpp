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
