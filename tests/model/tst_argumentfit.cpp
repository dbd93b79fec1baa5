// Arguments follow the kernel's signature as the user edits it, keeping what they set: same names keep
// their specs, renames keep them by position, new parameters get sensible defaults, incompatible ones
// are replaced.
#include "core/model/ArgumentFit.h"
#include "core/model/SignatureParser.h"

#include <QtTest>

using namespace kp::model;

namespace {

KernelSignature kernelOf(const std::string& code) {
    const auto parsed = parseKernels(code);
    return parsed.kernels.at(0);
}

ArgumentSpec array(const std::string& name, DType dtype, Shape shape, Direction direction) {
    ArgumentSpec a;
    a.name = name;
    a.type = ArraySpec{dtype, std::move(shape)};
    a.direction = direction;
    return a;
}

} // namespace

class TestArgumentFit : public QObject {
    Q_OBJECT
private slots:
    void newKernelGetsDefaults() {
        const auto args = fitArguments(
            kernelOf("__global__ void k(float* dest, const float* a, const double* b, int n, float s) {}"),
            {}, 400);
        QCOMPARE(args.size(), std::size_t{5});
        QCOMPARE(args[0].name, std::string("dest"));
        QCOMPARE(args[0].direction, std::optional(Direction::Out));
        QCOMPARE(args[0].array().shape, (Shape{400}));
        QCOMPARE(args[1].direction, std::optional(Direction::In));
        QVERIFY(args[1].init && args[1].init->kind == InitSpec::Kind::Uniform);
        QVERIFY(args[1].init->seed != args[2].init->seed); // two inputs are not the same numbers
        QCOMPARE(args[2].array().dtype, DType::Float64);
        QCOMPARE(toString(*args[3].value), std::string("size(dest)"));
        QCOMPARE(args[4].scalar().dtype, DType::Float32);
        QCOMPARE(toString(*args[4].value), std::string("1")); // 0 would make s * x silently zero
    }

    // New number arguments no longer default to 0, which made the kernel silently do nothing: a count
    // is bound to an array (even one after it), a width or a height to its columns or rows, and any other
    // number is 1.
    void aNewNumberIsNeverZero_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("value");
        QTest::newRow("count before the arrays") << "__global__ void k(int n, float* out) {}"
                                                 << "size(out)";
        QTest::newRow("camel case") << "__global__ void k(float* x, int nElems) {}"
                                    << "size(x)";
        QTest::newRow("underscore") << "__global__ void k(float* x, int n_items) {}"
                                    << "size(x)";
        QTest::newRow("numElements") << "__global__ void k(float* x, int numElements) {}"
                                     << "size(x)";
        QTest::newRow("total") << "__global__ void k(float* x, unsigned totalCount) {}"
                               << "size(x)";
        QTest::newRow("width") << "__global__ void k(float* img, int width) {}"
                               << "cols(img)";
        QTest::newRow("height") << "__global__ void k(float* img, int height) {}"
                                << "rows(img)";
        QTest::newRow("a factor") << "__global__ void k(float* y, float a) {}"
                                  << "1";
        QTest::newRow("no array to count") << "__global__ void k(int n) {}"
                                           << "1";
        QTest::newRow("not a count: next") << "__global__ void k(float* x, int next) {}"
                                           << "1";
        QTest::newRow("not a count: silent") << "__global__ void k(float* x, int silent) {}"
                                             << "1";
        QTest::newRow("a block's size") << "__global__ void k(float* x, int blockSize) {}"
                                        << "1";
        QTest::newRow("ends in len") << "__global__ void k(float* x, int arrayLen) {}"
                                     << "size(x)";
    }
    void aNewNumberIsNeverZero() {
        QFETCH(QString, code);
        QFETCH(QString, value);
        const auto args = fitArguments(kernelOf(code.toStdString()), {});
        const auto scalar =
            std::find_if(args.begin(), args.end(), [](const auto& a) { return !a.isArray(); });
        QVERIFY(scalar != args.end());
        QCOMPARE(QString::fromStdString(toString(*scalar->value)), value);
    }

    void keepsWhatTheUserSetByName() {
        auto a = array("a", DType::Float32, {4, 4}, Direction::InOut);
        InitSpec init;
        init.kind = InitSpec::Kind::Formula;
        init.formula = "i + j";
        a.init = init;
        const std::vector<ArgumentSpec> before{a, array("out", DType::Float32, {4, 4}, Direction::Out)};
        // A parameter added in front and the two reordered: both keep their specs.
        const auto args = fitArguments(kernelOf("__global__ void k(int n, float* out, float* a) {}"), before);
        QCOMPARE(args[1], before[1]);
        QCOMPARE(args[2], before[0]);
        QCOMPARE(toString(*args[0].value), std::string("size(out)")); // bound to the array after it
    }

    void renameKeepsThePositionAndItsBindings() {
        ScalarValue size{ScalarValue::Kind::Size, 0, "x"};
        ArgumentSpec n;
        n.name = "n";
        n.type = ScalarSpec{DType::Int32};
        n.value = size;
        const std::vector<ArgumentSpec> before{array("x", DType::Float32, {1000}, Direction::InOut), n};
        const auto args = fitArguments(kernelOf("__global__ void k(float* data, int n) {}"), before);
        QCOMPARE(args[0].name, std::string("data"));
        QCOMPARE(args[0].array().shape, (Shape{1000}));
        QCOMPARE(toString(*args[1].value), std::string("size(data)"));
    }

    void incompatibleChangeGetsANewDefault_data() {
        QTest::addColumn<QString>("code");
        QTest::newRow("pointer became scalar") << "__global__ void k(float x) {}";
        QTest::newRow("element type changed") << "__global__ void k(int* x) {}";
    }
    void incompatibleChangeGetsANewDefault() {
        QFETCH(QString, code);
        const std::vector<ArgumentSpec> before{array("x", DType::Float32, {77}, Direction::InOut)};
        const auto args = fitArguments(kernelOf(code.toStdString()), before);
        QCOMPARE(args.size(), std::size_t{1});
        QVERIFY(args[0] != before[0]);
        QVERIFY(fits(args[0], kernelOf(code.toStdString()).parameters[0]));
    }

    void unknownElementTypeKeepsTheArray() {
        // A template parameter has no dtype: whatever the user chose stays.
        const std::vector<ArgumentSpec> before{array("x", DType::Int16, {8}, Direction::InOut)};
        const auto args = fitArguments(kernelOf("template <typename T> __global__ void k(T* x) {}"), before);
        QCOMPARE(args[0], before[0]);
    }
};

QTEST_APPLESS_MAIN(TestArgumentFit)
#include "tst_argumentfit.moc"
