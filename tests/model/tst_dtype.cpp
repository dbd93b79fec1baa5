// DType: every dtype of project-format.md with its file name, CUDA name, size, alignment, components,
// component type, signedness and floatness; names read back and unknown names are refused.
#include "core/model/DType.h"

#include <QTest>

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

    void refusesUnknownNames_data() {
        QTest::addColumn<QString>("spelled");
        QTest::newRow("empty") << "";
        QTest::newRow("upper case") << "Float32";
        QTest::newRow("C name") << "float";
        QTest::newRow("numpy short code") << "f4";
        QTest::newRow("trailing blank") << "int32 ";
        QTest::newRow("float8") << "float8";
        QTest::newRow("bool") << "bool";
        QTest::newRow("float3") << "float3";
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
