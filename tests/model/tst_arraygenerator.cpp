// ArrayGenerator: every init kind (zeros, ones, constant, range, uniform, normal, formula, file), the
// integer rounding and flooring rules, reproducible random values, formula errors with their position,
// and file inits that must match exactly and stay inside the playground's folder.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/io/CsvFile.h"
#include "core/io/InitialArray.h"
#include "core/io/NpyFile.h"
#include "core/model/ArrayGenerator.h"

#include <QTemporaryDir>
#include <QTest>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <random>

using namespace kp::model;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(DType)

using kp::test::inputErrorOf;

namespace {

ArraySpec spec(DType dtype, Shape shape) {
    ArraySpec s;
    s.dtype = dtype;
    s.shape = std::move(shape);
    return s;
}

InitSpec kind(InitSpec::Kind k) {
    InitSpec init;
    init.kind = k;
    return init;
}

InitSpec formula(const std::string& text) {
    InitSpec init = kind(InitSpec::Kind::Formula);
    init.formula = text;
    return init;
}

InitSpec file(const std::string& name) {
    InitSpec init = kind(InitSpec::Kind::File);
    init.file = name;
    return init;
}

Array make(DType dtype, Shape shape, const InitSpec& init, const fs::path& folder = ".") {
    return kp::io::initialArray(spec(dtype, std::move(shape)), init, folder, "args[0].init");
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

struct Moments {
    double mean = 0, stddev = 0;
};
Moments moments(const Array& a) {
    Moments m;
    for (std::size_t i = 0; i < a.size(); ++i)
        m.mean += a.value(i);
    m.mean /= double(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        m.stddev += (a.value(i) - m.mean) * (a.value(i) - m.mean);
    m.stddev = std::sqrt(m.stddev / double(a.size()));
    return m;
}

#define VERIFY_MENTIONS(text, words)                                                                         \
    QVERIFY2(std::string(text).find(words) != std::string::npos,                                             \
             (std::string(text) + " lacks: " + (words)).c_str())

} // namespace

class TestArrayGenerator : public QObject {
    Q_OBJECT

private slots:
    void fillsZerosOnesAndConstants() {
        for (DType type : {DType::Int8, DType::Float16, DType::Float64, DType::Float4, DType::Int2}) {
            const Array zeros = make(type, {3, 2}, kind(InitSpec::Kind::Zeros));
            const Array ones = make(type, {3, 2}, kind(InitSpec::Kind::Ones));
            InitSpec seven = kind(InitSpec::Kind::Constant);
            seven.constant = 7;
            const Array sevens = make(type, {3, 2}, seven);
            QCOMPARE(ones.shape(), (Shape{3, 2}));
            for (std::size_t i = 0; i < ones.size(); ++i)
                for (int c = 0; c < components(type); ++c) {
                    QCOMPARE(zeros.value(i, c), 0.0);
                    QCOMPARE(ones.value(i, c), 1.0);
                    QCOMPARE(sevens.value(i, c), 7.0);
                }
        }
    }

    void roundsConstantsForIntegers_data() {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<double>("constant");
        QTest::addColumn<double>("stored");
        QTest::newRow("rounds up") << DType::Int32 << 2.6 << 3.0;
        QTest::newRow("rounds down") << DType::Int32 << 2.4 << 2.0;
        QTest::newRow("half away from zero") << DType::Int32 << 2.5 << 3.0;
        QTest::newRow("negative half away from zero") << DType::Int32 << -2.5 << -3.0;
        QTest::newRow("saturates") << DType::UInt8 << 300.0 << 255.0;
        QTest::newRow("saturates below") << DType::UInt8 << -4.0 << 0.0;
        QTest::newRow("float keeps fraction") << DType::Float64 << 2.5 << 2.5;
        QTest::newRow("vector integer") << DType::Int4 << 1.5 << 2.0;
    }
    void roundsConstantsForIntegers() {
        QFETCH(DType, dtype);
        QFETCH(double, constant);
        QFETCH(double, stored);
        InitSpec init = kind(InitSpec::Kind::Constant);
        init.constant = constant;
        QCOMPARE(make(dtype, {2}, init).value(1, components(dtype) - 1), stored);
    }

    void fillsRanges() {
        InitSpec init = kind(InitSpec::Kind::Range);
        init.start = -1;
        init.step = 0.25;
        const Array a = make(DType::Float32, {2, 3}, init);
        for (std::size_t i = 0; i < a.size(); ++i)
            QCOMPARE(a.value(i), -1 + 0.25 * double(i));
        const Array ints = make(DType::Int16, {5}, init);
        QCOMPARE(ints.value(2), -1.0); // -0.5 rounds away from zero
        QCOMPARE(ints.value(3), -0.0);
        QCOMPARE(ints.value(4), 0.0);
        const Array vectors = make(DType::Float2, {3}, init);
        QCOMPARE(vectors.value(2, 0), -0.5);
        QCOMPARE(vectors.value(2, 1), -0.5);
    }

    void drawsReproducibleUniformValues() {
        InitSpec init = kind(InitSpec::Kind::Uniform);
        init.low = -2;
        init.high = 3;
        init.seed = 42;
        const Array a = make(DType::Float64, {100000}, init);
        QVERIFY(a == make(DType::Float64, {100000}, init));
        init.seed = 43;
        QVERIFY(!(a == make(DType::Float64, {100000}, init)));
        double lowest = 1e9, highest = -1e9;
        for (std::size_t i = 0; i < a.size(); ++i) {
            lowest = std::min(lowest, a.value(i));
            highest = std::max(highest, a.value(i));
        }
        QVERIFY(lowest >= -2 && lowest < -1.99);
        QVERIFY(highest < 3 && highest > 2.99);
        const Moments m = moments(a);
        QVERIFY2(std::abs(m.mean - 0.5) < 0.02, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::abs(m.stddev - 5 / std::sqrt(12.0)) < 0.02, qPrintable(QString::number(m.stddev)));
    }

    // What a sweep relies on to generate once: the first rows of a larger array are the smaller array.
    void leadingPartsAreTheSmallerArrays() {
        InitSpec normal = kind(InitSpec::Kind::Normal);
        normal.seed = 9;
        InitSpec uniform = kind(InitSpec::Kind::Uniform);
        uniform.seed = 10;
        InitSpec range = kind(InitSpec::Kind::Range);
        range.start = -4;
        range.step = 0.25;
        for (const InitSpec& init : {normal, uniform, range, kind(InitSpec::Kind::Ones)}) {
            QVERIFY(generatedInIndexOrder(init));
            for (const DType dtype : {DType::Float32, DType::Float64, DType::Int32, DType::Float2}) {
                const auto large = std::make_shared<const Array>(make(dtype, {1001, 3}, init));
                QVERIFY(leadingView(large, {333, 3}) == make(dtype, {333, 3}, init));
                QVERIFY(leadingView(large, {1001, 3}) == *large);
            }
        }
        QVERIFY(!generatedInIndexOrder(kind(InitSpec::Kind::Formula)));
        QVERIFY(!generatedInIndexOrder(kind(InitSpec::Kind::File)));
        const auto large = std::make_shared<const Array>(make(DType::Float32, {10, 4}, normal));
        QVERIFY_THROWS_EXCEPTION(kp::Error, (void)leadingView(large, {5, 3}));
        QVERIFY_THROWS_EXCEPTION(kp::Error, (void)leadingView(large, {11, 4}));
    }

    void keepsTheRandomSequenceAcrossPlatforms() {
        // Our own transform of mt19937_64: these values must never change, or shared playgrounds would.
        InitSpec init = kind(InitSpec::Kind::Uniform);
        init.seed = 1;
        const Array a = make(DType::Float64, {2}, init);
        std::mt19937_64 engine(1);
        QCOMPARE(a.value(0), double(engine() >> 11) * 0x1.0p-53);
        QCOMPARE(a.value(1), double(engine() >> 11) * 0x1.0p-53);
    }

    void floorsUniformIntegers() {
        InitSpec init = kind(InitSpec::Kind::Uniform);
        init.low = 0;
        init.high = 10;
        init.seed = 3;
        const Array a = make(DType::Int32, {100000}, init);
        std::array<int, 10> counts{};
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double v = a.value(i);
            QVERIFY2(v >= 0 && v <= 9, qPrintable(QString::number(v)));
            ++counts[static_cast<std::size_t>(v)];
        }
        for (int count : counts)
            QVERIFY2(std::abs(count - 10000) < 500, qPrintable(QString::number(count)));

        init.low = -1;
        init.high = 1;
        const Array signs = make(DType::Int8, {10000}, init);
        int negatives = 0;
        for (std::size_t i = 0; i < signs.size(); ++i) {
            QVERIFY(signs.value(i) == -1 || signs.value(i) == 0);
            negatives += signs.value(i) < 0;
        }
        QVERIFY(std::abs(negatives - 5000) < 300);
    }

    void drawsVectorComponentsSeparately() {
        InitSpec init = kind(InitSpec::Kind::Uniform);
        init.seed = 9;
        const Array vectors = make(DType::Float4, {8}, init);
        const Array scalars = make(DType::Float32, {32}, init);
        for (std::size_t i = 0; i < 8; ++i)
            for (int c = 0; c < 4; ++c)
                QCOMPARE(vectors.value(i, c), scalars.value(i * 4 + std::size_t(c)));
        QVERIFY(vectors.value(0, 0) != vectors.value(0, 1));
    }

    void drawsReproducibleNormalValues() {
        InitSpec init = kind(InitSpec::Kind::Normal);
        init.mean = 10;
        init.stddev = 2;
        init.seed = 5;
        const Array a = make(DType::Float32, {100001}, init); // odd: the last Box-Muller pair is half used
        QVERIFY(a == make(DType::Float32, {100001}, init));
        const Moments m = moments(a);
        QVERIFY2(std::abs(m.mean - 10) < 0.03, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::abs(m.stddev - 2) < 0.03, qPrintable(QString::number(m.stddev)));
        int withinOne = 0;
        for (std::size_t i = 0; i < a.size(); ++i)
            withinOne += std::abs(a.value(i) - 10) < 2;
        QVERIFY(std::abs(double(withinOne) / double(a.size()) - 0.6827) < 0.01);

        init.stddev = 0;
        const Array constant = make(DType::Int32, {4}, init);
        for (std::size_t i = 0; i < 4; ++i)
            QCOMPARE(constant.value(i), 10.0);
    }

    // Large arrays transform their draws on every core: the numbers are the ones drawn in order on one,
    // across the blocks the work is cut into and with a half-used last pair.
    void largeNormalArraysAreTheSerialDraws() {
        InitSpec init = kind(InitSpec::Kind::Normal);
        init.mean = -1;
        init.stddev = 3;
        init.seed = 11;
        const std::size_t count = 4'200'001; // three blocks of the parallel path, the last one partial
        const Array a = make(DType::Float64, {count}, init);
        const Array f = make(DType::Float32, {count}, init);
        std::mt19937_64 engine(init.seed);
        const auto unit = [&] { return static_cast<double>(engine() >> 11) * 0x1.0p-53; };
        const auto values = a.as<double>();
        const auto floats = f.as<float>();
        for (std::size_t flat = 0; flat < count; flat += 2) {
            const double u1 = 1.0 - unit();
            const double u2 = unit();
            const double radius = std::sqrt(-2.0 * std::log(u1));
            const double angle = 2.0 * std::numbers::pi * u2;
            const double first = -1 + 3 * (radius * std::cos(angle));
            if (values[flat] != first || floats[flat] != static_cast<float>(first))
                QFAIL(qPrintable(QStringLiteral("element %1 differs").arg(flat)));
            if (flat + 1 == count) break;
            const double second = -1 + 3 * (radius * std::sin(angle));
            if (values[flat + 1] != second || floats[flat + 1] != static_cast<float>(second))
                QFAIL(qPrintable(QStringLiteral("element %1 differs").arg(flat + 1)));
        }
    }

    // The engine's words are drawn in blocks and tempered on every core: a large uniform array is still
    // std::mt19937_64's sequence, across the blocks, for floats, doubles and (one core) integers.
    void largeUniformArraysAreTheEnginesSequence() {
        InitSpec init = kind(InitSpec::Kind::Uniform);
        init.low = -2;
        init.high = 6;
        init.seed = 12345;
        const std::size_t count = 4'500'003;
        const Array d = make(DType::Float64, {count}, init);
        const Array f = make(DType::Float32, {count}, init);
        const Array n = make(DType::Int32, {count}, init);
        std::mt19937_64 engine(init.seed);
        for (std::size_t i = 0; i < count; ++i) {
            const double value = -2 + 8 * (static_cast<double>(engine() >> 11) * 0x1.0p-53);
            if (d.as<double>()[i] != value || f.as<float>()[i] != static_cast<float>(value) ||
                n.as<std::int32_t>()[i] != static_cast<std::int32_t>(std::floor(value)))
                QFAIL(qPrintable(QStringLiteral("element %1 differs").arg(i)));
        }
    }

    void evaluatesFormulasOverIndices() {
        const Array one = make(DType::Float64, {5}, formula("i * 2 + j + k + n"));
        for (std::size_t i = 0; i < 5; ++i)
            QCOMPARE(one.value(i), double(i) * 2 + 5);

        const Array two = make(DType::Float32, {3, 4}, formula("i * 10 + j"));
        QCOMPARE(two.value(1 * 4 + 3), 13.0);
        QCOMPARE(two.value(2 * 4 + 0), 20.0);

        const Array three = make(DType::Int32, {2, 3, 4}, formula("i * 100 + j * 10 + k"));
        QCOMPARE(three.value(1 * 12 + 2 * 4 + 3), 123.0);

        const Array vectors = make(DType::Float4, {2}, formula("i * 4 + c"));
        for (std::size_t i = 0; i < 2; ++i)
            for (int c = 0; c < 4; ++c)
                QCOMPARE(vectors.value(i, c), double(i * 4 + std::size_t(c)));

        const Array functions = make(DType::Float64, {2}, formula("sin(pi / 2) + e - exp(1) + sqrt(16)"));
        QCOMPARE(functions.value(0), 5.0);

        // The remainder and rounding a course's fills use, as in a program's expressions.
        const Array cycled =
            make(DType::Int32, {7}, formula("1 + i % 3 + floor(i / 4) * 10 + ceil(0.5) + divup(i, 2)"));
        for (int i = 0; i < 7; ++i) {
            const int expected = 1 + i % 3 + (i / 4) * 10 + 1 + (i + 1) / 2; // whole-number arithmetic
            QCOMPARE(cycled.value(std::size_t(i)), double(expected));
        }

        const Array rounded = make(DType::Int8, {4}, formula("i / 2"));
        QCOMPARE(rounded.value(1), 1.0); // 0.5 rounds away from zero
        QCOMPARE(rounded.value(3), 2.0);
    }

    void reportsABadFormulaWithItsPosition_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown variable") << "i + x"
                                          << "at character 5 (\"x\")";
        QTest::newRow("unclosed parenthesis") << "sin(i"
                                              << "is not valid";
        QTest::newRow("unknown function") << "foo(i)"
                                          << "(\"foo\")";
        QTest::newRow("empty") << ""
                               << "is not valid";
        QTest::newRow("two values") << "i, j"
                                    << "gives 2 values separated by commas";
        QTest::newRow("dangling operator") << "i +"
                                           << "is not valid";
    }
    void reportsABadFormulaWithItsPosition() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string f = text.toStdString();
        const std::string checked = inputErrorOf([&] { checkFormula(f, "args[2].init.formula"); });
        VERIFY_MENTIONS(checked, "args[2].init.formula: the formula \"" + f + "\"");
        VERIFY_MENTIONS(checked, expected.toStdString());
        const std::string generated = inputErrorOf([&] { make(DType::Float32, {4}, formula(f)); });
        VERIFY_MENTIONS(generated, "args[0].init.formula: the formula");
        VERIFY_MENTIONS(generated, expected.toStdString());
    }

    void acceptsGoodFormulas() {
        checkFormula("sin(i*0.1) + j", "f");
        checkFormula("i < 3 ? 1 : 0", "f");
        checkFormula("n - c + k * pi", "f");
        QVERIFY(inputErrorOf([] { checkFormula("_pow(i)", "f"); }).find("is not valid") != std::string::npos);
    }

    void readsNpyFiles() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        Array stored(DType::Float32, {4, 2});
        for (std::size_t i = 0; i < stored.size(); ++i)
            stored.setValue(i, 1.5 * double(i));
        kp::io::writeNpy(folder / "b.npy", stored);
        QVERIFY(make(DType::Float32, {4, 2}, file("b.npy"), folder) == stored);
        fs::create_directory(folder / "data");
        kp::io::writeNpy(folder / "data" / "b.NPY", stored);
        QVERIFY(make(DType::Float32, {4, 2}, file("data/./b.NPY"), folder) == stored);

        // A float2 argument reads a float32 file of shape (..., 2).
        const Array vectors = make(DType::Float2, {4}, file("b.npy"), folder);
        QCOMPARE(vectors.value(3, 1), 1.5 * 7);
    }

    void reportsNpyMismatches() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        kp::io::writeNpy(folder / "b.npy", Array(DType::Float64, {400}));
        const std::string dtype = inputErrorOf([&] { make(DType::Float32, {400}, file("b.npy"), folder); });
        VERIFY_MENTIONS(dtype, "args[0].init.file (");
        VERIFY_MENTIONS(dtype, "holds float64 (400,) but float32 (400,) is expected");
        VERIFY_MENTIONS(dtype, "astype");
        const std::string shape = inputErrorOf([&] {
            make(DType::Float64, {20, 20}, file("b.npy"), folder);
        });
        VERIFY_MENTIONS(shape, "holds float64 (400,) but float64 (20, 20) is expected");
        VERIFY_MENTIONS(shape, "reshape");
        const std::string vector = inputErrorOf([&] { make(DType::Float4, {100}, file("b.npy"), folder); });
        VERIFY_MENTIONS(vector, "a float4 array is stored as float32 with a last dimension of 4");
        const std::string missing =
            inputErrorOf([&] { make(DType::Float64, {400}, file("none.npy"), folder); });
        VERIFY_MENTIONS(missing, "none.npy");
    }

    void readsCsvFiles() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        writeText(folder / "m.csv", "# a 2x3 matrix\n1, 2, 3\n4, 5, 6\n");
        const Array m = make(DType::Int16, {2, 3}, file("m.csv"), folder);
        QCOMPARE(m.value(5), 6.0);
        QCOMPARE(m.value(1), 2.0);
        const std::string shape = inputErrorOf([&] { make(DType::Int16, {3, 2}, file("m.csv"), folder); });
        VERIFY_MENTIONS(shape, "m.csv:2: expected 2 values, found 3");
        const std::string dtype = inputErrorOf([&] {
            writeText(folder / "f.csv", "1.5, 2\n");
            make(DType::Int32, {2}, file("f.csv"), folder);
        });
        VERIFY_MENTIONS(dtype, "f.csv:1:1: '1.5' is not a whole number, as int32 needs");
    }

    void generatesIntoTheGivenAllocator() {
        // Counts blocks so that a fill that reallocates (or leaks) shows.
        struct Counting final : HostAllocator {
            std::byte* allocate(std::size_t bytes) override {
                ++live;
                return heapAllocator()->allocate(bytes);
            }
            void deallocate(std::byte* data, std::size_t bytes) noexcept override {
                --live;
                heapAllocator()->deallocate(data, bytes);
            }
            int live = 0;
        };
        const auto counting = std::make_shared<Counting>();
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        Array stored(DType::Int16, {3, 3});
        stored.setValue(8, -9);
        kp::io::writeNpy(folder / "s.npy", stored);
        InitSpec range = kind(InitSpec::Kind::Range);
        range.start = 2;
        {
            const Array ones = kp::io::initialArray(spec(DType::Float4, {5}), kind(InitSpec::Kind::Ones),
                                                    folder, "a", counting);
            const Array ranged =
                kp::io::initialArray(spec(DType::Float32, {7}), range, folder, "a", counting);
            const Array loaded =
                kp::io::initialArray(spec(DType::Int16, {3, 3}), file("s.npy"), folder, "a", counting);
            QCOMPARE(counting->live, 3);
            QCOMPARE(ones.allocator(), std::shared_ptr<HostAllocator>(counting));
            QCOMPARE(loaded.allocator(), std::shared_ptr<HostAllocator>(counting));
            QCOMPARE(ones.value(4, 3), 1.0);
            QCOMPARE(ranged.value(6), 8.0);
            QVERIFY(loaded == stored);
        }
        QCOMPARE(counting->live, 0);
    }

    void fillsConstantsInEveryByteOfLargeArrays() {
        InitSpec init = kind(InitSpec::Kind::Constant);
        init.constant = -3;
        for (const Shape& shape : {Shape{1}, Shape{3}, Shape{1000, 3}, Shape{7, 11, 13}}) {
            const Array a = make(DType::Int2, shape, init);
            for (std::size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(a.value(i, 0), -3.0);
                QCOMPARE(a.value(i, 1), -3.0);
            }
        }
    }

    void refusesFilesOutsideTheFolder_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("climbs out") << "../secret.npy"
                                    << "leaves the playground's folder";
        QTest::newRow("climbs out later") << "data/../../secret.npy"
                                          << "leaves the playground's folder";
        QTest::newRow("absolute") << "/etc/passwd.npy"
                                  << "is absolute";
        QTest::newRow("empty") << ""
                               << "the path is empty";
        QTest::newRow("other extension") << "b.txt"
                                         << "is neither a .npy nor a .csv file";
    }
    void refusesFilesOutsideTheFolder() {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "playground";
        fs::create_directories(folder / "data");
        kp::io::writeNpy(fs::path(dir.path().toStdString()) / "secret.npy", Array(DType::Float32, {4}));
        writeText(folder / "b.txt", "1\n2\n3\n4\n");
        const std::string error =
            inputErrorOf([&] { make(DType::Float32, {4}, file(path.toStdString()), folder); });
        VERIFY_MENTIONS(error, "args[0].init.file");
        VERIFY_MENTIONS(error, expected.toStdString());
    }

    void refusesASymbolicLinkLeavingTheFolder() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        fs::create_directories(root / "playground");
        kp::io::writeNpy(root / "secret.npy", Array(DType::Float32, {4}));
        fs::create_symlink(root / "secret.npy", root / "playground" / "link.npy");
        const std::string error =
            inputErrorOf([&] { make(DType::Float32, {4}, file("link.npy"), root / "playground"); });
        VERIFY_MENTIONS(error, "through a symbolic link");
    }
};

QTEST_APPLESS_MAIN(TestArrayGenerator)
#include "tst_arraygenerator.moc"
