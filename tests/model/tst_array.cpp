// Array: shapes of 1 to 3 dimensions and the ones refused, values of every dtype and vector component,
// copies and moves through a custom allocator, equality, and IEEE half conversions at their edges.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/model/Array.h"

#include <QTest>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>

using namespace kp::model;

Q_DECLARE_METATYPE(DType)
Q_DECLARE_METATYPE(Shape)

using kp::test::kAllTypes;

namespace {

// Heap memory that counts what it hands out and checks that every block comes back with its size.
class CountingAllocator final : public HostAllocator {
public:
    std::byte* allocate(std::size_t bytes) override {
        auto* data = static_cast<std::byte*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
        std::memset(data, 0, bytes);
        live[data] = bytes;
        ++allocations;
        return data;
    }
    void deallocate(std::byte* data, std::size_t bytes) noexcept override {
        const auto found = live.find(data);
        if (found == live.end() || found->second != bytes)
            ++mismatchedFrees;
        else
            live.erase(found);
        ++deallocations;
        std::free(data);
    }

    std::map<std::byte*, std::size_t> live;
    int allocations = 0;
    int deallocations = 0;
    int mismatchedFrees = 0;
};

std::string inputErrorOf(DType dtype, const Shape& shape) {
    try {
        Array array(dtype, shape);
    } catch (const kp::InputError& error) {
        return error.what();
    }
    return {};
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

class TestArray : public QObject {
    Q_OBJECT

private slots:
    void hasShapesOfOneToThreeDimensions_data() {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<int>("elements");
        QTest::addColumn<QString>("printed");
        QTest::newRow("1-D") << Shape{400} << DType::Float32 << 400 << "(400,)";
        QTest::newRow("2-D") << Shape{3, 5} << DType::Float64 << 15 << "(3, 5)";
        QTest::newRow("3-D") << Shape{2, 3, 4} << DType::Float4 << 24 << "(2, 3, 4)";
        QTest::newRow("single") << Shape{1} << DType::Int8 << 1 << "(1,)";
        QTest::newRow("empty 2-D") << Shape{0, 7} << DType::Int32 << 0 << "(0, 7)";
    }
    void hasShapesOfOneToThreeDimensions() {
        QFETCH(Shape, shape);
        QFETCH(DType, dtype);
        QFETCH(int, elements);
        QFETCH(QString, printed);
        const Array array(dtype, shape);
        QCOMPARE(array.shape(), shape);
        QCOMPARE(array.dtype(), dtype);
        QCOMPARE(array.size(), std::size_t(elements));
        QCOMPARE(elementCount(shape), std::size_t(elements));
        QCOMPARE(array.bytes(), std::size_t(elements) * byteSize(dtype));
        QCOMPARE(array.span().size(), array.bytes());
        QCOMPARE(toString(shape), printed.toStdString());
        for (std::byte b : array.span())
            QCOMPARE(b, std::byte{0});
        if (elements > 0) QCOMPARE(reinterpret_cast<std::uintptr_t>(array.data()) % 64, std::uintptr_t{0});
    }

    void refusesInvalidShapes_data() {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<QString>("message");
        QTest::newRow("no dimension") << Shape{} << "an array has 1 to 3 dimensions, not 0";
        QTest::newRow("four dimensions") << Shape{1, 2, 3, 4} << "an array has 1 to 3 dimensions, not 4";
        QTest::newRow("overflowing elements")
            << Shape{std::size_t{1} << 32, std::size_t{1} << 32, 2} << "is too large to address";
        QTest::newRow("overflowing bytes")
            << Shape{std::numeric_limits<std::size_t>::max() / 2} << "is too large to address";
    }
    void refusesInvalidShapes() {
        QFETCH(Shape, shape);
        QFETCH(QString, message);
        const std::string error = inputErrorOf(DType::Float32, shape);
        QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
        if (!shape.empty() && shape.size() <= 3)
            QVERIFY2(error.find(toString(shape)) != std::string::npos, error.c_str()); // names the shape
    }

    void storesAndReadsValuesOfEveryDtype_data() {
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<double>("stored");
        QTest::addColumn<double>("read");
        QTest::newRow("int8") << DType::Int8 << -128.0 << -128.0;
        QTest::newRow("int8 saturates high") << DType::Int8 << 1000.0 << 127.0;
        QTest::newRow("int8 truncates") << DType::Int8 << -3.9 << -3.0;
        QTest::newRow("uint8") << DType::UInt8 << 255.0 << 255.0;
        QTest::newRow("uint8 saturates low") << DType::UInt8 << -1.0 << 0.0;
        QTest::newRow("int16") << DType::Int16 << -32768.0 << -32768.0;
        QTest::newRow("uint16") << DType::UInt16 << 65535.0 << 65535.0;
        QTest::newRow("int32") << DType::Int32 << -2147483648.0 << -2147483648.0;
        QTest::newRow("int32 nan is 0") << DType::Int32 << kNaN << 0.0;
        QTest::newRow("int32 inf saturates") << DType::Int32 << kInf << 2147483647.0;
        QTest::newRow("uint32") << DType::UInt32 << 4294967295.0 << 4294967295.0;
        QTest::newRow("int64") << DType::Int64 << -9007199254740992.0 << -9007199254740992.0;
        QTest::newRow("int64 saturates") << DType::Int64 << 1e30 << 9223372036854775807.0;
        QTest::newRow("uint64") << DType::UInt64 << 1e19 << 1e19;
        QTest::newRow("float16") << DType::Float16 << 0.5 << 0.5;
        QTest::newRow("float16 rounds") << DType::Float16 << 0.1 << 0.0999755859375;
        QTest::newRow("float16 max") << DType::Float16 << 65504.0 << 65504.0;
        QTest::newRow("float16 overflow") << DType::Float16 << 1e6 << kInf;
        QTest::newRow("float32") << DType::Float32 << 0.1 << double(0.1f);
        QTest::newRow("float64") << DType::Float64 << 0.1 << 0.1;
        QTest::newRow("float64 -inf") << DType::Float64 << -kInf << -kInf;
    }
    void storesAndReadsValuesOfEveryDtype() {
        QFETCH(DType, dtype);
        QFETCH(double, stored);
        QFETCH(double, read);
        Array array(dtype, {3});
        array.setValue(1, stored);
        QCOMPARE(array.value(1), read);
        QCOMPARE(array.value(0), 0.0);
        QCOMPARE(array.value(2), 0.0);
    }

    void keepsNaNInFloatTypes() {
        for (DType type : {DType::Float16, DType::Float32, DType::Float64, DType::Float2}) {
            Array array(type, {1});
            array.setValue(0, kNaN);
            QVERIFY(std::isnan(array.value(0)));
        }
    }

    void addressesVectorComponents() {
        for (DType type : {DType::Float2, DType::Float4, DType::Int2, DType::Int4}) {
            Array array(type, {2, 3});
            const int parts = components(type);
            for (std::size_t i = 0; i < array.size(); ++i)
                for (int c = 0; c < parts; ++c)
                    array.setValue(i, static_cast<double>(i * 10 + std::size_t(c)), c);
            for (std::size_t i = 0; i < array.size(); ++i)
                for (int c = 0; c < parts; ++c)
                    QCOMPARE(array.value(i, c), static_cast<double>(i * 10 + std::size_t(c)));
            // The memory is the components' own type, element after element, as CUDA lays out float4[].
            if (type == DType::Float4) QCOMPARE(array.as<float>()[4 * 5 + 3], 53.0f);
            if (type == DType::Int2) QCOMPARE(array.as<std::int32_t>()[2 * 4 + 1], 41);
            QCOMPARE(array.as<std::byte>().size(), array.size() * byteSize(type));
        }
    }

    void copiesValuesIntoTheirOwnMemory() {
        for (DType type : kAllTypes) {
            Array a(type, {4, 2});
            for (std::size_t i = 0; i < a.size(); ++i)
                a.setValue(i, static_cast<double>(i) + 1, components(type) - 1);
            Array b(a);
            QVERIFY(b == a);
            QVERIFY(b.data() != a.data());
            b.setValue(0, b.value(0) == 0 ? 1 : 0); // a change every dtype can hold, bool too
            QVERIFY(!(b == a));
            Array c;
            c = a;
            QVERIFY(c == a);
            const Array& same = c;
            c = same; // self-assignment keeps the values
            QVERIFY(c == a);
        }
    }

    void copiesAndMovesThroughACustomAllocator() {
        const auto counting = std::make_shared<CountingAllocator>();
        {
            Array source(DType::Float32, {16});
            for (std::size_t i = 0; i < 16; ++i)
                source.setValue(i, 0.5 * double(i));
            Array pinned = source.copyTo(counting);
            QCOMPARE(counting->allocations, 1);
            QCOMPARE(counting->live.size(), std::size_t{1});
            QCOMPARE(counting->live.begin()->second, std::size_t{64});
            QVERIFY(pinned == source);
            QCOMPARE(pinned.allocator(), std::shared_ptr<HostAllocator>(counting));

            Array copy(pinned); // a copy keeps its source's allocator
            QCOMPARE(counting->allocations, 2);
            QCOMPARE(copy.allocator(), pinned.allocator());

            std::byte* const data = pinned.data();
            Array moved(std::move(pinned));
            QCOMPARE(counting->allocations, 2);
            QCOMPARE(moved.data(), data);
            // NOLINTBEGIN(bugprone-use-after-move): the moved-from state is documented
            QVERIFY(pinned.data() == nullptr);
            QCOMPARE(pinned.size(), std::size_t{0});
            QVERIFY(pinned.shape().empty());
            // NOLINTEND(bugprone-use-after-move)

            Array assigned(DType::Int8, {3}, counting);
            QCOMPARE(counting->allocations, 3);
            assigned = std::move(moved); // frees its own block first
            QCOMPARE(counting->deallocations, 1);
            QCOMPARE(assigned.data(), data);

            Array back = assigned.copyTo(heapAllocator());
            QCOMPARE(back.allocator(), heapAllocator());
            QVERIFY(back == source);
            QCOMPARE(counting->allocations, 3);

            const Array empty;
            QVERIFY(empty.copyTo(counting).shape().empty());
            QCOMPARE(counting->allocations, 3);
        }
        QCOMPARE(counting->deallocations, counting->allocations);
        QVERIFY(counting->live.empty());
        QCOMPARE(counting->mismatchedFrees, 0);
    }

    void allocatesUninitializedArraysThroughTheAllocator() {
        const auto counting = std::make_shared<CountingAllocator>();
        {
            Array results(DType::Float2, {4, 4}, counting, Array::Uninitialized{});
            QCOMPARE(results.size(), std::size_t{16});
            QCOMPARE(results.bytes(), std::size_t{128});
            QCOMPARE(counting->allocations, 1); // allocateUninitialized defaults to allocate
            results.setValue(15, 2.5, 1);
            QCOMPARE(results.value(15, 1), 2.5);
            QVERIFY_THROWS_EXCEPTION(kp::InputError,
                                     Array(DType::Int8, {}, counting, Array::Uninitialized{}));
        }
        QVERIFY(counting->live.empty());
        QCOMPARE(counting->mismatchedFrees, 0);
    }

    // A sweep's smaller points see the first rows of its largest inputs without a copy: a view shares the
    // larger array's memory, keeps it alive, answers as its allocator does, and its copies own memory of
    // their own from that allocator.
    void viewsTheLeadingRowsOfALargerArray() {
        auto counting = std::make_shared<CountingAllocator>();
        {
            auto larger = std::make_shared<const Array>([&] {
                Array a(DType::Int32, {6, 2}, counting);
                for (std::size_t i = 0; i < a.size(); ++i)
                    a.setValue(i, static_cast<double>(i));
                return a;
            }());
            const std::byte* memory = larger->data();
            Array view = leadingView(larger, {4, 2});
            larger.reset(); // the view keeps it
            QCOMPARE(view.data(), memory);
            QCOMPARE(view.size(), std::size_t{8});
            QCOMPARE(view.bytes(), std::size_t{32});
            QCOMPARE(view.shape(), (Shape{4, 2}));
            QCOMPARE(view.value(7), 7.0);
            QCOMPARE(counting->allocations, 1);
            QCOMPARE(view.allocator()->inheritedByChildren(), counting->inheritedByChildren());

            const Array copy = view; // its own memory, the same values, from the larger array's allocator
            QVERIFY(copy.data() != memory);
            QVERIFY(copy == view);
            QCOMPARE(counting->allocations, 2);
            Array whole = leadingView(std::make_shared<const Array>(copy), {4, 2});
            QVERIFY(whole == copy);
            QVERIFY_THROWS_EXCEPTION(kp::Error,
                                     (void)leadingView(std::make_shared<const Array>(copy), {5, 2}));
            QVERIFY_THROWS_EXCEPTION(kp::Error,
                                     (void)leadingView(std::make_shared<const Array>(copy), {2, 1}));
        }
        QCOMPARE(counting->deallocations,
                 counting->allocations); // the larger array freed once, with its size
        QCOMPARE(counting->mismatchedFrees, 0);
        QVERIFY(counting->live.empty());
    }

    void treatsANullAllocatorAsTheHeap() {
        Array array(DType::Int32, {2}, nullptr);
        QCOMPARE(array.allocator(), heapAllocator());
        array.setValue(1, 7);
        QCOMPARE(array.value(1), 7.0);
    }

    void comparesDtypeShapeAndBytes() {
        Array a(DType::Float32, {2, 3});
        QVERIFY(a == Array(DType::Float32, {2, 3}));
        QVERIFY(!(a == Array(DType::Float32, {3, 2})));
        QVERIFY(!(a == Array(DType::Float32, {6})));
        QVERIFY(!(a == Array(DType::Int32, {2, 3})));
        Array b(DType::Float32, {2, 3});
        b.setValue(5, -0.0);
        QVERIFY(!(a == b)); // bytes, not values: -0.0 differs from 0.0
        QVERIFY(Array() == Array());
    }

    void convertsHalvesExactly_data() {
        QTest::addColumn<int>("bits");
        QTest::addColumn<float>("value");
        QTest::newRow("zero") << 0x0000 << 0.0f;
        QTest::newRow("one") << 0x3C00 << 1.0f;
        QTest::newRow("minus two") << 0xC000 << -2.0f;
        QTest::newRow("largest") << 0x7BFF << 65504.0f;
        QTest::newRow("smallest normal") << 0x0400 << 0x1.0p-14f;
        QTest::newRow("largest subnormal") << 0x03FF << 0x1.FF8p-15f;
        QTest::newRow("smallest subnormal") << 0x0001 << 0x1.0p-24f;
        QTest::newRow("negative subnormal") << 0x8001 << -0x1.0p-24f;
        QTest::newRow("one third") << 0x3555 << 0x1.554p-2f;
        QTest::newRow("infinity") << 0x7C00 << std::numeric_limits<float>::infinity();
        QTest::newRow("minus infinity") << 0xFC00 << -std::numeric_limits<float>::infinity();
    }
    void convertsHalvesExactly() {
        QFETCH(int, bits);
        QFETCH(float, value);
        QCOMPARE(halfToFloat(static_cast<std::uint16_t>(bits)), value);
        QCOMPARE(floatToHalf(value), static_cast<std::uint16_t>(bits));
    }

    void roundTripsEveryHalf() {
        for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
            const auto h = static_cast<std::uint16_t>(bits);
            const float f = halfToFloat(h);
            if (std::isnan(f)) {
                QVERIFY((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0);
                QVERIFY(std::isnan(halfToFloat(floatToHalf(f))));
                continue;
            }
            QCOMPARE(floatToHalf(f), h);
        }
    }

    void roundsFloatsToNearestEven_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("bits");
        QTest::newRow("halfway rounds to even (down)") << 1.0f + 0x1.0p-11f << 0x3C00;
        QTest::newRow("halfway rounds to even (up)") << 1.0f + 3 * 0x1.0p-11f << 0x3C02;
        QTest::newRow("above halfway rounds up") << 1.0f + 0x1.1p-11f << 0x3C01;
        QTest::newRow("negative zero") << -0.0f << 0x8000;
        QTest::newRow("below half the smallest subnormal") << 0x1.0p-26f << 0x0000;
        QTest::newRow("half the smallest subnormal, to even") << 0x1.0p-25f << 0x0000;
        QTest::newRow("just above half the smallest subnormal") << 0x1.01p-25f << 0x0001;
        QTest::newRow("subnormal rounding") << 0x1.8p-24f << 0x0002;
        QTest::newRow("rounds up into the normals") << 0x1.FFCp-15f << 0x0400;
        QTest::newRow("rounds up to the largest") << 65519.0f << 0x7BFF;
        QTest::newRow("rounds past the largest") << 65520.0f << 0x7C00;
        QTest::newRow("far too large") << 1e10f << 0x7C00;
        QTest::newRow("float infinity") << std::numeric_limits<float>::infinity() << 0x7C00;
        QTest::newRow("float subnormal") << std::numeric_limits<float>::denorm_min() << 0x0000;
    }
    void roundsFloatsToNearestEven() {
        QFETCH(float, value);
        QFETCH(int, bits);
        QCOMPARE(floatToHalf(value), static_cast<std::uint16_t>(bits));
    }

    void keepsNaNsQuietAndTheirSign() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::uint16_t h = floatToHalf(nan);
        QCOMPARE(h & 0x7C00, 0x7C00);
        QVERIFY((h & 0x3FF) != 0);
        QVERIFY(std::isnan(halfToFloat(h)));
        const std::uint16_t negative = floatToHalf(-nan);
        QCOMPARE(negative & 0x8000, 0x8000);
        // A signalling NaN whose payload sits below the half's bits must not turn into infinity.
        const float signalling = std::bit_cast<float>(0x7F800001u);
        QVERIFY(std::isnan(halfToFloat(floatToHalf(signalling))));
    }
};

QTEST_APPLESS_MAIN(TestArray)
#include "tst_array.moc"
