// Check: numpy.allclose semantics, NaN handling, error statistics, mismatch positions.
#include "core/Error.h"
#include "core/run/Check.h"

#include <QTest>
#include <cmath>
#include <limits>

using kp::model::Array;
using kp::model::DType;
using namespace kp::run;

namespace {
Array vector(std::initializer_list<double> values, DType type = DType::Float32) {
    Array a(type, {values.size()});
    std::size_t i = 0;
    for (double v : values)
        a.setValue(i++, v);
    return a;
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

class TestCheck : public QObject {
    Q_OBJECT
private slots:
    void comparesLikeAllclose_data() {
        QTest::addColumn<double>("actual");
        QTest::addColumn<double>("expected");
        QTest::addColumn<double>("rtol");
        QTest::addColumn<double>("atol");
        QTest::addColumn<bool>("passes");
        QTest::newRow("equal") << 1.0 << 1.0 << 0.0 << 0.0 << true;
        QTest::newRow("within atol") << 1.0 << 1.0000005 << 0.0 << 1e-6 << true;
        QTest::newRow("past atol") << 1.0 << 1.00001 << 0.0 << 1e-6 << false;
        QTest::newRow("within rtol of expected") << 100.0 << 100.001 << 1e-5 << 0.0 << true;
        QTest::newRow("past rtol") << 100.0 << 100.01 << 1e-5 << 0.0 << false;
        QTest::newRow("both NaN") << kNaN << kNaN << 0.0 << 0.0 << true;
        QTest::newRow("NaN vs number") << kNaN << 1.0 << 1.0 << 1.0 << false;
        QTest::newRow("number vs NaN") << 1.0 << kNaN << 1.0 << 1.0 << false;
        QTest::newRow("same infinity") << kInf << kInf << 0.0 << 0.0 << true;
        QTest::newRow("opposite infinities") << kInf << -kInf << 1.0 << 1.0 << false;
        QTest::newRow("infinity vs large") << kInf << 1e30 << 1.0 << 1.0 << false;
    }
    void comparesLikeAllclose() {
        QFETCH(double, actual);
        QFETCH(double, expected);
        QFETCH(double, rtol);
        QFETCH(double, atol);
        QFETCH(bool, passes);
        const auto r =
            check("x", vector({actual}, DType::Float64), vector({expected}, DType::Float64), {rtol, atol});
        QCOMPARE(r.passed, passes);
        QCOMPARE(r.mismatches, std::size_t(passes ? 0 : 1));
        QCOMPARE(matches(actual, expected, {rtol, atol}), passes); // the per-value rule the results view uses
    }

    void reportsErrorStatisticsAndFirstMismatches() {
        const auto r = check("dest", vector({1, 2, 3, 4}), vector({1, 2.5, 3, 8}), {0.0, 0.1});
        QVERIFY(!r.passed);
        QCOMPARE(r.mismatches, std::size_t(2));
        QCOMPARE(r.maxAbs, 4.0);
        QCOMPARE(r.maxRel, 0.5);
        QCOMPARE(r.first.size(), std::size_t(2));
        QCOMPARE(r.first[0].index, std::vector<std::size_t>{1});
        QCOMPARE(r.first[0].actual, 2.0);
        QCOMPARE(r.first[0].expected, 2.5);
        const std::string text = describe(r);
        QVERIFY2(text.find("dest: 2 values differ") == 0, text.c_str());
        QVERIFY2(text.find("first at [1]: 2 where the reference has 2.5") != std::string::npos, text.c_str());
    }

    // A mismatch is written so that the two values visibly differ: whole numbers in full, others with as
    // many digits as that takes (6 digits printed 2097250.25 and 2097250 alike).
    void writesMismatchesSoTheyDiffer_data() {
        QTest::addColumn<double>("actual");
        QTest::addColumn<double>("expected");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("shown");
        QTest::newRow("large counts") << 138364012.0 << 207575003.0 << int(DType::Int32)
                                      << "138364012 where the reference has 207575003";
        QTest::newRow("close floats")
            << 2097250.0 << 2097250.25 << int(DType::Float64) << "2097250 where the reference has 2097250.2";
        QTest::newRow("last bits") << 0.1 << 0.10000001 << int(DType::Float64)
                                   << "0.1 where the reference has 0.10000001";
        QTest::newRow("plain") << 2.0 << 2.5 << int(DType::Float32) << "2 where the reference has 2.5";
        QTest::newRow("nan") << std::nan("") << 1.5 << int(DType::Float32)
                             << "nan where the reference has 1.5";
    }
    void writesMismatchesSoTheyDiffer() {
        QFETCH(double, actual);
        QFETCH(double, expected);
        QFETCH(int, dtype);
        QFETCH(QString, shown);
        const auto r =
            check("x", vector({actual}, DType(dtype)), vector({expected}, DType(dtype)), {0.0, 0.0});
        const std::string text = describe(r);
        QVERIFY2(text.ends_with("first at [0]: " + shown.toStdString()), text.c_str());
    }

    void givesMultiDimensionalIndicesAndCapsTheList() {
        Array a(DType::Int32, {4, 5});
        Array e(DType::Int32, {4, 5});
        for (std::size_t i = 0; i < 20; ++i)
            e.setValue(i, 1);
        const auto r = check("m", a, e, {});
        QCOMPARE(r.mismatches, std::size_t(20));
        QCOMPARE(r.first.size(), CheckResult::kMaxListed);
        QCOMPARE(r.first[7].index, (std::vector<std::size_t>{1, 2}));
    }

    void comparesEveryComponentOfVectorTypes() {
        Array a(DType::Float4, {2});
        Array e(DType::Float4, {2});
        e.setValue(1, 9.0, 3);
        const auto r = check("v", a, e, {});
        QCOMPARE(r.mismatches, std::size_t(1));
        QCOMPARE(r.first[0].index, std::vector<std::size_t>{1});
        QCOMPARE(r.first[0].expected, 9.0);
    }

    void rejectsDifferentShapesOrTypes() {
        try {
            check("dest", vector({1, 2}), vector({1, 2, 3}), {});
            QFAIL("different shapes must be rejected");
        } catch (const kp::InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("'dest'") != std::string::npos && what.find("(2,)") != std::string::npos &&
                         what.find("(3,)") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(kp::InputError, check("d", vector({1}), vector({1}, DType::Float64), {}));
    }

    void unravelsRowMajor() {
        QCOMPARE(unravel(0, {2, 3, 4}), (std::vector<std::size_t>{0, 0, 0}));
        QCOMPARE(unravel(23, {2, 3, 4}), (std::vector<std::size_t>{1, 2, 3}));
        QCOMPARE(unravel(5, {2, 3}), (std::vector<std::size_t>{1, 2}));
    }
};

QTEST_APPLESS_MAIN(TestCheck)
#include "tst_check.moc"
