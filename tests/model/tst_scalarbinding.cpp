// ScalarBinding: dimensions of 1-3-D shapes, evaluating numbers and size()/rows()/cols()/depth() against
// a playground's arrays, and the bytes of a scalar parameter for every dtype with its range checks.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/model/ScalarBinding.h"

#include <QTest>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace kp::model;

Q_DECLARE_METATYPE(DType)
Q_DECLARE_METATYPE(Shape)
Q_DECLARE_METATYPE(ScalarValue::Kind)

using kp::test::inputErrorOf;

namespace {

template <typename T> T as(const std::vector<std::byte>& bytes, std::size_t component = 0) {
    T value{};
    std::memcpy(&value, bytes.data() + component * sizeof(T), sizeof(T));
    return value;
}

ArgumentSpec arrayArg(const std::string& name, Shape shape) {
    ArgumentSpec arg;
    arg.name = name;
    ArraySpec spec;
    spec.shape = std::move(shape);
    arg.type = spec;
    return arg;
}

ArgumentSpec scalarArg(const std::string& name, std::optional<ScalarValue> value) {
    ArgumentSpec arg;
    arg.name = name;
    arg.type = ScalarSpec{};
    arg.value = std::move(value);
    return arg;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

class TestScalarBinding : public QObject {
    Q_OBJECT

private slots:
    void measuresDimensions_data() {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("depth");
        QTest::newRow("1-D") << Shape{400} << 400 << 400 << 1 << 1;
        QTest::newRow("2-D") << Shape{3, 5} << 15 << 3 << 5 << 1;
        QTest::newRow("3-D") << Shape{2, 3, 4} << 24 << 2 << 3 << 4;
    }
    void measuresDimensions() {
        QFETCH(Shape, shape);
        QFETCH(int, size);
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, depth);
        QCOMPARE(dimension(ScalarValue::Kind::Size, shape), std::size_t(size));
        QCOMPARE(dimension(ScalarValue::Kind::Rows, shape), std::size_t(rows));
        QCOMPARE(dimension(ScalarValue::Kind::Cols, shape), std::size_t(cols));
        QCOMPARE(dimension(ScalarValue::Kind::Depth, shape), std::size_t(depth));
    }

    void evaluatesNumbersAndDimensions() {
        const Shape matrix{3, 5};
        const ShapeLookup lookup = [&](std::string_view name) -> const Shape* {
            return name == "a" ? &matrix : nullptr;
        };
        QCOMPARE(evaluate(ScalarValue{ScalarValue::Kind::Number, 2.5, {}}, lookup, "x"), 2.5);
        QCOMPARE(evaluate(ScalarValue{ScalarValue::Kind::Size, 0, "a"}, lookup, "x"), 15.0);
        QCOMPARE(evaluate(ScalarValue{ScalarValue::Kind::Rows, 0, "a"}, lookup, "x"), 3.0);
        QCOMPARE(evaluate(ScalarValue{ScalarValue::Kind::Cols, 0, "a"}, lookup, "x"), 5.0);
        QCOMPARE(evaluate(ScalarValue{ScalarValue::Kind::Depth, 0, "a"}, lookup, "x"), 1.0);
        const std::string error = inputErrorOf([&] {
            evaluate(ScalarValue{ScalarValue::Kind::Cols, 0, "b"}, lookup, "args[3].value");
        });
        QCOMPARE(
            error,
            std::string(
                "args[3].value: cols(b) names \"b\", which is not an array argument of this playground"));
    }

    void evaluatesAgainstAPlayground() {
        Playground p;
        p.args = {arrayArg("a", {4, 8}), scalarArg("s", ScalarValue{ScalarValue::Kind::Number, 3, {}}),
                  scalarArg("n", ScalarValue{ScalarValue::Kind::Size, 0, "a"}),
                  scalarArg("wrong", ScalarValue{ScalarValue::Kind::Rows, 0, "s"}),
                  scalarArg("none", std::nullopt)};
        QCOMPARE(evaluate(p.args[1], p), 3.0);
        QCOMPARE(evaluate(p.args[2], p), 32.0);
        const std::string scalar = inputErrorOf([&] { evaluate(p.args[3], p); });
        QVERIFY2(scalar.find("argument wrong: rows(s) names \"s\", which is not an array argument") == 0,
                 scalar.c_str());
        const std::string missing = inputErrorOf([&] { evaluate(p.args[4], p); });
        QCOMPARE(missing, std::string("argument none: a scalar argument needs a value"));
    }

    void storesScalarsAsTheKernelReadsThem() {
        QCOMPARE(as<std::int8_t>(scalarBytes(DType::Int8, -128, "v")), std::int8_t{-128});
        QCOMPARE(as<std::uint8_t>(scalarBytes(DType::UInt8, 255, "v")), std::uint8_t{255});
        QCOMPARE(as<std::int16_t>(scalarBytes(DType::Int16, -32768, "v")), std::int16_t{-32768});
        QCOMPARE(as<std::uint16_t>(scalarBytes(DType::UInt16, 65535, "v")), std::uint16_t{65535});
        QCOMPARE(as<std::int32_t>(scalarBytes(DType::Int32, -2147483648.0, "v")),
                 std::numeric_limits<std::int32_t>::min());
        QCOMPARE(as<std::uint32_t>(scalarBytes(DType::UInt32, 4294967295.0, "v")), 4294967295u);
        QCOMPARE(as<std::int64_t>(scalarBytes(DType::Int64, -9223372036854775808.0, "v")),
                 std::numeric_limits<std::int64_t>::min());
        QCOMPARE(as<std::int64_t>(scalarBytes(DType::Int64, 9007199254740992.0, "v")),
                 std::int64_t{9007199254740992});
        QCOMPARE(as<std::uint64_t>(scalarBytes(DType::UInt64, 18446744073709549568.0, "v")),
                 std::uint64_t{18446744073709549568u});
        QCOMPARE(as<std::uint16_t>(scalarBytes(DType::Float16, 1.0, "v")), std::uint16_t{0x3C00});
        QCOMPARE(as<std::uint16_t>(scalarBytes(DType::Float16, 65504, "v")), std::uint16_t{0x7BFF});
        QCOMPARE(as<float>(scalarBytes(DType::Float32, 0.1, "v")), 0.1f);
        QCOMPARE(as<double>(scalarBytes(DType::Float64, 0.1, "v")), 0.1);
        QCOMPARE(as<double>(scalarBytes(DType::Float64, -kInf, "v")), -kInf);
        QVERIFY(std::isnan(as<float>(scalarBytes(DType::Float32, kNaN, "v"))));
        QCOMPARE(scalarBytes(DType::Float64, 1, "v").size(), std::size_t{8});
    }

    void fillsEveryComponentOfAVector() {
        const auto f4 = scalarBytes(DType::Float4, 2.5, "v");
        QCOMPARE(f4.size(), std::size_t{16});
        for (std::size_t c = 0; c < 4; ++c)
            QCOMPARE(as<float>(f4, c), 2.5f);
        const auto i2 = scalarBytes(DType::Int2, -7, "v");
        QCOMPARE(i2.size(), std::size_t{8});
        QCOMPARE(as<std::int32_t>(i2, 0), -7);
        QCOMPARE(as<std::int32_t>(i2, 1), -7);
        QVERIFY(!inputErrorOf([] { scalarBytes(DType::Int4, 0.5, "v"); }).empty());
    }

    void refusesValuesThatDoNotFit_data() {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("int8 above") << DType::Int8 << 128.0
                                    << "args[1].value: 128 is not a int8 value (out of range)";
        QTest::newRow("uint8 negative") << DType::UInt8 << -1.0 << "-1 is not a uint8 value (out of range)";
        QTest::newRow("uint16 above") << DType::UInt16 << 65536.0 << "out of range";
        QTest::newRow("int32 above") << DType::Int32 << 2147483648.0 << "out of range";
        QTest::newRow("uint32 above") << DType::UInt32 << 4294967296.0 << "out of range";
        QTest::newRow("int64 at 2^63") << DType::Int64 << 9223372036854775808.0 << "out of range";
        QTest::newRow("uint64 at 2^64") << DType::UInt64 << 18446744073709551616.0 << "out of range";
        QTest::newRow("fraction") << DType::Int32 << 2.5 << "2.5 is not a int32 value (not a whole number)";
        QTest::newRow("integer infinity") << DType::Int64 << kInf << "out of range";
        QTest::newRow("integer NaN") << DType::Int32 << kNaN << "NaN has no int32 value";
        QTest::newRow("float16 overflow") << DType::Float16 << 65520.0 << "65520 is too large for float16";
        QTest::newRow("float32 overflow") << DType::Float32 << 1e39 << "is too large for float32";
        QTest::newRow("float2 overflow") << DType::Float2 << -1e39 << "is too large for float2";
    }
    void refusesValuesThatDoNotFit() {
        QFETCH(DType, dtype);
        QFETCH(double, value);
        QFETCH(QString, expected);
        const std::string error = inputErrorOf([&] { scalarBytes(dtype, value, "args[1].value"); });
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(error.rfind("args[1].value: ", 0) == 0, error.c_str());
    }

    void acceptsAFloat16ThatRoundsDownToTheLargest() {
        // 65519 rounds to 65504 when stored; it is finite, so it is not an overflow.
        QCOMPARE(as<std::uint16_t>(scalarBytes(DType::Float16, 65519, "v")), std::uint16_t{0x7BFF});
        QCOMPARE(as<std::uint16_t>(scalarBytes(DType::Float16, -65519.5, "v")), std::uint16_t{0xFBFF});
        QCOMPARE(as<float>(scalarBytes(DType::Float32, 0x1.fffffe8p127, "v")),
                 std::numeric_limits<float>::max());
        QVERIFY(!inputErrorOf([] { scalarBytes(DType::Float32, 0x1.ffffffp127, "v"); }).empty());
    }
};

QTEST_APPLESS_MAIN(TestScalarBinding)
#include "tst_scalarbinding.moc"
