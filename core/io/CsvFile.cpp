#include "CsvFile.h"

#include "FileBytes.h"
#include "core/Error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace kp::io {

using model::Array;
using model::DType;
using model::Shape;

namespace {

struct Field {
    std::string_view text;
    std::size_t column; // 1-based, where the value starts on its line
};

struct Line {
    std::string_view text;
    std::size_t number; // 1-based
};

bool isBlank(char c) {
    return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && (isBlank(text.back()) || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// The lines that hold values: comments ('#') and blank lines are not among them.
std::vector<Line> dataLines(std::string_view text) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3); // spreadsheets' UTF-8 byte order mark
    std::vector<Line> lines;
    std::size_t number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        ++number;
        const std::string_view content = trim(line);
        if (content.empty() || content.front() == '#') continue;
        lines.push_back({line, number});
    }
    return lines;
}

std::vector<Field> splitFields(std::string_view line) {
    std::vector<Field> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = line.find(',', start);
        const std::string_view raw =
            line.substr(start, comma == std::string_view::npos ? comma : comma - start);
        std::size_t lead = 0;
        while (lead < raw.size() && isBlank(raw[lead]))
            ++lead;
        fields.push_back({trim(raw), start + lead + 1});
        if (comma == std::string_view::npos) return fields;
        start = comma + 1;
    }
}

// A decimal number written with a point or an exponent (np.savetxt's 1.000000000000000000e+00) read
// exactly as the whole number it is, as its digits: a double holds only 53 bits, so going through one
// would change int64 values beyond 2^53 without a word.
struct WholeNumber {
    enum class Kind { Whole, Fraction, TooLarge, Other } kind = Kind::Other;
    std::string digits; // Whole: an optional '-' and the digits, for from_chars
};

WholeNumber wholeNumber(std::string_view text) {
    std::size_t i = 0;
    std::string sign;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) sign = text[i++] == '-' ? "-" : "";
    std::string mantissa;
    long long point = -1;
    for (; i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.'); ++i) {
        if (text[i] != '.') {
            mantissa += text[i];
        } else if (point >= 0) {
            return {};
        } else {
            point = static_cast<long long>(mantissa.size());
        }
    }
    if (mantissa.empty()) return {};
    if (point < 0) point = static_cast<long long>(mantissa.size());
    long long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && text[i] == '+') ++i;
        const auto [end, error] = std::from_chars(text.data() + i, text.data() + text.size(), exponent);
        if (error != std::errc{}) return {};
        i = static_cast<std::size_t>(end - text.data());
    }
    if (i != text.size()) return {};
    const auto first = mantissa.find_first_not_of('0');
    if (first == std::string::npos) return {WholeNumber::Kind::Whole, "0"};
    // The value is mantissa x 10^shift; every 64-bit integer has at most 20 digits.
    const long long shift = exponent - (static_cast<long long>(mantissa.size()) - point);
    const long long digits = static_cast<long long>(mantissa.size() - first) + shift;
    if (digits > 25) return {WholeNumber::Kind::TooLarge, {}};
    if (shift >= 0)
        return {WholeNumber::Kind::Whole,
                sign + mantissa.substr(first) + std::string(static_cast<std::size_t>(shift), '0')};
    const auto keep = static_cast<long long>(mantissa.size()) + shift; // digits before the point
    if (keep <= 0 || mantissa.find_first_not_of('0', static_cast<std::size_t>(keep)) != std::string::npos)
        return {WholeNumber::Kind::Fraction, {}};
    return {WholeNumber::Kind::Whole, sign + mantissa.substr(0, static_cast<std::size_t>(keep))};
}

// For a decimal number that from_chars found out of range: whether it is too large rather than too
// small. Its magnitude is 0.d... x 10^(lead + exponent), where lead counts the digits before the point
// (or, negated, the zeros after it before the first other digit); from_chars leaves the value alone, so
// it cannot tell.
bool tooLarge(std::string_view text) {
    long long before = 0, zerosAfter = 0;
    bool nonZero = false, point = false;
    std::size_t i = 0;
    for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
        const char c = text[i];
        if (c == '.') point = true;
        if (c < '0' || c > '9') continue;
        if (!nonZero && c == '0') {
            zerosAfter += point ? 1 : 0;
            continue;
        }
        nonZero = true;
        before += point ? 0 : 1;
    }
    if (!nonZero) return false;
    long long exponent = 0;
    bool negative = false;
    if (i < text.size()) ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
        exponent = std::min(exponent * 10 + (text[i] - '0'), 1'000'000'000LL); // saturates: 1e99999999999
    const long long lead = before > 0 ? before : -zerosAfter;
    return lead + (negative ? -exponent : exponent) > 0;
}

std::string values(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " value" : " values");
}

// Reads one file's values into an array, keeping the position of each for messages.
class CsvReader {
public:
    CsvReader(std::string where, DType dtype, const Shape& shape)
        : where_(std::move(where)), array_(dtype, shape), component_(model::componentType(dtype)),
          componentSize_(model::byteSize(component_)) {}

    Array read(std::string_view text) {
        const std::vector<Line> lines = dataLines(text);
        firstLine_ = lines.empty() ? 0 : lines.front().number;
        const std::size_t total = array_.size() * static_cast<std::size_t>(model::components(array_.dtype()));
        if (total == 0) {
            if (!lines.empty()) failAt(lines.front().number, "expected no values for " + arrayText());
            return std::move(array_);
        }
        const std::size_t perLine = valuesPerLine(lines);
        const std::size_t lineCount = total / perLine;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (i == lineCount)
                failAt(lines[i].number, "more lines than " + arrayText() + " needs (" +
                                            std::to_string(lineCount) + " lines of " + values(perLine) + ")");
            readLine(lines[i], perLine, i * perLine);
        }
        if (lines.size() < lineCount)
            throw InputError(where_ + ": expected " + std::to_string(lineCount) + " lines of " +
                             values(perLine) + " for " + arrayText() + ", found " +
                             std::to_string(lines.size()));
        return std::move(array_);
    }

private:
    [[noreturn]] void failAt(std::size_t line, const std::string& why) const {
        throw InputError(where_ + ":" + std::to_string(line) + ": " + why);
    }
    [[noreturn]] void failAt(std::size_t line, std::size_t column, const std::string& why) const {
        throw InputError(where_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + why);
    }

    std::string arrayText() const {
        return std::string(model::name(array_.dtype())) + " " + model::toString(array_.shape());
    }

    std::size_t valuesPerLine(const std::vector<Line>& lines) const {
        const auto components = static_cast<std::size_t>(model::components(array_.dtype()));
        if (array_.shape().size() > 1) return array_.shape().back() * components;
        const std::size_t all = array_.size() * components;
        // A 1-D array may be a column (one element a line) or a single row; the first line tells.
        if (lines.empty()) return components;
        const std::size_t first = splitFields(lines.front().text).size();
        if (first == components || first == all) return first;
        failAt(lines.front().number, "expected " + values(components) + " (one element a line) or " +
                                         values(all) + " (the whole " + arrayText() +
                                         " on one line), found " + std::to_string(first));
    }

    void readLine(const Line& line, std::size_t perLine, std::size_t firstValue) {
        const std::vector<Field> fields = splitFields(line.text);
        if (fields.size() != perLine)
            failAt(line.number, "expected " + values(perLine) + ", found " + std::to_string(fields.size()));
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const Field& field = fields[i];
            if (field.text.empty()) failAt(line.number, field.column, "empty value, expected a number");
            const std::string problem = store(field.text, array_.data() + (firstValue + i) * componentSize_);
            if (!problem.empty()) {
                const std::string hint =
                    line.number == firstLine_ ? " (a header row? start it with '#')" : "";
                failAt(line.number, field.column, "'" + std::string(field.text) + "' " + problem + hint);
            }
        }
    }

    // Parses one value into `target`; returns what is wrong with it, or nothing.
    std::string store(std::string_view text, std::byte* target) const {
        if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
        switch (component_) {
        case DType::Int8:
            return storeInteger<std::int8_t>(text, target);
        case DType::UInt8:
            return storeInteger<std::uint8_t>(text, target);
        case DType::Int16:
            return storeInteger<std::int16_t>(text, target);
        case DType::UInt16:
            return storeInteger<std::uint16_t>(text, target);
        case DType::Int32:
            return storeInteger<std::int32_t>(text, target);
        case DType::UInt32:
            return storeInteger<std::uint32_t>(text, target);
        case DType::Int64:
            return storeInteger<std::int64_t>(text, target);
        case DType::UInt64:
            return storeInteger<std::uint64_t>(text, target);
        case DType::Float16:
            return storeHalf(text, target);
        case DType::BFloat16:
            return storeBfloat16(text, target);
        case DType::Bool:
            return storeBool(text, target);
        case DType::Float32:
            return storeFloat<float>(text, target);
        default:
            return storeFloat<double>(text, target);
        }
    }

    std::string typeName() const { return std::string(model::name(component_)); }

    template <typename T> std::string outOfRange() const {
        return "is out of range for " + typeName() + " (" + std::to_string(std::numeric_limits<T>::lowest()) +
               " to " + std::to_string(std::numeric_limits<T>::max()) + ")";
    }

    template <typename T> std::string floatOutOfRange() const {
        if (component_ == DType::Float16) return "is out of range for float16 (-65504 to 65504)";
        if (component_ == DType::BFloat16) return "is out of range for bfloat16 (-3.39e+38 to 3.39e+38)";
        char range[64];
        std::snprintf(range, sizeof range, " (%g to %g)",
                      static_cast<double>(std::numeric_limits<T>::lowest()),
                      static_cast<double>(std::numeric_limits<T>::max()));
        return "is out of range for " + typeName() + range;
    }

    template <typename T> std::string storeInteger(std::string_view text, std::byte* target) const {
        const char* end = text.data() + text.size();
        T value{};
        auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ptr == end && ec == std::errc::result_out_of_range) return outOfRange<T>();
        if (ptr != end || ec != std::errc{}) {
            // np.savetxt writes integers as 1.000000000000000000e+00 unless told otherwise.
            const WholeNumber whole = wholeNumber(text);
            if (whole.kind == WholeNumber::Kind::TooLarge) return outOfRange<T>();
            if (whole.kind == WholeNumber::Kind::Fraction)
                return "is not a whole number, as " + typeName() + " needs";
            if (whole.kind == WholeNumber::Kind::Whole) {
                const char* digitsEnd = whole.digits.data() + whole.digits.size();
                const auto [wholeEnd, wholeError] = std::from_chars(whole.digits.data(), digitsEnd, value);
                if (wholeEnd != digitsEnd || wholeError != std::errc{}) return outOfRange<T>();
                std::memcpy(target, &value, sizeof value);
                return {};
            }
            double real = 0;
            auto [realPtr, realEc] = std::from_chars(text.data(), end, real);
            if (realPtr == end && realEc == std::errc::result_out_of_range)
                return tooLarge(text) ? outOfRange<T>()
                                      : "is not a whole number, as " + typeName() + " needs";
            if (realPtr != end || realEc != std::errc{})
                return "is not a number (expected " + typeName() + ")";
            if (!std::isfinite(real) || real != std::trunc(real))
                return "is not a whole number, as " + typeName() + " needs";
            if (real < static_cast<double>(std::numeric_limits<T>::lowest()) ||
                real >= static_cast<double>(std::numeric_limits<T>::max()) + 1.0)
                return outOfRange<T>();
            value = static_cast<T>(real);
        }
        std::memcpy(target, &value, sizeof value);
        return {};
    }

    template <typename T> std::string parseFloat(std::string_view text, T& value) const {
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ptr != end || (ec != std::errc{} && ec != std::errc::result_out_of_range))
            return "is not a number (expected " + typeName() + ")";
        if (ec == std::errc::result_out_of_range) {
            // Underflow is a rounding to zero a person would accept; overflow is not: reading 1e400 as
            // inf (or as 0, as this once did) would hide a typing error in the data.
            if (tooLarge(text)) return floatOutOfRange<T>();
            value = static_cast<T>(text.front() == '-' ? -0.0 : 0.0);
        }
        return {};
    }

    template <typename T> std::string storeFloat(std::string_view text, std::byte* target) const {
        T value{};
        std::string problem = parseFloat(text, value);
        if (problem.empty()) std::memcpy(target, &value, sizeof value);
        return problem;
    }

    std::string storeHalf(std::string_view text, std::byte* target) const {
        float value = 0;
        std::string problem = parseFloat(text, value);
        if (!problem.empty()) return problem;
        const std::uint16_t bits = model::floatToHalf(value);
        if (std::isfinite(value) && (bits & 0x7C00u) == 0x7C00u)
            return "is out of range for float16 (-65504 to 65504)";
        std::memcpy(target, &bits, sizeof bits);
        return {};
    }

    std::string storeBfloat16(std::string_view text, std::byte* target) const {
        float value = 0;
        std::string problem = parseFloat(text, value);
        if (!problem.empty()) return problem;
        const std::uint16_t bits = model::floatToBfloat16(value);
        if (std::isfinite(value) && (bits & 0x7F80u) == 0x7F80u) return floatOutOfRange<float>();
        std::memcpy(target, &bits, sizeof bits);
        return {};
    }

    // 0 and 1 as np.savetxt writes a bool array (as integers or 0.000000000000000000e+00), or True/False.
    std::string storeBool(std::string_view text, std::byte* target) const {
        std::uint8_t value = 0;
        if (text == "True" || text == "true")
            value = 1;
        else if (text != "False" && text != "false") {
            std::string problem = storeInteger<std::uint8_t>(text, target);
            if (!problem.empty()) return problem;
            std::memcpy(&value, target, 1);
            if (value > 1) return "is not a bool (0, 1, True or False)";
        }
        std::memcpy(target, &value, 1);
        return {};
    }

    std::string where_;
    Array array_;
    DType component_;
    std::size_t componentSize_;
    std::size_t firstLine_ = 0; // where a header row would be
};

template <typename T> void appendNumber(std::string& out, T value) {
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, ec == std::errc{} ? end : buffer);
}

void appendValue(std::string& out, DType component, const std::byte* p) {
    const auto load = [p]<typename T>(T value) {
        std::memcpy(&value, p, sizeof value);
        return value;
    };
    switch (component) {
    case DType::Int8:
        return appendNumber(out, static_cast<int>(load(std::int8_t{})));
    case DType::UInt8:
        return appendNumber(out, static_cast<unsigned>(load(std::uint8_t{})));
    case DType::Int16:
        return appendNumber(out, load(std::int16_t{}));
    case DType::UInt16:
        return appendNumber(out, load(std::uint16_t{}));
    case DType::Int32:
        return appendNumber(out, load(std::int32_t{}));
    case DType::UInt32:
        return appendNumber(out, load(std::uint32_t{}));
    case DType::Int64:
        return appendNumber(out, load(std::int64_t{}));
    case DType::UInt64:
        return appendNumber(out, load(std::uint64_t{}));
    case DType::Float16:
        return appendNumber(out, model::halfToFloat(load(std::uint16_t{})));
    case DType::BFloat16:
        return appendNumber(out, model::bfloat16ToFloat(load(std::uint16_t{})));
    case DType::Bool:
        return appendNumber(out, static_cast<unsigned>(load(std::uint8_t{}) != 0));
    case DType::Float32:
        return appendNumber(out, load(float{}));
    default:
        return appendNumber(out, load(double{}));
    }
}

} // namespace

Array readCsv(const std::filesystem::path& path, DType dtype, const Shape& shape) {
    const std::vector<std::byte> bytes = readFileBytes(path);
    CsvReader reader(path.string(), dtype, shape);
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return reader.read(text);
}

void writeCsv(const std::filesystem::path& path, const Array& array) {
    const Shape& shape = array.shape();
    const DType component = model::componentType(array.dtype());
    const std::size_t componentSize = model::byteSize(component);
    const std::size_t total = array.size() * static_cast<std::size_t>(model::components(array.dtype()));
    const std::size_t perLine =
        (shape.size() > 1 ? shape.back() : 1) * static_cast<std::size_t>(model::components(array.dtype()));
    const std::size_t linesPerSlice = shape.size() == 3 ? shape[1] : 0;

    std::string text;
    for (std::size_t v = 0, line = 0; v < total; v += perLine) {
        if (linesPerSlice && line && line % linesPerSlice == 0) text += '\n';
        for (std::size_t i = 0; i < perLine; ++i) {
            if (i) text += ',';
            appendValue(text, component, array.data() + (v + i) * componentSize);
        }
        text += '\n';
        ++line;
    }
    writeFileAtomically(path, std::as_bytes(std::span(text)));
}

} // namespace kp::io
