#include "ArrayGenerator.h"

#include "FormulaFunctions.h"
#include "core/Cores.h"
#include "core/Error.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <muParser.h>
#include <numbers>
#include <random>
#include <thread>
#include <type_traits>
#include <vector>

namespace kp::model {

namespace {

// Writes `value` as the generator's rules say (see the header): integers are rounded, not truncated.
class Filler {
public:
    explicit Filler(Array& array)
        : array_(array), integer_(!isFloating(componentType(array.dtype()))),
          components_(kp::model::components(array.dtype())) {}

    int components() const { return components_; }
    void set(std::size_t index, int component, double value) {
        array_.setValue(index, integer_ ? std::round(value) : value, component);
    }
    void setFloored(std::size_t index, int component, double value) {
        array_.setValue(index, integer_ ? std::floor(value) : value, component);
    }
    void setAll(std::size_t index, double value) {
        for (int c = 0; c < components_; ++c)
            set(index, c, value);
    }

private:
    Array& array_;
    bool integer_;
    int components_;
};

// 53 random bits as a double in [0, 1): the same sequence on every platform for the same seed.
double unitInterval(std::mt19937_64& engine) {
    return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

// Floating scalar arrays take a direct path: the same doubles, converted as setValue converts them.
template <typename T, typename Next> bool fillFloating(Array& array, Next next) {
    if (array.dtype() != (std::is_same_v<T, float> ? DType::Float32 : DType::Float64)) return false;
    for (T& value : array.as<T>())
        value = static_cast<T>(next());
    return true;
}

void fillUniform(Array& array, const InitSpec& init) {
    std::mt19937_64 engine(init.seed);
    const double width = init.high - init.low;
    const auto next = [&] {
        double value = init.low + width * unitInterval(engine);
        if (value >= init.high && width > 0) value = std::nextafter(init.high, init.low);
        return value;
    };
    if (fillFloating<float>(array, next) || fillFloating<double>(array, next)) return;
    Filler fill(array);
    for (std::size_t index = 0; index < array.size(); ++index)
        for (int c = 0; c < fill.components(); ++c)
            fill.setFloored(index, c, next());
}

// Box-Muller: two uniforms give two independent standard normals; both are used. The uniforms come from
// one engine, in order; the transform (a log, a square root, a sine and a cosine per pair: four fifths of
// the time) is done on every core for large float arrays, each pair's numbers the same whichever core
// computes them, while the engine draws the next block's uniforms. A sweep to 2^26 elements generated its
// two inputs for seconds on one core.
void fillNormal(Array& array, const InitSpec& init) {
    std::mt19937_64 engine(init.seed);
    Filler fill(array);
    const std::size_t count = array.size() * static_cast<std::size_t>(fill.components());
    const int perElement = fill.components();
    float* const f32 = array.dtype() == DType::Float32 ? array.as<float>().data() : nullptr;
    double* const f64 = array.dtype() == DType::Float64 ? array.as<double>().data() : nullptr;
    auto put = [&](std::size_t flat, double standard) {
        const double value = init.mean + init.stddev * standard;
        if (f32)
            f32[flat] = static_cast<float>(value); // the direct path: what setValue would store
        else if (f64)
            f64[flat] = value;
        else
            fill.set(flat / static_cast<std::size_t>(perElement),
                     static_cast<int>(flat % static_cast<std::size_t>(perElement)), value);
    };
    // The pair starting at `flat`, from its two uniforms.
    auto transform = [&](std::size_t flat, double u1, double u2) {
        const double radius = std::sqrt(-2.0 * std::log(u1));
        const double angle = 2.0 * std::numbers::pi * u2;
        put(flat, radius * std::cos(angle));
        if (flat + 1 < count) put(flat + 1, radius * std::sin(angle));
    };
    constexpr std::size_t kBlockPairs = std::size_t{1} << 20;
    const unsigned cores = usableCores();
    if ((!f32 && !f64) || cores < 2 || count < 2 * kBlockPairs / 4) {
        for (std::size_t flat = 0; flat < count; flat += 2) {
            const double u1 = 1.0 - unitInterval(engine); // (0, 1]: log stays finite
            transform(flat, u1, unitInterval(engine));
        }
        return;
    }
    // Two blocks of uniforms: the engine fills the next while every core transforms this one, in chunks
    // taken in turn, so that a core the engine's thread shares with finishes no later than the others.
    std::array<std::vector<double>, 2> uniforms{std::vector<double>(2 * kBlockPairs),
                                                std::vector<double>(2 * kBlockPairs)};
    const auto pairsFrom = [&](std::size_t first) { return std::min(kBlockPairs, (count - first + 1) / 2); };
    const auto draw = [&](std::vector<double>& into, std::size_t pairs) {
        for (std::size_t p = 0; p < pairs; ++p) {
            into[2 * p] = 1.0 - unitInterval(engine); // (0, 1]: log stays finite
            into[2 * p + 1] = unitInterval(engine);
        }
    };
    draw(uniforms[0], pairsFrom(0));
    for (std::size_t first = 0, block = 0; first < count; first += 2 * kBlockPairs, ++block) {
        const std::size_t pairs = pairsFrom(first);
        const std::size_t next = first + 2 * kBlockPairs;
        std::thread drawing;
        if (next < count) drawing = std::thread(draw, std::ref(uniforms[(block + 1) % 2]), pairsFrom(next));
        const std::vector<double>& u = uniforms[block % 2];
        constexpr std::size_t kChunkPairs = std::size_t{1} << 14;
        std::atomic<std::size_t> taken{0};
        const auto transformChunks = [&] {
            for (std::size_t from; (from = taken.fetch_add(kChunkPairs)) < pairs;)
                for (std::size_t p = from; p < std::min(pairs, from + kChunkPairs); ++p)
                    transform(first + 2 * p, u[2 * p], u[2 * p + 1]);
        };
        std::vector<std::thread> threads;
        for (unsigned c = 1; c < cores; ++c)
            threads.emplace_back(transformChunks);
        transformChunks();
        for (auto& t : threads)
            t.join();
        if (drawing.joinable()) drawing.join();
    }
}

// The variables a formula sees; muparser reads them through pointers on every evaluation.
struct FormulaVariables {
    double i = 0, j = 0, k = 0, c = 0, n = 0;
};

void defineFormula(mu::Parser& parser, FormulaVariables& variables, const std::string& formula,
                   const std::string& where) {
    try {
        parser.DefineVar("i", &variables.i);
        parser.DefineVar("j", &variables.j);
        parser.DefineVar("k", &variables.k);
        parser.DefineVar("c", &variables.c);
        parser.DefineVar("n", &variables.n);
        parser.DefineConst("pi", std::numbers::pi);
        parser.DefineConst("e", std::numbers::e);
        defineFormulaFunctions(parser);
        parser.SetExpr(formula);
        parser.Eval(); // parses now, so that a bad formula fails before any element is written
    } catch (const mu::Parser::exception_type& error) {
        std::string message = where + ": the formula \"" + formula + "\" is not valid";
        if (error.GetPos() >= 0) message += " at character " + std::to_string(error.GetPos() + 1);
        if (!error.GetToken().empty()) message += " (\"" + error.GetToken() + "\")";
        throw InputError(
            message + ": " + error.GetMsg() +
            ". A formula may use i, j, k (the element's indices), c (the vector component), "
            "n (the element count), pi, e, a % b, floor, ceil and muparser's functions (sin, exp, "
            "sqrt, ...)");
    }
    if (parser.GetNumResults() != 1)
        throw InputError(where + ": the formula \"" + formula + "\" gives " +
                         std::to_string(parser.GetNumResults()) +
                         " values separated by commas; it must give one");
}

void fillFormula(Array& array, const InitSpec& init, const std::string& where) {
    FormulaVariables variables;
    mu::Parser parser;
    defineFormula(parser, variables, init.formula, where);
    Filler fill(array);
    const Shape& shape = array.shape();
    const std::size_t rows = shape[0];
    const std::size_t cols = shape.size() > 1 ? shape[1] : 1;
    const std::size_t depth = shape.size() > 2 ? shape[2] : 1;
    variables.n = static_cast<double>(array.size());
    try {
        std::size_t index = 0;
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t col = 0; col < cols; ++col)
                for (std::size_t d = 0; d < depth; ++d, ++index) {
                    variables.i = static_cast<double>(r);
                    variables.j = static_cast<double>(col);
                    variables.k = static_cast<double>(d);
                    for (int c = 0; c < fill.components(); ++c) {
                        variables.c = c;
                        fill.set(index, c, parser.Eval());
                    }
                }
    } catch (const mu::Parser::exception_type& error) {
        throw InputError(where + ": the formula \"" + init.formula + "\" failed: " + error.GetMsg());
    }
}

// Every element the same: the first element's bytes, written through the generator's rules once, then
// copied in doubling runs (a 256 MiB array fills at memcpy speed, not at setValue's).
void fillRepeated(Array& array, double value) {
    if (array.size() == 0) return;
    Filler(array).setAll(0, value);
    const std::size_t element = array.bytes() / array.size();
    std::byte* data = array.data();
    for (std::size_t filled = element; filled < array.bytes();) {
        const std::size_t chunk = std::min(filled, array.bytes() - filled);
        std::memcpy(data + filled, data, chunk);
        filled += chunk;
    }
}

void fillRange(Array& array, const InitSpec& init) {
    // Floating scalar dtypes take the direct path; the value is the same as setValue's conversion.
    if (array.dtype() == DType::Float32) {
        auto out = array.as<float>();
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = static_cast<float>(init.start + static_cast<double>(i) * init.step);
        return;
    }
    if (array.dtype() == DType::Float64) {
        auto out = array.as<double>();
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = init.start + static_cast<double>(i) * init.step;
        return;
    }
    Filler fill(array);
    for (std::size_t index = 0; index < array.size(); ++index)
        fill.setAll(index, init.start + static_cast<double>(index) * init.step);
}

} // namespace

Array generate(const ArraySpec& spec, const InitSpec& init, const std::string& where,
               const std::shared_ptr<HostAllocator>& allocator) {
    if (init.kind == InitSpec::Kind::File)
        throw Error(where + ": a file init is read by io::initialArray, not generated");
    Array array(spec.dtype, spec.shape, allocator);
    switch (init.kind) {
    case InitSpec::Kind::Zeros:
        break;
    case InitSpec::Kind::Ones:
        fillRepeated(array, 1.0);
        break;
    case InitSpec::Kind::Constant:
        fillRepeated(array, init.constant);
        break;
    case InitSpec::Kind::Range:
        fillRange(array, init);
        break;
    case InitSpec::Kind::Uniform:
        fillUniform(array, init);
        break;
    case InitSpec::Kind::Normal:
        fillNormal(array, init);
        break;
    case InitSpec::Kind::Formula:
        fillFormula(array, init, where + ".formula");
        break;
    case InitSpec::Kind::File:
        break;
    }
    return array;
}

void checkFormula(const std::string& formula, const std::string& where) {
    FormulaVariables variables;
    mu::Parser parser;
    defineFormula(parser, variables, formula, where);
}

bool generatedInIndexOrder(const InitSpec& init) {
    switch (init.kind) {
    case InitSpec::Kind::Zeros:
    case InitSpec::Kind::Ones:
    case InitSpec::Kind::Constant:
    case InitSpec::Kind::Range:
    case InitSpec::Kind::Uniform:
    case InitSpec::Kind::Normal:
        return true;
    case InitSpec::Kind::Formula:
    case InitSpec::Kind::File:
        return false;
    }
    return false;
}

} // namespace kp::model
