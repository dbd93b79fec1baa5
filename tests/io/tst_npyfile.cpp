// numpy .npy reading and writing: round trips of every dtype, files laid out as numpy writes them
// (built byte by byte from the format's specification, since numpy is not a test dependency), every
// kind of malformed input, and the checks loaders run before an array becomes an argument.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/io/NpyFile.h"

#include <QByteArray>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <csignal>
#include <cstring>
#include <sys/resource.h>

using kp::model::Array;
using kp::model::DType;
using kp::model::Shape;

Q_DECLARE_METATYPE(kp::model::DType)
Q_DECLARE_METATYPE(kp::model::Shape)
Q_DECLARE_METATYPE(kp::model::Array)

using kp::test::kAllTypes;

namespace {

// Values that differ per element and component and reach past 8 bits, with fractions for floats.
Array patterned(DType dtype, const Shape& shape) {
    Array array(dtype, shape);
    const int components = kp::model::components(dtype);
    for (std::size_t i = 0; i < array.size(); ++i)
        for (int c = 0; c < components; ++c) {
            const double base = static_cast<double>((i * 37 + static_cast<std::size_t>(c) * 11) % 251);
            const double value =
                kp::model::isFloating(dtype) ? (base - 100.0) * 0.375 : base * 129.0 - 7000.0;
            array.setValue(i, value, c);
        }
    return array;
}

QByteArray describe(const Array& array) {
    QByteArray text = QByteArray(kp::model::name(array.dtype()).data()) + " " +
                      QByteArray::fromStdString(kp::model::toString(array.shape())) + " [";
    for (std::size_t i = 0; i < std::min<std::size_t>(array.size(), 8); ++i)
        text += QByteArray::number(array.value(i)) + " ";
    return text + "]";
}

std::span<const std::byte> bytesOf(const QByteArray& bytes) {
    return std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

// A .npy file as the format specification lays it out: magic, version, header length (2 bytes
// for 1.0, 4 after), the dict padded with spaces and a newline to a multiple of `alignment`, data.
QByteArray npyFile(int major, const QByteArray& dict, const QByteArray& data, int alignment = 64) {
    const int prefix = major == 1 ? 10 : 12;
    QByteArray header = dict;
    while ((prefix + header.size() + 1) % alignment != 0)
        header += ' ';
    header += '\n';
    QByteArray file("\x93NUMPY", 6);
    file += static_cast<char>(major);
    file += '\0';
    for (int i = 0; i < prefix - 8; ++i)
        file += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
    return file + header + data;
}

template <typename T> QByteArray littleEndian(std::initializer_list<T> values) {
    QByteArray out;
    for (T v : values) {
        char raw[sizeof(T)];
        std::memcpy(raw, &v, sizeof v);
        if constexpr (std::endian::native == std::endian::big) std::reverse(raw, raw + sizeof raw);
        out.append(raw, sizeof raw);
    }
    return out;
}

template <typename T> QByteArray bigEndian(std::initializer_list<T> values) {
    QByteArray out = littleEndian(values);
    for (qsizetype i = 0; i < out.size(); i += static_cast<qsizetype>(sizeof(T)))
        std::reverse(out.begin() + i, out.begin() + i + static_cast<qsizetype>(sizeof(T)));
    return out;
}

Array arrayOf(DType dtype, const Shape& shape, std::initializer_list<double> values) {
    Array array(dtype, shape);
    std::size_t i = 0;
    const auto components = static_cast<std::size_t>(kp::model::components(dtype));
    for (double v : values) {
        array.setValue(i / components, v, static_cast<int>(i % components));
        ++i;
    }
    return array;
}

QString messageOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const kp::InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestNpyFile : public QObject {
    Q_OBJECT

private slots:
    void roundTripsEveryDtype_data() {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<Shape>("shape");
        const Shape shapes[] = {{7}, {3, 5}, {2, 3, 4}};
        for (DType dtype : kAllTypes)
            for (const Shape& shape : shapes)
                QTest::newRow(
                    (std::string(kp::model::name(dtype)) + " " + kp::model::toString(shape)).c_str())
                    << dtype << shape;
    }

    void roundTripsEveryDtype() {
        QFETCH(DType, dtype);
        QFETCH(Shape, shape);
        const Array original = patterned(dtype, shape);

        const Array parsed =
            kp::io::asVectorType(kp::io::parseNpy(kp::io::serializeNpy(original), "memory"), dtype, "memory");
        QVERIFY2(parsed == original, describe(parsed) + " != " + describe(original));

        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("a.npy").toStdString();
        kp::io::writeNpy(path, original);
        const Array read = kp::io::asVectorType(kp::io::readNpy(path), dtype, path.string());
        QVERIFY2(read == original, describe(read) + " != " + describe(original));
    }

    void writesNumpyHeader_data() {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<QByteArray>("descr");
        QTest::addColumn<QByteArray>("fileShape");
        QTest::newRow("float32 vector")
            << DType::Float32 << Shape{400} << QByteArray("'<f4'") << QByteArray("(400,)");
        QTest::newRow("uint8 has no byte order")
            << DType::UInt8 << Shape{2, 3} << QByteArray("'|u1'") << QByteArray("(2, 3)");
        QTest::newRow("int8") << DType::Int8 << Shape{1} << QByteArray("'|i1'") << QByteArray("(1,)");
        QTest::newRow("float16") << DType::Float16 << Shape{4, 4} << QByteArray("'<f2'")
                                 << QByteArray("(4, 4)");
        QTest::newRow("uint64 3-D") << DType::UInt64 << Shape{2, 3, 4} << QByteArray("'<u8'")
                                    << QByteArray("(2, 3, 4)");
        QTest::newRow("float4 gains a dimension")
            << DType::Float4 << Shape{2, 3} << QByteArray("'<f4'") << QByteArray("(2, 3, 4)");
        QTest::newRow("int2 gains a dimension")
            << DType::Int2 << Shape{5} << QByteArray("'<i4'") << QByteArray("(5, 2)");
        QTest::newRow("float1 gains a dimension of 1")
            << DType::Float1 << Shape{3} << QByteArray("'<f4'") << QByteArray("(3, 1)");
        QTest::newRow("uchar3") << DType::UChar3 << Shape{4} << QByteArray("'|u1'") << QByteArray("(4, 3)");
        QTest::newRow("double4") << DType::Double4 << Shape{2} << QByteArray("'<f8'") << QByteArray("(2, 4)");
        QTest::newRow("bool") << DType::Bool << Shape{8} << QByteArray("'|b1'") << QByteArray("(8,)");
        QTest::newRow("bfloat16 bits as void")
            << DType::BFloat16 << Shape{2, 2} << QByteArray("'|V2'") << QByteArray("(2, 2)");
    }

    void writesNumpyHeader() {
        if (std::endian::native != std::endian::little) QSKIP("the expected descrs are little-endian");
        QFETCH(DType, dtype);
        QFETCH(Shape, shape);
        QFETCH(QByteArray, descr);
        QFETCH(QByteArray, fileShape);
        const Array array = patterned(dtype, shape);
        const std::vector<std::byte> bytes = kp::io::serializeNpy(array);
        const QByteArray file(reinterpret_cast<const char*>(bytes.data()),
                              static_cast<qsizetype>(bytes.size()));

        QCOMPARE(file.left(8), QByteArray("\x93NUMPY\x01\x00", 8));
        const int headerLength = static_cast<unsigned char>(file[8]) | static_cast<unsigned char>(file[9])
                                                                           << 8;
        QCOMPARE((10 + headerLength) % 64, 0);
        const QByteArray header = file.mid(10, headerLength);
        QVERIFY2(header.endsWith('\n'), header);
        QVERIFY2(header.startsWith("{'descr': " + descr + ", 'fortran_order': False, 'shape': " + fileShape),
                 header);
        QCOMPARE(static_cast<std::size_t>(file.size()),
                 10 + static_cast<std::size_t>(headerLength) + array.bytes());
        QVERIFY(std::memcmp(file.constData() + 10 + headerLength, array.data(), array.bytes()) == 0);
    }

    void readsFilesAsNumpyWritesThem_data() {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<Array>("expected");
        QTest::newRow("v1.0 little-endian float32")
            << npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                       littleEndian<float>({1.5f, -2.0f, 3.25f}))
            << arrayOf(DType::Float32, {3}, {1.5, -2.0, 3.25});
        QTest::newRow("big-endian int32 is byte-swapped")
            << npyFile(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2, 2), }",
                       bigEndian<std::int32_t>({1, -2, 300, 70000}))
            << arrayOf(DType::Int32, {2, 2}, {1, -2, 300, 70000});
        QTest::newRow("big-endian float64 is byte-swapped")
            << npyFile(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }",
                       bigEndian<double>({0.1, -1e300}))
            << arrayOf(DType::Float64, {2}, {0.1, -1e300});
        QTest::newRow("fortran order 2-D becomes C order")
            << npyFile(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }",
                       littleEndian<std::int16_t>({1, 4, 2, 5, 3, 6}))
            << arrayOf(DType::Int16, {2, 3}, {1, 2, 3, 4, 5, 6});
        QTest::newRow("fortran order 3-D becomes C order") << fortran3d() << c3d();
        QTest::newRow("v2.0 header") << npyFile(2,
                                                "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }",
                                                littleEndian<std::uint16_t>({65535, 7}))
                                     << arrayOf(DType::UInt16, {2}, {65535, 7});
        QTest::newRow("v3.0 header") << npyFile(3,
                                                "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 2), }",
                                                littleEndian<std::int64_t>({-5, 1LL << 40}))
                                     << arrayOf(DType::Int64, {1, 2}, {-5, 1099511627776.0});
        QTest::newRow("bool, any nonzero byte true")
            << npyFile(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                       QByteArray("\x01\x00\x07", 3))
            << arrayOf(DType::Bool, {3}, {1, 0, 1});
        QTest::newRow("bfloat16 as 2-byte void items")
            << npyFile(1, "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }",
                       littleEndian<std::uint16_t>({0x3FC0, 0xC100}))
            << arrayOf(DType::BFloat16, {2}, {1.5, -8.0});
        QTest::newRow("4-D uint8 with last dimension 3 is a 3-D uchar3")
            << npyFile(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 2, 3), }",
                       QByteArray("\x01\x02\x03\x04\x05\x06", 6))
            << arrayOf(DType::UChar3, {1, 1, 2}, {1, 2, 3, 4, 5, 6});
        QTest::newRow("4-D int64 with last dimension 2 is a 3-D longlong2")
            << npyFile(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 1, 1, 2), }",
                       littleEndian<std::int64_t>({-3, 1LL << 40}))
            << arrayOf(DType::LongLong2, {1, 1, 1}, {-3, 1099511627776.0});
        QTest::newRow("float16") << npyFile(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
                                            littleEndian<std::uint16_t>({0x3C00, 0xC000}))
                                 << arrayOf(DType::Float16, {2}, {1.0, -2.0});
        QTest::newRow("uint8 with a '|'")
            << npyFile(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }",
                       QByteArray("\xFF\x01", 2))
            << arrayOf(DType::UInt8, {2}, {255, 1});
        QTest::newRow("any key order, double quotes, Python 2 longs, no trailing comma")
            << npyFile(1, "{\"shape\": (2L,),\"descr\":\"<i4\" , \"fortran_order\":False}",
                       littleEndian<std::int32_t>({8, 9}))
            << arrayOf(DType::Int32, {2}, {8, 9});
        QTest::newRow("old 16-byte alignment")
            << npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }",
                       littleEndian<double>({2.5}), 16)
            << arrayOf(DType::Float64, {1}, {2.5});
        QTest::newRow("4-D float32 with last dimension 4 is a 3-D float4")
            << npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 1, 4), }",
                       littleEndian<float>({1, 2, 3, 4, 5, 6, 7, 8}))
            << arrayOf(DType::Float4, {1, 2, 1}, {1, 2, 3, 4, 5, 6, 7, 8});
        QTest::newRow("empty array") << npyFile(1,
                                                "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }",
                                                QByteArray())
                                     << Array(DType::Float32, {0});
    }

    void readsFilesAsNumpyWritesThem() {
        QFETCH(QByteArray, file);
        QFETCH(Array, expected);
        const Array parsed = kp::io::parseNpy(bytesOf(file), "fixture.npy");
        QVERIFY2(parsed == expected, describe(parsed) + " != " + describe(expected));

        QTemporaryDir dir;
        QFile out(dir.filePath("fixture.npy"));
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(file) == file.size());
        out.close();
        QVERIFY(kp::io::readNpy(out.fileName().toStdString()) == expected);
    }

    void rejectsMalformedInput_data() {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("complaint");
        const QByteArray f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
        const QByteArray three = littleEndian<float>({1, 2, 3});
        const auto dict = [](const QByteArray& descr, const QByteArray& shape) {
            return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
        };
        QTest::newRow("empty") << QByteArray() << "truncated";
        QTest::newRow("ends inside the magic") << QByteArray("\x93NUM") << "truncated";
        QTest::newRow("wrong magic") << QByteArray("PK\x03\x04 not numpy at all") << "is not a .npy file";
        QTest::newRow("ends inside the header length")
            << QByteArray("\x93NUMPY\x02\x00\x10\x00", 10) << "truncated";
        QTest::newRow("version 4.0") << npyFile(4, f4, three) << "version 4.0 is not supported";
        QTest::newRow("version 1.1") << npyFile(1, f4, three).replace(7, 1, "\x01") << "version 1.1";
        QTest::newRow("header length past the end")
            << npyFile(1, f4, three).left(10 + 20) << "header says it is 118 bytes long, but only 20 follow";
        QTest::newRow("header length past the end, v2")
            << QByteArray("\x93NUMPY\x02\x00\xFF\xFF\xFF\xFF{", 13) << "4294967295 bytes long";
        QTest::newRow("not a dict") << npyFile(1, "[1, 2, 3]", three) << "expected '{'";
        QTest::newRow("lacks shape") << npyFile(1, "{'descr': '<f4', 'fortran_order': False}", three)
                                     << "lacks 'shape'";
        QTest::newRow("lacks descr") << npyFile(1, "{'fortran_order': False, 'shape': (3,)}", three)
                                     << "lacks 'descr'";
        QTest::newRow("unexpected key")
            << npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", three)
            << "unexpected key 'x'";
        QTest::newRow("key twice")
            << npyFile(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", three)
            << "'descr' appears twice";
        QTest::newRow("string with no closing quote")
            << npyFile(1, "{'descr: '<f4'}", three) << "expected ':'";
        QTest::newRow("unterminated at the end") << npyFile(1, "{'descr", three) << "no closing quote";
        QTest::newRow("fortran_order not a bool")
            << npyFile(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (3,)}", three) << "True or False";
        QTest::newRow("missing comma")
            << npyFile(1, "{'descr': '<f4' 'fortran_order': False, 'shape': (3,)}", three)
            << "expected ',' or '}' after the value of 'descr'";
        QTest::newRow("text after the dict")
            << npyFile(1, f4 + " junk", three) << "text after the closing '}'";
        QTest::newRow("shape not a tuple") << npyFile(1, dict("<f4", "[3]"), three) << "expected '('";
        QTest::newRow("shape with a word")
            << npyFile(1, dict("<f4", "(3, x)"), three) << "expected a dimension";
        QTest::newRow("unclosed shape")
            << npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3", three)
            << "expected ',' or ')'";
        QTest::newRow("complex64") << npyFile(1, dict("<c8", "(3,)"), three) << "complex64) is not supported";
        QTest::newRow("complex128") << npyFile(1, dict("<c16", "(3,)"), three)
                                    << "(complex) is not supported";
        QTest::newRow("unicode strings") << npyFile(1, dict("<U5", "(3,)"), three) << "strings";
        QTest::newRow("long double") << npyFile(1, dict("<f16", "(3,)"), three) << "float size";
        QTest::newRow("datetime") << npyFile(1, dict("<M8[ns]", "(3,)"), three) << "is not supported";
        QTest::newRow("no byte order") << npyFile(1, dict("f4", "(3,)"), three) << "no byte order";
        QTest::newRow("structured")
            << npyFile(1, "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (3,)}", three)
            << "structured dtype";
        QTest::newRow("0-d scalar") << npyFile(1, dict("<f4", "()"), littleEndian<float>({1}))
                                    << "0-D scalar";
        QTest::newRow("4 dimensions") << npyFile(1, dict("<f8", "(1, 1, 1, 5)"), three + three)
                                      << "4-D array (1, 1, 1, 5); Kernelpad arrays have 1 to 3 dimensions";
        QTest::newRow("4 dimensions ending in 4, but float16 (no vector type)")
            << npyFile(1, dict("<f2", "(1, 1, 1, 4)"), three + three + three + three) << "1 to 3 dimensions";
        QTest::newRow("5 dimensions") << npyFile(1, dict("<f4", "(1, 1, 1, 1, 4)"), three) << "5-D array";
        QTest::newRow("negative dimension")
            << npyFile(1, dict("<f4", "(-3,)"), three) << "negative dimension";
        QTest::newRow("dimension past 64 bits")
            << npyFile(1, dict("<f4", "(99999999999999999999999,)"), three) << "dimension too large";
        QTest::newRow("shape overflows")
            << npyFile(1, dict("<f8", "(4294967296, 4294967296, 16)"), three) << "too large to address";
        QTest::newRow("data too short") << npyFile(1, f4, littleEndian<float>({1, 2}))
                                        << "float32 (3,) needs 12 bytes of data, the file has 8";
        QTest::newRow("data too long") << npyFile(1, f4, three + "\x01") << "1 bytes after the data";
        QTest::newRow("data for a larger shape")
            << npyFile(1, dict("<f4", "(2,)"), three) << "bytes after the data";
        QTest::newRow("huge shape, no data")
            << npyFile(1, dict("<u1", "(1000000, 1000000, 1000)"), QByteArray()) << "truncated";
    }

    void rejectsMalformedInput() {
        QFETCH(QByteArray, file);
        QFETCH(QString, complaint);
        const QString message = messageOf([&] { kp::io::parseNpy(bytesOf(file), "fixture.npy"); });
        QVERIFY2(message.startsWith("fixture.npy"), qPrintable("no InputError naming the file: " + message));
        QVERIFY2(message.contains(complaint), qPrintable(message));
    }

    void rejectsMissingFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("none.npy");
        const QString message = messageOf([&] { kp::io::readNpy(path.toStdString()); });
        QVERIFY2(message.contains(path) && message.contains("No such file"), qPrintable(message));
        const QString folder = messageOf([&] { kp::io::readNpy(dir.path().toStdString()); });
        QVERIFY2(folder.contains("is a folder"), qPrintable(folder));
    }

    void requireMatchesExplainsTheDifference_data() {
        QTest::addColumn<Array>("loaded");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<QStringList>("mentions");
        QTest::newRow("dtype differs")
            << Array(DType::Float64, {400}) << DType::Float32 << Shape{400}
            << QStringList{"b.npy holds float64 (400,) but float32 (400,) is expected", "astype(np.float32)"};
        QTest::newRow("shape differs, same count")
            << Array(DType::Int32, {400}) << DType::Int32 << Shape{20, 20}
            << QStringList{"int32 (400,)", "int32 (20, 20)", "reshape(20, 20)"};
        QTest::newRow("count differs") << Array(DType::Int32, {400}) << DType::Int32 << Shape{401}
                                       << QStringList{"(400,)", "(401,)", "400 elements"};
        QTest::newRow("both differ") << Array(DType::UInt8, {2, 3}) << DType::Float16 << Shape{3, 2}
                                     << QStringList{"uint8 (2, 3)", "float16 (3, 2)"};
        QTest::newRow("vector type not converted")
            << Array(DType::Float32, {10, 4}) << DType::Float4 << Shape{10}
            << QStringList{"float32 (10, 4)", "float4 (10,)"};
    }

    void requireMatchesExplainsTheDifference() {
        QFETCH(Array, loaded);
        QFETCH(DType, dtype);
        QFETCH(Shape, shape);
        QFETCH(QStringList, mentions);
        const QString message = messageOf([&] { kp::io::requireMatches(loaded, dtype, shape, "b.npy"); });
        QVERIFY2(!message.isEmpty(), "no InputError");
        for (const QString& mention : mentions)
            QVERIFY2(message.contains(mention), qPrintable(message));
    }

    void requireMatchesAcceptsTheSame() {
        kp::io::requireMatches(Array(DType::Float4, {2, 3}), DType::Float4, {2, 3}, "b.npy");
        QVERIFY_THROWS_EXCEPTION(kp::InputError, kp::io::requireMatches(Array(DType::Float4, {2, 3}),
                                                                        DType::Float4, {3, 2}, "b.npy"));
    }

    void asVectorTypeReinterpretsTrailingDimension_data() {
        QTest::addColumn<Array>("scalars");
        QTest::addColumn<DType>("vectorType");
        QTest::addColumn<Shape>("shape");
        QTest::newRow("float32 (3, 4) -> float4 (3,)")
            << patterned(DType::Float32, {3, 4}) << DType::Float4 << Shape{3};
        QTest::newRow("int32 (2, 5, 2) -> int2 (2, 5)")
            << patterned(DType::Int32, {2, 5, 2}) << DType::Int2 << Shape{2, 5};
        QTest::newRow("float32 (1, 2) -> float2 (1,)")
            << patterned(DType::Float32, {1, 2}) << DType::Float2 << Shape{1};
        QTest::newRow("int32 (6, 4) -> int4 (6,)")
            << patterned(DType::Int32, {6, 4}) << DType::Int4 << Shape{6};
        QTest::newRow("uint8 (5, 3) -> uchar3 (5,)")
            << patterned(DType::UInt8, {5, 3}) << DType::UChar3 << Shape{5};
        QTest::newRow("float32 (4, 1) -> float1 (4,)")
            << patterned(DType::Float32, {4, 1}) << DType::Float1 << Shape{4};
        QTest::newRow("int64 (2, 4) -> long4 (2,)")
            << patterned(DType::Int64, {2, 4}) << DType::Long4 << Shape{2};
    }

    void asVectorTypeReinterpretsTrailingDimension() {
        QFETCH(Array, scalars);
        QFETCH(DType, vectorType);
        QFETCH(Shape, shape);
        const Array vectors = kp::io::asVectorType(scalars, vectorType, "v.npy");
        QCOMPARE(vectors.dtype(), vectorType);
        QVERIFY(vectors.shape() == shape);
        const int n = kp::model::components(vectorType);
        for (std::size_t i = 0; i < scalars.size(); ++i)
            QCOMPARE(vectors.value(i / static_cast<std::size_t>(n),
                                   static_cast<int>(i % static_cast<std::size_t>(n))),
                     scalars.value(i));
    }

    // A 3-D int64 file arrives as longlong lanes, a numpy bool mask as bool: the same bytes serve a kernel
    // that takes long3 or unsigned char.
    void asVectorTypeRetypesTheSameBytes() {
        const Array lanes = patterned(DType::LongLong3, {2});
        const Array longs = kp::io::asVectorType(lanes, DType::Long3, "v.npy");
        QCOMPARE(longs.dtype(), DType::Long3);
        QVERIFY(longs.shape() == lanes.shape());
        QVERIFY(
            std::equal(longs.span().begin(), longs.span().end(), lanes.span().begin(), lanes.span().end()));
        const Array mask = patterned(DType::Bool, {6});
        const Array bytes = kp::io::asVectorType(mask, DType::UInt8, "m.npy");
        QCOMPARE(bytes.dtype(), DType::UInt8);
        for (std::size_t i = 0; i < mask.size(); ++i)
            QCOMPARE(bytes.value(i), mask.value(i));
        // Lanes of another count or type are refused, saying which layout the file needs.
        QVERIFY_THROWS_EXCEPTION(kp::InputError, kp::io::asVectorType(lanes, DType::Long2, "v.npy"));
        QVERIFY_THROWS_EXCEPTION(kp::InputError,
                                 kp::io::requireMatches(kp::io::asVectorType(mask, DType::Int8, "m.npy"),
                                                        DType::Int8, {6}, "m.npy"));
    }

    void asVectorTypeLeavesOtherTypesAlone() {
        const Array floats = patterned(DType::Float32, {3, 4});
        QVERIFY(kp::io::asVectorType(floats, DType::Float32, "v.npy") == floats);
        QVERIFY(kp::io::asVectorType(floats, DType::Int32, "v.npy") == floats);
        const Array vectors = patterned(DType::Float4, {3});
        QVERIFY(kp::io::asVectorType(vectors, DType::Float4, "v.npy") == vectors);
    }

    void asVectorTypeRejectsWrongLayout_data() {
        QTest::addColumn<Array>("scalars");
        QTest::addColumn<DType>("vectorType");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("last dimension 3")
            << Array(DType::Float32, {5, 3}) << DType::Float4
            << "v.npy holds float32 (5, 3), but a float4 array is stored as float32 "
               "with a last dimension of 4";
        QTest::newRow("wrong component type")
            << Array(DType::Int32, {5, 4}) << DType::Float4 << "holds int32 (5, 4)";
        QTest::newRow("1-D") << Array(DType::Float32, {4}) << DType::Float4 << "holds float32 (4,)";
        QTest::newRow("int2 from (5, 4)")
            << Array(DType::Int32, {5, 4}) << DType::Int2 << "last dimension of 2";
        QTest::newRow("other vector type")
            << Array(DType::Float2, {5}) << DType::Float4 << "holds float2 (5,)";
    }

    void asVectorTypeRejectsWrongLayout() {
        QFETCH(Array, scalars);
        QFETCH(DType, vectorType);
        QFETCH(QString, complaint);
        const QString message = messageOf([&] { kp::io::asVectorType(scalars, vectorType, "v.npy"); });
        QVERIFY2(message.contains(complaint), qPrintable(message));
    }

    void writeReplacesFileAndLeavesNoTemporary() {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("out.npy").toStdString();
        kp::io::writeNpy(path, patterned(DType::Int16, {100}));
        const Array second = patterned(DType::Float64, {3, 3});
        kp::io::writeNpy(path, second);
        QVERIFY(kp::io::readNpy(path) == second);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"out.npy"});
    }

    void failedWriteKeepsOldFile() {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("out.npy").toStdString();
        const Array old = patterned(DType::Int32, {10});
        kp::io::writeNpy(path, old);

        // A file-size limit makes write() fail part-way, as a full disk would.
        rlimit saved{};
        QVERIFY(getrlimit(RLIMIT_FSIZE, &saved) == 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limited = saved;
        limited.rlim_cur = 4096;
        QVERIFY(setrlimit(RLIMIT_FSIZE, &limited) == 0);
        bool threw = false;
        try {
            kp::io::writeNpy(path, patterned(DType::Float64, {100, 100}));
        } catch (const kp::SystemError& e) {
            threw = QString(e.what()).contains("write");
        }
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previousHandler);

        QVERIFY2(threw, "no SystemError naming write()");
        QVERIFY(kp::io::readNpy(path) == old);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"out.npy"});
    }

    void failedRenameLeavesNoTemporary() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("taken/inside"));
        const std::filesystem::path path = dir.filePath("taken").toStdString();
        QVERIFY_THROWS_EXCEPTION(kp::SystemError, kp::io::writeNpy(path, patterned(DType::Int8, {4})));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"taken"});
        QVERIFY(QDir(dir.filePath("taken/inside")).exists());
    }

    void writeIntoMissingFolderNamesIt() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("no/such/out.npy").toStdString();
        try {
            kp::io::writeNpy(path, patterned(DType::Int8, {4}));
            QFAIL("no exception");
        } catch (const kp::SystemError& e) {
            QVERIFY2(QString(e.what()).contains(dir.filePath("no/such/")), e.what());
        }
    }

private:
    // numpy's np.asfortranarray(a) of a (2, 3, 2) float64 array with a[i, j, k] = 100i + 10j + k: the
    // first index varies fastest in the file.
    static QByteArray fortran3d() {
        double values[12];
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 2; ++k)
                    values[i + 2 * (j + 3 * k)] = 100 * i + 10 * j + k;
        QByteArray data;
        for (double v : values)
            data += littleEndian<double>({v});
        return npyFile(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3, 2), }", data);
    }

    static Array c3d() {
        Array array(DType::Float64, {2, 3, 2});
        for (std::size_t i = 0; i < 2; ++i)
            for (std::size_t j = 0; j < 3; ++j)
                for (std::size_t k = 0; k < 2; ++k)
                    array.setValue((i * 3 + j) * 2 + k, static_cast<double>(100 * i + 10 * j + k));
        return array;
    }
};

QTEST_APPLESS_MAIN(TestNpyFile)
#include "tst_npyfile.moc"
