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

// std::mt19937_64's sequence, drawn in blocks. The engine's outputs are its state words tempered; the
// words follow one recurrence, x[k + 312] = x[k + 156] ^ twist(x[k], x[k + 1]), which is all that has to
// run in order: here a few vector operations per four words. Tempering and turning words into doubles are
// left to whoever reads them, on as many cores as there are (tempering, 53-bit doubles and Box-Muller on
// one core made a sweep's 2^27 normal draws take longer than every kernel it timed).
class Mt64Stream {
public:
    static constexpr std::size_t kWords = 312; // the state: the last 312 words

    explicit Mt64Stream(std::uint64_t seed) {
        state_[0] = seed;
        for (std::size_t i = 1; i < kWords; ++i)
            state_[i] = 6364136223846793005ULL * (state_[i - 1] ^ (state_[i - 1] >> 62)) + i;
    }

    // The next `count` words into buffer[kWords, kWords + count): buffer's first kWords words are scratch
    // (the state is copied there first).
    void next(std::uint64_t* buffer, std::size_t count) {
        std::memcpy(buffer, state_.data(), kWords * sizeof(std::uint64_t));
        using Lanes = std::uint64_t __attribute__((vector_size(32)));
        constexpr std::uint64_t kUpper = 0xFFFFFFFF80000000ULL, kLower = 0x7FFFFFFFULL;
        constexpr std::uint64_t kMatrix = 0xB5026F5AA96619E9ULL;
        std::size_t k = 0;
        // Four words at a time: word k + 312 reads k, k + 1 and k + 156, all written before.
        for (; k + 4 <= count; k += 4) {
            Lanes a, b, c;
            std::memcpy(&a, buffer + k, sizeof a);
            std::memcpy(&b, buffer + k + 1, sizeof b);
            std::memcpy(&c, buffer + k + 156, sizeof c);
            const Lanes y = (a & kUpper) | (b & kLower);
            const Lanes word = c ^ (y >> 1) ^ (-(y & 1) & kMatrix);
            std::memcpy(buffer + kWords + k, &word, sizeof word);
        }
        for (; k < count; ++k) {
            const std::uint64_t y = (buffer[k] & kUpper) | (buffer[k + 1] & kLower);
            buffer[kWords + k] = buffer[k + 156] ^ (y >> 1) ^ ((y & 1) ? kMatrix : 0);
        }
        std::memcpy(state_.data(), buffer + count, kWords * sizeof(std::uint64_t));
    }

    // The engine's output for a word.
    static std::uint64_t temper(std::uint64_t y) {
        y ^= (y >> 29) & 0x5555555555555555ULL;
        y ^= (y << 17) & 0x71D67FFFEDA60000ULL;
        y ^= (y << 37) & 0xFFF7EEE000000000ULL;
        return y ^ (y >> 43);
    }

    // 53 random bits as a double in [0, 1): the same sequence on every platform for the same seed.
    static double unit(std::uint64_t word) { return static_cast<double>(temper(word) >> 11) * 0x1.0p-53; }

private:
    std::array<std::uint64_t, kWords> state_;
};

// Calls chunk(from, to) over [0, count) in chunks taken in turn by every usable core (a core that the
// drawing thread shares finishes no later than the others), or once on this thread for small counts.
void inChunks(std::size_t count, const std::function<void(std::size_t, std::size_t)>& chunk) {
    constexpr std::size_t kChunk = std::size_t{1} << 15;
    const unsigned cores = usableCores();
    if (cores < 2 || count < 4 * kChunk) {
        chunk(0, count);
        return;
    }
    std::atomic<std::size_t> taken{0};
    const auto work = [&] {
        for (std::size_t from; (from = taken.fetch_add(kChunk)) < count;)
            chunk(from, std::min(count, from + kChunk));
    };
    std::vector<std::jthread> threads;
    for (unsigned c = 1; c < cores; ++c)
        threads.emplace_back(work);
    work();
}

// The first `words` words of the engine seeded with `seed`, block after block: use(words, first, count)
// gets the words first .. first + count - 1 of the sequence while the next block is drawn.
void drawInBlocks(std::uint64_t seed, std::size_t words,
                  const std::function<void(const std::uint64_t*, std::size_t, std::size_t)>& use) {
    constexpr std::size_t kBlock = std::size_t{1} << 21;
    Mt64Stream stream(seed);
    const std::size_t first = std::min(words, kBlock);
    std::array<std::vector<std::uint64_t>, 2> buffers;
    buffers[0].resize(Mt64Stream::kWords + first);
    stream.next(buffers[0].data(), first);
    for (std::size_t at = 0, block = 0; at < words; at += kBlock, ++block) {
        const std::size_t count = std::min(kBlock, words - at);
        const std::size_t nextCount = at + count < words ? std::min(kBlock, words - at - count) : 0;
        std::jthread drawing;
        if (nextCount > 0) {
            auto& into = buffers[(block + 1) % 2];
            into.resize(Mt64Stream::kWords + nextCount);
            drawing = std::jthread([&stream, &into, nextCount] { stream.next(into.data(), nextCount); });
        }
        use(buffers[block % 2].data() + Mt64Stream::kWords, at, count);
    }
}

// Floating scalar arrays take a direct path, on every core: the same doubles, converted as setValue
// converts them. `value(words, i)` is element i's double from its block's words.
template <typename T, typename Value>
bool fillFloating(Array& array, std::uint64_t seed, std::size_t wordsPerPair, Value value) {
    if (array.dtype() != (std::is_same_v<T, float> ? DType::Float32 : DType::Float64)) return false;
    T* const out = array.as<T>().data();
    const std::size_t count = array.size();
    const std::size_t words = (count + wordsPerPair - 1) / wordsPerPair * wordsPerPair;
    drawInBlocks(seed, words, [&](const std::uint64_t* block, std::size_t first, std::size_t n) {
        inChunks(n / wordsPerPair, [&](std::size_t from, std::size_t to) {
            for (std::size_t g = from; g < to; ++g)
                value(block + g * wordsPerPair, first + g * wordsPerPair, out, count);
        });
    });
    return true;
}

void fillUniform(Array& array, const InitSpec& init) {
    const double width = init.high - init.low;
    const auto uniform = [&](std::uint64_t word) {
        double value = init.low + width * Mt64Stream::unit(word);
        if (value >= init.high && width > 0) value = std::nextafter(init.high, init.low);
        return value;
    };
    const auto put = [&]<typename T>(const std::uint64_t* word, std::size_t at, T* out, std::size_t) {
        out[at] = static_cast<T>(uniform(*word));
    };
    if (fillFloating<float>(array, init.seed, 1, put) || fillFloating<double>(array, init.seed, 1, put))
        return;
    Filler fill(array);
    const auto components = static_cast<std::size_t>(fill.components());
    drawInBlocks(init.seed, array.size() * components,
                 [&](const std::uint64_t* block, std::size_t first, std::size_t n) {
                     for (std::size_t w = 0; w < n; ++w)
                         fill.setFloored((first + w) / components, static_cast<int>((first + w) % components),
                                         uniform(block[w]));
                 });
}

// Box-Muller: two uniforms give two independent standard normals; both are used. The uniforms are drawn in
// order, two per pair (the first as 1 - u, in (0, 1], so that the log stays finite); for float arrays the
// transform (a log, a square root, a sine and a cosine per pair) runs on every core, each pair's numbers
// the same whichever core computes them.
void fillNormal(Array& array, const InitSpec& init) {
    const auto pair = [&](const std::uint64_t* words, double& first, double& second) {
        const double radius = std::sqrt(-2.0 * std::log(1.0 - Mt64Stream::unit(words[0])));
        const double angle = 2.0 * std::numbers::pi * Mt64Stream::unit(words[1]);
        first = init.mean + init.stddev * (radius * std::cos(angle));
        second = init.mean + init.stddev * (radius * std::sin(angle));
    };
    const auto put = [&]<typename T>(const std::uint64_t* words, std::size_t at, T* out, std::size_t count) {
        double first = 0, second = 0;
        pair(words, first, second);
        out[at] = static_cast<T>(first);
        if (at + 1 < count) out[at + 1] = static_cast<T>(second);
    };
    if (fillFloating<float>(array, init.seed, 2, put) || fillFloating<double>(array, init.seed, 2, put))
        return;
    Filler fill(array);
    const auto components = static_cast<std::size_t>(fill.components());
    const std::size_t count = array.size() * components;
    const auto set = [&](std::size_t flat, double value) {
        if (flat < count) fill.set(flat / components, static_cast<int>(flat % components), value);
    };
    drawInBlocks(init.seed, (count + 1) / 2 * 2,
                 [&](const std::uint64_t* block, std::size_t first, std::size_t n) {
                     for (std::size_t w = 0; w + 1 < n; w += 2) {
                         double a = 0, b = 0;
                         pair(block + w, a, b);
                         set(first + w, a);
                         set(first + w + 1, b);
                     }
                 });
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
