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

    // A large array is checked in parts on every core: the same count, figures and first mismatches, in
    // order of position, as one pass over it (every part has mismatches; the first part has fewer than
    // the list holds, so the list runs on into the next).
    void checksLargeArraysInPartsAsOnePass() {
        const std::size_t n = (std::size_t{1} << 22) + 7;
        Array a(DType::Float32, {n});
        Array e(DType::Float32, {n});
        auto av = a.as<float>();
        auto ev = e.as<float>();
        for (std::size_t i = 0; i < n; ++i)
            av[i] = ev[i] = static_cast<float>(i % 1000);
        std::vector<std::size_t> wrong;
        for (std::size_t i = 3; i < n; i += n / 37)
            wrong.push_back(i);
        wrong.push_back(n - 1);
        for (std::size_t w : wrong)
            av[w] += 1.0f + static_cast<float>(w % 3);
        ev[n / 2] = 1; // a relative difference of 1 there
        av[n / 2] = 2;
        const auto r = check("big", a, e, {1e-6, 1e-6});
        QCOMPARE(r.mismatches, wrong.size() + 1);
        QCOMPARE(r.first.size(), CheckResult::kMaxListed);
        std::vector<std::size_t> listed;
        for (const auto& m : r.first)
            listed.push_back(m.index.at(0));
        std::vector<std::size_t> expected(wrong.begin(), wrong.begin() + CheckResult::kMaxListed);
        QCOMPARE(listed, expected);
        QCOMPARE(r.maxAbs, 3.0);
        QVERIFY(r.maxRel >= 1.0);
        QVERIFY(!r.passed);
        QVERIFY(check("big", e, e, {0, 0}).passed);
    }

    // Runs of identical bits are skipped; one element that differs inside a run still counts, within the
    // tolerance (its difference in the figures) or not. NaN against the same NaN, and -0 against 0, match.
    void identicalRunsSkipOnlyWhatIsIdentical() {
        const std::size_t n = 5000;
        Array a(DType::Float32, {n});
        Array e(DType::Float32, {n});
        auto av = a.as<float>();
        auto ev = e.as<float>();
        for (std::size_t i = 0; i < n; ++i)
            av[i] = ev[i] = 1.0f + static_cast<float>(i);
        av[10] = ev[10] = std::numeric_limits<float>::quiet_NaN();
        av[20] = -0.0f;
        ev[20] = 0.0f;
        av[2500] = std::nextafter(ev[2500], 1e9f); // one ulp: within the tolerance
        auto r = check("x", a, e, {1e-5, 0});
        QVERIFY(r.passed);
        QCOMPARE(r.maxAbs, static_cast<double>(av[2500]) - static_cast<double>(ev[2500]));
        QVERIFY(r.maxRel > 0);
        av[4999] = 0.5f; // the last element of the last run
        r = check("x", a, e, {1e-5, 0});
        QCOMPARE(r.mismatches, std::size_t{1});
        QCOMPARE(r.first.at(0).index.at(0), std::size_t{4999});
        QCOMPARE(r.maxAbs, 5000.0 - 0.5);
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

    void defaultTolerancesFollowTheComponentType_data() {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<double>("rtol");
        QTest::addColumn<double>("atol");
        QTest::newRow("float16") << DType::Float16 << 1e-3 << 1e-5;
        QTest::newRow("bfloat16") << DType::BFloat16 << 1.6e-2 << 1e-5;
        QTest::newRow("float32") << DType::Float32 << 1.3e-6 << 1e-5;
        QTest::newRow("float3 as float32") << DType::Float3 << 1.3e-6 << 1e-5;
        QTest::newRow("double2 as float64") << DType::Double2 << 1e-7 << 1e-7;
        QTest::newRow("bool exact") << DType::Bool << 0.0 << 0.0;
        QTest::newRow("uchar4 exact") << DType::UChar4 << 0.0 << 0.0;
    }
    void defaultTolerancesFollowTheComponentType() {
        QFETCH(DType, dtype);
        QFETCH(double, rtol);
        QFETCH(double, atol);
        QCOMPARE(defaultTolerance(dtype), (Tolerance{rtol, atol}));
    }

    // Threads that take slots with atomicAdd write the same values in another order on every run.
    void multisetIgnoresOrderButNotValues() {
        const kp::model::UnorderedSpec multiset{kp::model::UnorderedSpec::Kind::Multiset};
        const Array expected = vector({5, 1, 4, 1, 0}, DType::Int32);
        const auto same =
            checkUnordered(multiset, "slots", vector({1, 0, 1, 5, 4}, DType::Int32), expected, {});
        QVERIFY(same.passed);
        QCOMPARE(same.unordered, std::optional(multiset));
        QVERIFY2(describe(same).find("matches the reference as a multiset") != std::string::npos,
                 describe(same).c_str());

        // One 4 became a 3: one value differs, reported where the output holds it.
        const auto wrong =
            checkUnordered(multiset, "slots", vector({1, 0, 1, 5, 3}, DType::Int32), expected, {});
        QCOMPARE(wrong.mismatches, std::size_t(1));
        QCOMPARE(wrong.first[0].index, std::vector<std::size_t>{4});
        QCOMPARE(wrong.first[0].actual, 3.0);
        QCOMPARE(wrong.first[0].expected, 4.0);
        const std::string text = describe(wrong);
        QVERIFY2(text.find("1 value differs from the reference as a multiset") != std::string::npos &&
                     text.find("first at [4]: 3 where the reference, sorted alike, has 4") !=
                         std::string::npos,
                 text.c_str());
        // One wrong value among many is one mismatch, not a shift of every larger value.
        Array many(DType::Int32, {1000}), manyExpected(DType::Int32, {1000});
        for (std::size_t i = 0; i < 1000; ++i) {
            many.setValue(i, double(999 - i));
            manyExpected.setValue(i, double(i));
        }
        many.setValue(500, 5000);
        const auto one = checkUnordered(multiset, "m", many, manyExpected, {});
        QCOMPARE(one.mismatches, std::size_t(1));
        QCOMPARE(one.first[0].index, std::vector<std::size_t>{500});
        QCOMPARE(one.first[0].expected, 499.0); // the value it replaced
        // Within the tolerance, floats pair up as numpy.allclose would pair them.
        QVERIFY(checkUnordered(multiset, "f", vector({2.0000001, 1}), vector({1, 2}), {1e-6, 0}).passed);
        // A duplicate is not a match for a missing value: {1, 1} is not {1, 2}.
        QVERIFY(!checkUnordered(multiset, "s", vector({1, 1}), vector({2, 1}), {}).passed);
        // Element by element the same output fails everywhere the order differs.
        QCOMPARE(check("slots", vector({1, 0, 1, 5, 4}, DType::Int32), expected, {}).mismatches,
                 std::size_t(5));
    }

    void multisetOrdersNaNAndVectorsWhole() {
        const kp::model::UnorderedSpec multiset{kp::model::UnorderedSpec::Kind::Multiset};
        QVERIFY(checkUnordered(multiset, "x", vector({kNaN, 2, 1}), vector({1, kNaN, 2}), {}).passed);
        QVERIFY(!checkUnordered(multiset, "x", vector({kNaN, 2, 1}), vector({1, 3, 2}), {}).passed);
        // float2 elements move as a whole: (1, 9) and (2, 8) are not (1, 8) and (2, 9).
        Array a(DType::Float2, {2}), e(DType::Float2, {2});
        const double pairs[2][2] = {{1, 9}, {2, 8}};
        for (std::size_t i = 0; i < 2; ++i)
            for (int c = 0; c < 2; ++c) {
                a.setValue(i, pairs[i][c], c);
                e.setValue(1 - i, pairs[i][c], c);
            }
        QVERIFY(checkUnordered(multiset, "v", a, e, {}).passed);
        Array crossed(DType::Float2, {2});
        crossed.setValue(0, 1, 0);
        crossed.setValue(0, 8, 1);
        crossed.setValue(1, 2, 0);
        crossed.setValue(1, 9, 1);
        QCOMPARE(checkUnordered(multiset, "v", crossed, e, {}).mismatches, std::size_t(2));
    }

    void multisetPerRowKeepsValuesInTheirRow() {
        const kp::model::UnorderedSpec perRow{kp::model::UnorderedSpec::Kind::MultisetPerRow};
        Array expected(DType::Int32, {2, 3}), actual(DType::Int32, {2, 3}), moved(DType::Int32, {2, 3});
        const double rows[2][3] = {{1, 2, 3}, {4, 5, 6}};
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t c = 0; c < 3; ++c) {
                expected.setValue(r * 3 + c, rows[r][c]);
                actual.setValue(r * 3 + (2 - c), rows[r][c]); // each row reversed
                moved.setValue(r * 3 + c, rows[1 - r][c]);    // the rows swapped
            }
        QVERIFY(checkUnordered(perRow, "bins", actual, expected, {}).passed);
        QVERIFY(!checkUnordered(perRow, "bins", moved, expected, {}).passed);
        QVERIFY(
            checkUnordered({kp::model::UnorderedSpec::Kind::Multiset}, "bins", moved, expected, {}).passed);
    }

    void rangeHoldsValuesToBoundsWithoutTheReference() {
        const kp::model::UnorderedSpec range{kp::model::UnorderedSpec::Kind::Range, 0, 255};
        const Array reference = vector({7, 7, 7, 7}, DType::Int32); // plays no part
        const auto inside =
            checkUnordered(range, "ticket", vector({0, 255, 3, 100}, DType::Int32), reference, {});
        QVERIFY(inside.passed);
        QCOMPARE(describe(inside), std::string("ticket: every value lies within [0, 255]"));
        const auto outside =
            checkUnordered(range, "ticket", vector({0, 256, -1, 100}, DType::Int32), reference, {});
        QCOMPARE(outside.mismatches, std::size_t(2));
        QCOMPARE(outside.first[0].expected, 255.0); // the bound it passed
        QCOMPARE(describe(outside), std::string("ticket: 2 values lie outside [0, 255]; first at [1]: 256"));
        QVERIFY(!checkUnordered(range, "t", vector({kNaN}), vector({0}), {}).passed);
    }

    void checkOutputFollowsThePlayground() {
        kp::model::CheckSpec spec;
        spec.unordered["slots"] = {kp::model::UnorderedSpec::Kind::Multiset};
        const Array expected = vector({1, 2}, DType::Int32);
        const Array reversed = vector({2, 1}, DType::Int32);
        QVERIFY(checkOutput(spec, "slots", reversed, expected).passed);
        QVERIFY(!checkOutput(spec, "other", reversed, expected).passed);
        QVERIFY_THROWS_EXCEPTION(kp::InputError, checkOutput(spec, "slots", reversed, vector({1, 2, 3})));
    }

    void unravelsRowMajor() {
        QCOMPARE(unravel(0, {2, 3, 4}), (std::vector<std::size_t>{0, 0, 0}));
        QCOMPARE(unravel(23, {2, 3, 4}), (std::vector<std::size_t>{1, 2, 3}));
        QCOMPARE(unravel(5, {2, 3}), (std::vector<std::size_t>{1, 2}));
    }
};

QTEST_APPLESS_MAIN(TestCheck)
#include "tst_check.moc"
