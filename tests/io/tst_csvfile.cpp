// CsvFile: round trips of 1-3-D arrays and vector types, the layouts np.savetxt and spreadsheets write
// (a single row, CRLF, a byte order mark, comments, blank lines between slices, nan and inf), and every
// malformed file reported with its file, line and column.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/io/CsvFile.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using kp::model::Array;
using kp::model::DType;
using kp::model::Shape;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(DType)
Q_DECLARE_METATYPE(Shape)

using kp::test::kAllTypes;
using kp::test::readText;
using kp::test::writeText;

namespace {

// Values that differ per element and component, negative where the type allows, fractional for floats.
Array patterned(DType dtype, const Shape& shape) {
    Array array(dtype, shape);
    const bool floating = kp::model::isFloating(dtype);
    const bool negative = kp::model::isSigned(dtype);
    for (std::size_t i = 0; i < array.size(); ++i)
        for (int c = 0; c < kp::model::components(dtype); ++c) {
            const double base = static_cast<double>((i * 7 + static_cast<std::size_t>(c) * 3) % 100);
            array.setValue(i, (floating ? base / 3 : base) - (negative ? 50 : 0), c);
        }
    return array;
}

} // namespace

class TestCsvFile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    fs::path folder() const { return dir_.path().toStdString(); }

    // The file `text` read as `dtype` `shape`, or the InputError's message as `error`.
    Array read(const std::string& text, DType dtype, const Shape& shape, std::string* error = nullptr) {
        const fs::path path = folder() / "x.csv";
        writeText(path, text);
        try {
            return kp::io::readCsv(path, dtype, shape);
        } catch (const kp::InputError& e) {
            if (error) *error = e.what();
        }
        return {};
    }

private slots:
    void roundTripsEveryDtypeAndRank_data() {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<Shape>("shape");
        for (DType type : kAllTypes)
            for (const Shape& shape : {Shape{5}, Shape{3, 4}, Shape{2, 3, 2}}) {
                const std::string row = std::string(kp::model::name(type)) + " " + kp::model::toString(shape);
                QTest::newRow(row.c_str()) << type << shape;
            }
    }
    void roundTripsEveryDtypeAndRank() {
        QFETCH(DType, dtype);
        QFETCH(Shape, shape);
        const Array original = patterned(dtype, shape);
        const fs::path path = folder() / "round.csv";
        kp::io::writeCsv(path, original);
        const Array back = kp::io::readCsv(path, dtype, shape);
        QVERIFY(back == original);
    }

    void writesTheDocumentedLayout() {
        Array column(DType::Int32, {3});
        for (std::size_t i = 0; i < 3; ++i)
            column.setValue(i, double(i) - 1);
        kp::io::writeCsv(folder() / "c.csv", column);
        QCOMPARE(readText(folder() / "c.csv"), std::string("-1\n0\n1\n"));

        Array cube(DType::Float32, {2, 2, 2});
        for (std::size_t i = 0; i < 8; ++i)
            cube.setValue(i, double(i) / 2);
        kp::io::writeCsv(folder() / "cube.csv", cube);
        QCOMPARE(readText(folder() / "cube.csv"), std::string("0,0.5\n1,1.5\n\n2,2.5\n3,3.5\n"));

        Array vectors(DType::Float2, {2});
        vectors.setValue(1, 0.1, 1);
        kp::io::writeCsv(folder() / "v.csv", vectors);
        QCOMPARE(readText(folder() / "v.csv"), std::string("0,0\n0,0.1\n")); // shortest round-tripping form
    }

    void roundTripsExactFloats() {
        Array a(DType::Float64, {4});
        a.setValue(0, 0.1);
        a.setValue(1, std::numeric_limits<double>::denorm_min());
        a.setValue(2, -std::numeric_limits<double>::max());
        a.setValue(3, 1.0 / 3);
        kp::io::writeCsv(folder() / "d.csv", a);
        QVERIFY(kp::io::readCsv(folder() / "d.csv", DType::Float64, {4}) == a);
    }

    void readsAOneDimensionalRow() {
        const Array a = read("1, 2, 3, 4\n", DType::Int16, {4});
        QCOMPARE(a.size(), std::size_t{4});
        QCOMPARE(a.value(3), 4.0);
        const Array v = read("1,2,3,4\n", DType::Int2, {2});
        QCOMPARE(v.value(1, 1), 4.0);
    }

    void readsNanAndInf() {
        const Array a = read("nan\ninf\n-inf\n+inf\n1e-50\n", DType::Float32, {5});
        QVERIFY(std::isnan(a.value(0)));
        QCOMPARE(a.value(1), std::numeric_limits<double>::infinity());
        QCOMPARE(a.value(2), -std::numeric_limits<double>::infinity());
        QCOMPARE(a.value(3), std::numeric_limits<double>::infinity());
        QCOMPARE(a.value(4), 0.0); // underflow rounds to zero
        const Array h = read("nan,-inf,65504,1e-10\n", DType::Float16, {4});
        QVERIFY(std::isnan(h.value(0)));
        QCOMPARE(h.value(1), -std::numeric_limits<double>::infinity());
        QCOMPARE(h.value(2), 65504.0);
        QCOMPARE(h.value(3), 0.0);
    }

    void acceptsCrLfBomCommentsAndBlankLines() {
        const std::string text = "\xEF\xBB\xBF# exported by a spreadsheet\r\n"
                                 "1.5, 2\r\n"
                                 "   # indented comment\r\n"
                                 "\r\n"
                                 "3,\t4  \r\n"
                                 "\r\n"
                                 "5,6\r\n"
                                 "7,8";
        const Array a = read(text, DType::Float64, {2, 2, 2});
        QCOMPARE(a.value(0), 1.5);
        QCOMPARE(a.value(3), 4.0);
        QCOMPARE(a.value(7), 8.0);
    }

    void readsIntegersAsNumpyWritesThem() {
        const Array a = read("1.000000000000000000e+00\n-2.5e+01\n+7\n", DType::Int32, {3});
        QCOMPARE(a.value(0), 1.0);
        QCOMPARE(a.value(1), -25.0);
        QCOMPARE(a.value(2), 7.0);
        const Array big = read("18446744073709551615\n", DType::UInt64, {1});
        QCOMPARE(big.as<std::uint64_t>()[0], std::numeric_limits<std::uint64_t>::max());
        const Array low = read("-9223372036854775808\n", DType::Int64, {1});
        QCOMPARE(low.as<std::int64_t>()[0], std::numeric_limits<std::int64_t>::min());
    }

    // A point or an exponent does not send a 64-bit integer through a double (53 bits): 2^53 + 1 and the
    // largest values stay exact, and a fraction hidden in many digits is still refused.
    void readsLargeIntegersWithAPointExactly() {
        const Array a = read("9007199254740993.0\n9.007199254740993e15\n-9223372036854775808.000\n"
                             "922337203685477580.7e1\n",
                             DType::Int64, {4});
        const auto values = a.as<std::int64_t>();
        QCOMPARE(values[0], std::int64_t{9007199254740993});
        QCOMPARE(values[1], std::int64_t{9007199254740993});
        QCOMPARE(values[2], std::numeric_limits<std::int64_t>::min());
        QCOMPARE(values[3], std::numeric_limits<std::int64_t>::max());
        const Array u = read("1.8446744073709551615e19\n", DType::UInt64, {1});
        QCOMPARE(u.as<std::uint64_t>()[0], std::numeric_limits<std::uint64_t>::max());
    }

    void reportsErrorsWithFileLineAndColumn_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<QString>("expected");
        QTest::newRow("too few values on a line")
            << "1,2,3\n4,5\n"
            << DType::Float32 << Shape{2, 3} << "x.csv:2: expected 3 values, found 2";
        QTest::newRow("too many lines") << "1\n2\n3\n"
                                        << DType::Float32 << Shape{2}
                                        << "x.csv:3: more lines than float32 (2,) needs (2 lines of 1 value)";
        QTest::newRow("too few lines") << "1,2\n"
                                       << DType::Float32 << Shape{2, 2}
                                       << "x.csv: expected 2 lines of 2 values for float32 (2, 2), found 1";
        QTest::newRow("empty file") << "" << DType::Float32 << Shape{2}
                                    << "x.csv: expected 2 lines of 1 value for float32 (2,), found 0";
        QTest::newRow("neither column nor row")
            << "1,2\n3,4\n"
            << DType::Float32 << Shape{3} << "x.csv:1: expected 1 value (one element a line) or 3 values";
        QTest::newRow("a fraction in a large int64")
            << "9007199254740993.5\n"
            << DType::Int64 << Shape{1}
            << "x.csv:1:1: '9007199254740993.5' is not a whole number, as int64 needs";
        QTest::newRow("int64 with a point, out of range")
            << "9223372036854775808.0\n"
            << DType::Int64 << Shape{1} << "x.csv:1:1: '9223372036854775808.0' is out of range for int64";
        QTest::newRow("not a number")
            << "1\nabc\n"
            << DType::Float64 << Shape{2} << "x.csv:2:1: 'abc' is not a number (expected float64)";
        QTest::newRow("header row")
            << "a,b\n1,2\n"
            << DType::Float64 << Shape{2, 2}
            << "x.csv:1:1: 'a' is not a number (expected float64) (a header row? start it "
               "with '#')";
        QTest::newRow("column of the bad value")
            << "1,  2,  x3\n"
            << DType::Int32 << Shape{1, 3} << "x.csv:1:9: 'x3' is not a number (expected int32)";
        QTest::newRow("empty value") << "1,,3\n"
                                     << DType::Int32 << Shape{3}
                                     << "x.csv:1:3: empty value, expected a number";
        QTest::newRow("fraction for an integer")
            << "1.5\n"
            << DType::Int8 << Shape{1} << "x.csv:1:1: '1.5' is not a whole number, as int8 needs";
        QTest::newRow("integer out of range")
            << "300\n"
            << DType::UInt8 << Shape{1} << "x.csv:1:1: '300' is out of range for uint8 (0 to 255)";
        QTest::newRow("negative unsigned") << "-1\n"
                                           << DType::UInt32 << Shape{1} << "'-1' is out of range for uint32";
        QTest::newRow("float overflow")
            << "1e39\n"
            << DType::Float32 << Shape{1} << "x.csv:1:1: '1e39' is out of range for float32";
        QTest::newRow("float16 overflow")
            << "70000\n"
            << DType::Float16 << Shape{1} << "'70000' is out of range for float16 (-65504 to 65504)";
        QTest::newRow("nan for an integer")
            << "nan\n"
            << DType::Int32 << Shape{1} << "'nan' is not a whole number, as int32 needs";
        QTest::newRow("vector components")
            << "1,2,3\n"
            << DType::Float4 << Shape{1} << "x.csv:1: expected 4 values (one element a line) or 4 values";
        QTest::newRow("crlf keeps line numbers")
            << "1\r\n2\r\nz\r\n"
            << DType::Float32 << Shape{3} << "x.csv:3:1: 'z' is not a number";
        QTest::newRow("comments keep line numbers")
            << "# c\n\n1\n# d\nq\n"
            << DType::Float32 << Shape{2} << "x.csv:5:1: 'q' is not a number";
        QTest::newRow("hex is no number") << "0x10\n" << DType::Int32 << Shape{1} << "'0x10' is not a number";
        QTest::newRow("trailing garbage") << "12abc\n"
                                          << DType::Int32 << Shape{1} << "'12abc' is not a number";
    }
    void reportsErrorsWithFileLineAndColumn() {
        QFETCH(QString, text);
        QFETCH(DType, dtype);
        QFETCH(Shape, shape);
        QFETCH(QString, expected);
        std::string error;
        read(text.toStdString(), dtype, shape, &error);
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(error.find((folder() / "x.csv").string()) == 0, error.c_str()); // names the whole path
    }

    // 1e400 once read as 0 (from_chars leaves an out-of-range value alone); every number the dtype cannot
    // hold is an error naming the file, line, column and value, wherever it stands.
    void rejectsNumbersOutsideTheDtypesRange_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<QString>("expected");
        QTest::newRow("1e400 float64")
            << "1e400" << DType::Float64
            << "x.csv:2:3: '1e400' is out of range for float64 (-1.79769e+308 to 1.79769e+308)";
        QTest::newRow("-1e400 float64")
            << "-1e400" << DType::Float64 << "x.csv:2:3: '-1e400' is out of range for float64";
        QTest::newRow("1e400 float32")
            << "1e400" << DType::Float32
            << "x.csv:2:3: '1e400' is out of range for float32 (-3.40282e+38 to 3.40282e+38)";
        QTest::newRow("-1e39 float32")
            << "-1e39" << DType::Float32 << "x.csv:2:3: '-1e39' is out of range for float32";
        QTest::newRow("1e400 float16") << "1e400" << DType::Float16
                                       << "x.csv:2:3: '1e400' is out of range for float16 (-65504 to 65504)";
        QTest::newRow("huge exponent") << "1e99999999999999999999" << DType::Float64
                                       << "x.csv:2:3: '1e99999999999999999999' is out of range for float64";
        QTest::newRow("many digits") << std::string(400, '9').c_str() << DType::Float64
                                     << "' is out of range for float64";
        QTest::newRow("digits after zeros")
            << "0.0001e313" << DType::Float64 << "'0.0001e313' is out of range";
        QTest::newRow("1e400 int32") << "1e400" << DType::Int32
                                     << "x.csv:2:3: '1e400' is out of range for int32";
        QTest::newRow("1.5e400 uint64")
            << "1.5e400" << DType::UInt64 << "x.csv:2:3: '1.5e400' is out of range for uint64";
        QTest::newRow("1e20 int64") << "1e20" << DType::Int64
                                    << "x.csv:2:3: '1e20' is out of range for int64";
        QTest::newRow("2^64 uint64") << "18446744073709551616" << DType::UInt64
                                     << "x.csv:2:3: '18446744073709551616' is out of range for uint64";
        QTest::newRow("-2^63-1 int64") << "-9223372036854775809" << DType::Int64
                                       << "x.csv:2:3: '-9223372036854775809' is out of range for int64";
        QTest::newRow("2^31 int32")
            << "2147483648" << DType::Int32
            << "x.csv:2:3: '2147483648' is out of range for int32 (-2147483648 to 2147483647)";
        QTest::newRow("2^32 uint32") << "4294967296" << DType::UInt32
                                     << "'4294967296' is out of range for uint32";
        QTest::newRow("65536 uint16")
            << "65536" << DType::UInt16 << "'65536' is out of range for uint16 (0 to 65535)";
        QTest::newRow("-32769 int16") << "-32769" << DType::Int16 << "'-32769' is out of range for int16";
        QTest::newRow("128 int8") << "128" << DType::Int8
                                  << "x.csv:2:3: '128' is out of range for int8 (-128 to 127)";
        QTest::newRow("-129.0 int8") << "-129.0" << DType::Int8 << "'-129.0' is out of range for int8";
        QTest::newRow("256e0 uint8") << "256e0" << DType::UInt8 << "'256e0' is out of range for uint8";
        QTest::newRow("1e-400 int32")
            << "1e-400" << DType::Int32 << "'1e-400' is not a whole number, as int32 needs";
    }
    void rejectsNumbersOutsideTheDtypesRange() {
        QFETCH(QString, value);
        QFETCH(DType, dtype);
        QFETCH(QString, expected);
        std::string error;
        read("0,0\n0," + value.toStdString() + "\n", dtype, {2, 2}, &error);
        QVERIFY2(!error.empty(), "no error");
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(error.find((folder() / "x.csv").string()) == 0, error.c_str());
    }
    // Too small for the dtype is a rounding to zero, as numpy reads it.
    void readsNumbersTooSmallForTheDtypeAsZero() {
        const Array doubles = read("1e-400\n-1e-400\n0.00001e-320\n", DType::Float64, {3});
        QCOMPARE(doubles.size(), std::size_t{3});
        QCOMPARE(doubles.as<double>()[0], 0.0);
        QVERIFY(std::signbit(doubles.as<double>()[1]));
        QCOMPARE(doubles.as<double>()[2], 0.0);
        const Array floats = read("1e-50\n", DType::Float32, {1});
        QCOMPARE(floats.size(), std::size_t{1});
        QCOMPARE(floats.as<float>()[0], 0.0f);
    }

    void reportsAMissingFile() {
        try {
            kp::io::readCsv(folder() / "none.csv", DType::Float32, {1});
            QFAIL("no error for a missing file");
        } catch (const kp::InputError& error) {
            QVERIFY(std::string(error.what()).find("none.csv") != std::string::npos);
        }
    }

    void survivesHostileBytes() {
        const std::string samples[] = {std::string("\0\0\0", 3),
                                       "\xff\xfe\x01,\x80",
                                       ",,,,,,\n",
                                       "\n\n\n",
                                       std::string(100000, ','),
                                       "1e999999999999999999\n",
                                       "-\n",
                                       "+\n",
                                       "+-1\n",
                                       ".\n",
                                       "infinity\n",
                                       "1'000\n",
                                       "\xEF\xBB\n"};
        for (const std::string& text : samples)
            for (const auto& [dtype, shape] :
                 {std::pair{DType::Float32, Shape{2}}, std::pair{DType::Int64, Shape{2, 1}},
                  std::pair{DType::Float16, Shape{1}}}) {
                std::string error;
                const Array a = read(text, dtype, shape, &error); // any other exception fails the test
                // Either the array as asked for, or a message that names the file.
                QVERIFY2(a.shape() == shape || error.find((folder() / "x.csv").string() + ":") == 0,
                         error.c_str());
            }
    }
};

QTEST_APPLESS_MAIN(TestCsvFile)
#include "tst_csvfile.moc"
