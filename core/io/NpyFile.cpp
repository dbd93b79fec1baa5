#include "NpyFile.h"

#include "FileBytes.h"
#include "core/Error.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

namespace kp::io {

using model::Array;
using model::DType;
using model::Shape;

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kAlignment = 64;  // numpy aligns the data so it can be memory-mapped
constexpr std::size_t kMaxFileDims = 4; // 3 for the array, plus a vector type's components

// How a descr string's items become a Kernelpad dtype.
struct Descr {
    DType dtype;
    bool swap = false;    // stored in the other byte order than this machine's
    bool boolean = false; // '|b1': any byte but 0 becomes 1
};

struct Header {
    Descr descr{DType::Float32};
    bool fortranOrder = false;
    std::vector<std::uint64_t> shape;
};

std::string printable(std::string_view text) {
    std::string out;
    for (char c : text.substr(0, 120)) {
        if (c == '\n')
            out += "\\n";
        else if (c >= 0x20 && c < 0x7F)
            out += c;
        else
            out += '?';
    }
    return text.size() > 120 ? out + "..." : out;
}

std::string describeDescr(std::string_view text) {
    return "'" + printable(text) + "'";
}

// Maps a numpy type string ('<f4', '>i8', '|u1') to a dtype, or explains why it is not one of ours.
Descr parseDescr(std::string_view text, const std::string& where) {
    const auto reject = [&](const std::string& why) -> Descr {
        throw InputError(where + ": dtype " + describeDescr(text) + " " + why);
    };
    if (text.size() < 2) return reject("is not a numpy type string");
    const char order = text[0];
    std::string_view code = text.substr(1);
    const bool littleFile =
        order == '<' || ((order == '|' || order == '=') && std::endian::native == std::endian::little);
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return reject("has no byte order ('<', '>' or '|')");
    const bool swap = littleFile != (std::endian::native == std::endian::little);

    struct Code {
        std::string_view code;
        DType dtype;
    };
    static constexpr std::array<Code, 11> kCodes{{
        {"i1", DType::Int8},
        {"u1", DType::UInt8},
        {"i2", DType::Int16},
        {"u2", DType::UInt16},
        {"i4", DType::Int32},
        {"u4", DType::UInt32},
        {"i8", DType::Int64},
        {"u8", DType::UInt64},
        {"f2", DType::Float16},
        {"f4", DType::Float32},
        {"f8", DType::Float64},
    }};
    for (const auto& c : kCodes)
        if (c.code == code) return {c.dtype, swap && model::byteSize(c.dtype) > 1, false};
    if (code == "b1") return {DType::Bool, false, true};
    // numpy has no bfloat16: its bits travel as 2-byte void items (ml_dtypes' bfloat16 saves so).
    if (code == "V2") return {DType::BFloat16, swap, false};
    if (code == "c8")
        return reject("(complex64) is not supported: save a.view(np.float32).reshape(*a.shape, 2) and use "
                      "float2");
    if (code.starts_with('c'))
        return reject("(complex) is not supported: save the real and imaginary parts as float arrays");
    if (code.starts_with('f'))
        return reject("is a float size Kernelpad does not have: use float16, float32 or float64");
    if (code.starts_with('U') || code.starts_with('S') || code.starts_with('O'))
        return reject("holds strings or Python objects, not numbers");
    return reject("is not supported: use one of int8..uint64, float16, float32, float64 (a.astype(...))");
}

// numpy's header is the repr() of a Python dict; this reads exactly the subset numpy writes, with
// any spacing and either quote, and reports the first thing that does not fit.
class HeaderParser {
public:
    HeaderParser(std::string_view text, const std::string& where) : text_(text), where_(where) {}

    Header parse() {
        Header header;
        bool haveDescr = false, haveFortran = false, haveShape = false;
        expect('{');
        for (;;) {
            skipSpace();
            if (peek() == '}') break;
            const std::string key = parseString();
            expect(':');
            skipSpace();
            if (key == "descr") {
                if (haveDescr) fail("'descr' appears twice");
                if (peek() == '[')
                    fail("holds a structured dtype (a record with fields), which Kernelpad "
                         "does not support: save each field as its own array");
                header.descr = parseDescr(parseString(), where_);
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (haveFortran) fail("'fortran_order' appears twice");
                header.fortranOrder = parseBool();
                haveFortran = true;
            } else if (key == "shape") {
                if (haveShape) fail("'shape' appears twice");
                header.shape = parseShape();
                haveShape = true;
            } else {
                fail("has an unexpected key '" + printable(key) + "'");
            }
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() != '}') fail("expected ',' or '}' after the value of '" + key + "'");
        }
        ++pos_;
        skipSpace();
        if (pos_ != text_.size()) fail("has text after the closing '}'");
        if (!haveDescr || !haveFortran || !haveShape)
            fail(std::string("lacks ") + (!haveDescr     ? "'descr'"
                                          : !haveFortran ? "'fortran_order'"
                                                         : "'shape'"));
        return header;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw InputError(where_ + ": bad .npy header: it " + why + " (at character " +
                         std::to_string(pos_ + 1) + " of \"" + printable(text_) + "\")");
    }

    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    bool atEnd() const { return pos_ >= text_.size(); }

    void skipSpace() {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++pos_;
    }

    void expect(char c) {
        skipSpace();
        if (peek() != c || atEnd()) fail(std::string("expected '") + c + "'");
        ++pos_;
    }

    std::string parseString() {
        skipSpace();
        const char quote = peek();
        if (atEnd() || (quote != '\'' && quote != '"')) fail("expected a quoted string");
        const std::size_t start = ++pos_;
        while (!atEnd() && peek() != quote)
            ++pos_;
        if (atEnd()) fail("has a string with no closing quote");
        return std::string(text_.substr(start, pos_++ - start));
    }

    bool parseBool() {
        if (text_.substr(pos_).starts_with("True")) {
            pos_ += 4;
            return true;
        }
        if (text_.substr(pos_).starts_with("False")) {
            pos_ += 5;
            return false;
        }
        fail("expected True or False for 'fortran_order'");
    }

    std::uint64_t parseDimension() {
        skipSpace();
        if (peek() == '-') fail("has a negative dimension");
        if (atEnd() || peek() < '0' || peek() > '9') fail("expected a dimension (a whole number)");
        std::uint64_t value = 0;
        while (!atEnd() && peek() >= '0' && peek() <= '9') {
            const auto digit = static_cast<std::uint64_t>(peek() - '0');
            if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                fail("has a dimension too large");
            value = value * 10 + digit;
            ++pos_;
        }
        if (peek() == 'L' || peek() == 'l') ++pos_; // Python 2 wrote long integers as 3L
        return value;
    }

    std::vector<std::uint64_t> parseShape() {
        expect('(');
        std::vector<std::uint64_t> shape;
        for (;;) {
            skipSpace();
            if (peek() == ')') break;
            if (shape.size() == 32) fail("has more dimensions than numpy allows");
            shape.push_back(parseDimension());
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() != ')') fail("expected ',' or ')' in 'shape'");
        }
        ++pos_;
        return shape;
    }

    std::string_view text_;
    const std::string& where_;
    std::size_t pos_ = 0;
};

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

std::optional<DType> vectorLayout(const Header& header) {
    const std::uint64_t last = header.shape.back();
    if (last < 1 || last > 4) return std::nullopt;
    return model::vectorOf(header.descr.dtype, static_cast<int>(last));
}

// The dtype and shape the file's array becomes: itself, or a 3-D vector array for a 4-D file.
std::pair<DType, Shape> arrayLayout(const Header& header, const std::string& where) {
    const std::size_t dims = header.shape.size();
    const std::string holds =
        where + " holds a " + std::to_string(dims) + "-D array " + shapeText(header.shape);
    if (dims == 0)
        throw InputError(where + " holds a 0-D scalar; Kernelpad arrays have 1 to 3 dimensions: save "
                                 "np.atleast_1d(x) instead");
    const std::optional<DType> vector = dims == kMaxFileDims ? vectorLayout(header) : std::nullopt;
    if (dims > kMaxFileDims || (dims == kMaxFileDims && !vector))
        throw InputError(holds + "; Kernelpad arrays have 1 to 3 dimensions: reshape it");
    Shape shape;
    for (std::uint64_t d : header.shape) {
        if (d > std::numeric_limits<std::size_t>::max()) throw InputError(holds + ", too large to load");
        shape.push_back(static_cast<std::size_t>(d));
    }
    if (dims < kMaxFileDims) return {header.descr.dtype, shape};
    shape.pop_back();
    return {*vector, shape};
}

// Product of the dimensions times the item size, or nothing when it does not fit in 64 bits.
std::optional<std::uint64_t> dataBytes(const Header& header) {
    std::uint64_t bytes = model::byteSize(header.descr.dtype);
    for (std::uint64_t d : header.shape) {
        if (d != 0 && bytes > std::numeric_limits<std::uint64_t>::max() / d) return std::nullopt;
        bytes *= d;
    }
    return bytes;
}

// Copies column-major data into row-major order: element (i0, i1, ...) sits at i0 + d0*(i1 + d1*...).
void copyFromFortranOrder(std::span<const std::byte> source, const std::vector<std::uint64_t>& fileShape,
                          std::size_t itemSize, std::byte* target) {
    const std::size_t dims = fileShape.size();
    std::array<std::size_t, kMaxFileDims> extent{}, stride{}, index{};
    std::size_t step = 1;
    for (std::size_t d = 0; d < dims; ++d) {
        extent[d] = static_cast<std::size_t>(fileShape[d]);
        stride[d] = step;
        step *= extent[d];
    }
    const std::size_t count = source.size() / itemSize;
    std::size_t offset = 0; // Fortran-order element index of `index`
    for (std::size_t n = 0; n < count; ++n) {
        std::memcpy(target + n * itemSize, source.data() + offset * itemSize, itemSize);
        for (std::size_t d = dims; d-- > 0;) {
            if (++index[d] < extent[d]) {
                offset += stride[d];
                break;
            }
            index[d] = 0;
            offset -= (extent[d] - 1) * stride[d];
        }
    }
}

void swapItems(std::span<std::byte> bytes, std::size_t itemSize) {
    for (std::size_t i = 0; i + itemSize <= bytes.size(); i += itemSize)
        std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(i),
                     bytes.begin() + static_cast<std::ptrdiff_t>(i + itemSize));
}

std::uint32_t readLittle(std::span<const std::byte> bytes, std::size_t at, std::size_t width) {
    std::uint32_t value = 0;
    for (std::size_t i = width; i-- > 0;)
        value = (value << 8) | std::to_integer<std::uint32_t>(bytes[at + i]);
    return value;
}

std::string arrayText(DType dtype, const Shape& shape) {
    return std::string(model::name(dtype)) + " " + model::toString(shape);
}

// The same bytes as another dtype of the same size per element.
Array retyped(const Array& array, DType dtype, const Shape& shape) {
    Array same(dtype, shape);
    if (array.bytes() != 0) std::memcpy(same.data(), array.data(), array.bytes());
    return same;
}

std::string numpyTypeName(DType dtype) {
    const DType c = model::componentType(dtype);
    return "np." + std::string(model::name(c));
}

} // namespace

Array parseNpy(std::span<const std::byte> bytes, const std::string& where) {
    const std::size_t magicSeen = std::min(bytes.size(), kMagic.size());
    for (std::size_t i = 0; i < magicSeen; ++i)
        if (bytes[i] != static_cast<std::byte>(kMagic[i]))
            throw InputError(where + " is not a .npy file: it does not start with numpy's \\x93NUMPY");
    if (bytes.size() < kMagic.size() + 4)
        throw InputError(where + " is truncated: " + std::to_string(bytes.size()) +
                         " bytes, too short for a "
                         ".npy header");
    const auto major = std::to_integer<int>(bytes[6]);
    const auto minor = std::to_integer<int>(bytes[7]);
    if (major < 1 || major > 3 || minor != 0)
        throw InputError(where + ": .npy format version " + std::to_string(major) + "." +
                         std::to_string(minor) + " is not supported (Kernelpad reads 1.0, 2.0 and 3.0)");
    const std::size_t lengthWidth = major == 1 ? 2 : 4;
    const std::size_t prefix = 8 + lengthWidth;
    if (bytes.size() < prefix)
        throw InputError(where + " is truncated: it ends inside the .npy header length");
    const std::uint64_t headerLength = readLittle(bytes, 8, lengthWidth);
    if (headerLength > bytes.size() - prefix)
        throw InputError(where + " is truncated: its header says it is " + std::to_string(headerLength) +
                         " bytes long, but only " + std::to_string(bytes.size() - prefix) + " follow");

    const auto headerBytes = bytes.subspan(prefix, static_cast<std::size_t>(headerLength));
    const std::string_view headerText(reinterpret_cast<const char*>(headerBytes.data()), headerBytes.size());
    const Header header = HeaderParser(headerText, where).parse();
    const auto [dtype, shape] = arrayLayout(header, where);

    const auto data = bytes.subspan(prefix + headerBytes.size());
    const std::optional<std::uint64_t> needed = dataBytes(header);
    const std::string fileArray =
        std::string(model::name(header.descr.dtype)) + " " + shapeText(header.shape);
    if (!needed) throw InputError(where + " claims an array " + fileArray + " too large to address");
    if (data.size() < *needed)
        throw InputError(where + " is truncated: " + fileArray + " needs " + std::to_string(*needed) +
                         " bytes of data, the file has " + std::to_string(data.size()));
    if (data.size() > *needed)
        throw InputError(where + " has " + std::to_string(data.size() - *needed) +
                         " bytes after the data of " + fileArray +
                         ": the shape in its header does not match its data");

    Array array(dtype, shape);
    const std::size_t itemSize = model::byteSize(header.descr.dtype);
    if (header.fortranOrder && !data.empty())
        copyFromFortranOrder(data, header.shape, itemSize, array.data());
    else if (!data.empty())
        std::memcpy(array.data(), data.data(), data.size());
    if (header.descr.swap) swapItems(array.span(), itemSize);
    if (header.descr.boolean)
        for (std::byte& b : array.span())
            b = b != std::byte{0} ? std::byte{1} : std::byte{0};
    return array;
}

Array readNpy(const std::filesystem::path& path) {
    return parseNpy(readFileBytes(path), path.string());
}

std::vector<std::byte> serializeNpy(const Array& array) {
    const DType component = model::componentType(array.dtype());
    const std::size_t itemSize = model::byteSize(component);
    const bool bits = component == DType::BFloat16;
    const char order = itemSize == 1 || bits ? '|' : std::endian::native == std::endian::little ? '<' : '>';
    const char kind = component == DType::Bool       ? 'b'
                      : bits                         ? 'V'
                      : model::isFloating(component) ? 'f'
                      : model::isSigned(component)   ? 'i'
                                                     : 'u';
    std::vector<std::uint64_t> fileShape(array.shape().begin(), array.shape().end());
    if (model::isVector(array.dtype()))
        fileShape.push_back(static_cast<std::uint64_t>(model::components(array.dtype())));

    std::string header = std::string("{'descr': '") + order + kind + std::to_string(itemSize) +
                         "', 'fortran_order': False, 'shape': " + shapeText(fileShape) + ", }";
    const bool version1 = kMagic.size() + 4 + header.size() + 1 <= 0xFFFF;
    const std::size_t prefix = kMagic.size() + 2 + (version1 ? 2 : 4);
    const std::size_t unpadded = prefix + header.size() + 1;
    header.append((kAlignment - unpadded % kAlignment) % kAlignment, ' ');
    header += '\n';

    std::vector<std::byte> bytes;
    bytes.reserve(prefix + header.size() + array.bytes());
    for (char c : kMagic)
        bytes.push_back(static_cast<std::byte>(c));
    bytes.push_back(std::byte{static_cast<unsigned char>(version1 ? 1 : 2)});
    bytes.push_back(std::byte{0});
    for (std::size_t i = 0; i < prefix - 8; ++i)
        bytes.push_back(static_cast<std::byte>((header.size() >> (8 * i)) & 0xFFu));
    for (char c : header)
        bytes.push_back(static_cast<std::byte>(c));
    bytes.insert(bytes.end(), array.span().begin(), array.span().end());
    return bytes;
}

void writeNpy(const std::filesystem::path& path, const Array& array) {
    writeFileAtomically(path, serializeNpy(array));
}

Array asVectorType(Array array, DType vectorType, const std::string& where) {
    const int count = model::components(vectorType);
    // A numpy bool mask for an `unsigned char*` parameter: the same 0/1 bytes.
    if (array.dtype() == DType::Bool && vectorType == DType::UInt8)
        return retyped(array, vectorType, array.shape());
    if (array.dtype() == vectorType || !model::isVector(vectorType)) return array;
    const DType component = model::componentType(vectorType);
    const Shape& shape = array.shape();
    // The same lanes under another name (a 3-D int64 file's rows arrive as longlong, the kernel has long).
    if (model::isVector(array.dtype()) && model::componentType(array.dtype()) == component &&
        model::components(array.dtype()) == count)
        return retyped(array, vectorType, shape);
    if (array.dtype() != component || shape.size() < 2 || shape.back() != static_cast<std::size_t>(count))
        throw InputError(where + " holds " + arrayText(array.dtype(), shape) + ", but a " +
                         std::string(model::name(vectorType)) + " array is stored as " +
                         std::string(model::name(component)) + " with a last dimension of " +
                         std::to_string(count) + ", e.g. (N, " + std::to_string(count) + ")");
    return retyped(array, vectorType, Shape(shape.begin(), shape.end() - 1));
}

void requireMatches(const Array& loaded, DType dtype, const Shape& shape, const std::string& where) {
    if (loaded.dtype() == dtype && loaded.shape() == shape) return;
    std::string message = where + " holds " + arrayText(loaded.dtype(), loaded.shape()) + " but " +
                          arrayText(dtype, shape) + " is expected";
    if (loaded.dtype() != dtype && model::components(dtype) == 1)
        message += ": convert it in numpy with a.astype(" + numpyTypeName(dtype) + ")";
    else if (loaded.dtype() == dtype && model::elementCount(loaded.shape()) == model::elementCount(shape))
        message += ": reshape it in numpy with a.reshape" + model::toString(shape);
    else if (loaded.dtype() == dtype)
        message += ": the file has " + std::to_string(loaded.size()) + " elements, the argument " +
                   std::to_string(model::elementCount(shape));
    throw InputError(message);
}

} // namespace kp::io
