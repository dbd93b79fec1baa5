// DType: every dtype of project-format.md with its file name, CUDA name, size, alignment, components,
// component type, signedness and floatness; names read back and unknown names are refused.
#include "core/model/DType.h"

#include <QTest>
#include <set>

using namespace kp::model;

Q_DECLARE_METATYPE(DType)

class TestDType : public QObject {
    Q_OBJECT

private slots:
    void describesEveryDtype_data() {
        QTest::addColumn<DType>("type");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<int>("bytes");
        QTest::addColumn<int>("align");
        QTest::addColumn<int>("parts");
        QTest::addColumn<DType>("component");
        QTest::addColumn<bool>("floating");
        QTest::addColumn<bool>("isSignedType");
        QTest::newRow("int8") << DType::Int8 << "int8"
                              << "signed char" << 1 << 1 << 1 << DType::Int8 << false << true;
        QTest::newRow("uint8") << DType::UInt8 << "uint8"
                               << "unsigned char" << 1 << 1 << 1 << DType::UInt8 << false << false;
        QTest::newRow("int16") << DType::Int16 << "int16"
                               << "short" << 2 << 2 << 1 << DType::Int16 << false << true;
        QTest::newRow("uint16") << DType::UInt16 << "uint16"
                                << "unsigned short" << 2 << 2 << 1 << DType::UInt16 << false << false;
        QTest::newRow("int32") << DType::Int32 << "int32"
                               << "int" << 4 << 4 << 1 << DType::Int32 << false << true;
        QTest::newRow("uint32") << DType::UInt32 << "uint32"
                                << "unsigned int" << 4 << 4 << 1 << DType::UInt32 << false << false;
        QTest::newRow("int64") << DType::Int64 << "int64"
                               << "long long" << 8 << 8 << 1 << DType::Int64 << false << true;
        QTest::newRow("uint64") << DType::UInt64 << "uint64"
                                << "unsigned long long" << 8 << 8 << 1 << DType::UInt64 << false << false;
        QTest::newRow("float16") << DType::Float16 << "float16"
                                 << "__half" << 2 << 2 << 1 << DType::Float16 << true << true;
        QTest::newRow("float32") << DType::Float32 << "float32"
                                 << "float" << 4 << 4 << 1 << DType::Float32 << true << true;
        QTest::newRow("float64") << DType::Float64 << "float64"
                                 << "double" << 8 << 8 << 1 << DType::Float64 << true << true;
        QTest::newRow("float2") << DType::Float2 << "float2"
                                << "float2" << 8 << 8 << 2 << DType::Float32 << true << true;
        QTest::newRow("float4") << DType::Float4 << "float4"
                                << "float4" << 16 << 16 << 4 << DType::Float32 << true << true;
        QTest::newRow("int2") << DType::Int2 << "int2"
                              << "int2" << 8 << 8 << 2 << DType::Int32 << false << true;
        QTest::newRow("int4") << DType::Int4 << "int4"
                              << "int4" << 16 << 16 << 4 << DType::Int32 << false << true;
        QTest::newRow("bool") << DType::Bool << "bool"
                              << "bool" << 1 << 1 << 1 << DType::Bool << false << false;
        QTest::newRow("bfloat16") << DType::BFloat16 << "bfloat16"
                                  << "__nv_bfloat16" << 2 << 2 << 1 << DType::BFloat16 << true << true;
        QTest::newRow("char3") << DType::Char3 << "char3"
                               << "char3" << 3 << 1 << 3 << DType::Int8 << false << true;
        QTest::newRow("uchar4") << DType::UChar4 << "uchar4"
                                << "uchar4" << 4 << 4 << 4 << DType::UInt8 << false << false;
        QTest::newRow("short4") << DType::Short4 << "short4"
                                << "short4" << 8 << 8 << 4 << DType::Int16 << false << true;
        QTest::newRow("ushort3") << DType::UShort3 << "ushort3"
                                 << "ushort3" << 6 << 2 << 3 << DType::UInt16 << false << false;
        QTest::newRow("uint3") << DType::UInt3 << "uint3"
                               << "uint3" << 12 << 4 << 3 << DType::UInt32 << false << false;
        QTest::newRow("long2") << DType::Long2 << "long2"
                               << "long2" << 16 << 16 << 2 << DType::Int64 << false << true;
        QTest::newRow("ulong4") << DType::ULong4 << "ulong4"
                                << "ulong4" << 32 << 16 << 4 << DType::UInt64 << false << false;
        QTest::newRow("longlong3") << DType::LongLong3 << "longlong3"
                                   << "longlong3" << 24 << 8 << 3 << DType::Int64 << false << true;
        QTest::newRow("float1") << DType::Float1 << "float1"
                                << "float1" << 4 << 4 << 1 << DType::Float32 << true << true;
        QTest::newRow("float3") << DType::Float3 << "float3"
                                << "float3" << 12 << 4 << 3 << DType::Float32 << true << true;
        QTest::newRow("double3") << DType::Double3 << "double3"
                                 << "double3" << 24 << 8 << 3 << DType::Float64 << true << true;
        QTest::newRow("double4") << DType::Double4 << "double4"
                                 << "double4" << 32 << 16 << 4 << DType::Float64 << true << true;
    }
    void describesEveryDtype() {
        QFETCH(DType, type);
        QFETCH(QString, fileName);
        QFETCH(QString, cuda);
        QFETCH(int, bytes);
        QFETCH(int, align);
        QFETCH(int, parts);
        QFETCH(DType, component);
        QFETCH(bool, floating);
        QFETCH(bool, isSignedType);
        QCOMPARE(std::string(name(type)), fileName.toStdString());
        QCOMPARE(dtypeFromName(fileName.toStdString()), std::optional(type));
        QCOMPARE(std::string(cudaName(type)), cuda.toStdString());
        QCOMPARE(byteSize(type), std::size_t(bytes));
        QCOMPARE(alignment(type), std::size_t(align));
        QCOMPARE(components(type), parts);
        QCOMPARE(componentType(type), component);
        QCOMPARE(byteSize(type), byteSize(component) * std::size_t(parts));
        QCOMPARE(isFloating(type), floating);
        QCOMPARE(isSigned(type), isSignedType);
    }

    // 13 scalar types and CUDA's 48 vector types, each named once; vectorOf finds a vector by its lanes.
    void listsEveryDtypeOnce() {
        const auto all = allDTypes();
        QCOMPARE(all.size(), std::size_t{61});
        std::set<std::string_view> names;
        int vectors = 0;
        for (const DType type : all) {
            QVERIFY2(names.insert(name(type)).second, name(type).data());
            QCOMPARE(dtypeFromName(name(type)), std::optional(type));
            vectors += isVector(type) ? 1 : 0;
            if (isVector(type)) QCOMPARE(byteSize(type) % alignment(type), std::size_t{0});
        }
        QCOMPARE(vectors, 48);
        QVERIFY(isVector(DType::Float1) && !isVector(DType::Float32) && !isVector(DType::Bool));
        QCOMPARE(vectorOf(DType::Float32, 3), std::optional(DType::Float3));
        QCOMPARE(vectorOf(DType::UInt8, 4), std::optional(DType::UChar4));
        QCOMPARE(vectorOf(DType::Int64, 2), std::optional(DType::LongLong2)); // not long2
        QCOMPARE(vectorOf(DType::Float16, 2), std::nullopt);                  // __half2 is no dtype
        QCOMPARE(vectorOf(DType::Int32, 5), std::nullopt);
    }

    void refusesUnknownNames_data() {
        QTest::addColumn<QString>("spelled");
        QTest::newRow("empty") << "";
        QTest::newRow("upper case") << "Float32";
        QTest::newRow("C name") << "float";
        QTest::newRow("numpy short code") << "f4";
        QTest::newRow("trailing blank") << "int32 ";
        QTest::newRow("float8") << "float8";
        QTest::newRow("bool8") << "bool8";
        QTest::newRow("float5") << "float5";
    }
    void refusesUnknownNames() {
        QFETCH(QString, spelled);
        QCOMPARE(dtypeFromName(spelled.toStdString()), std::nullopt);
    }

    void acceptsNamesWithEmbeddedZeroOnlyWhenExact() {
        using namespace std::string_view_literals;
        QCOMPARE(dtypeFromName("int8\0x"sv), std::nullopt);
        QCOMPARE(dtypeFromName("int8"sv), std::optional(DType::Int8));
    }
};

QTEST_APPLESS_MAIN(TestDType)
#include "tst_dtype.moc"
