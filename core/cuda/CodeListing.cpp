#include "CodeListing.h"

#include "core/Error.h"
#include "core/Lines.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

namespace kp::cuda {

namespace {

using nlohmann::json;

// Reads an unsigned decimal (or, with base 16, hex) number at the start of `text`, consuming it.
std::optional<long long> takeNumber(std::string_view& text, int base = 10) {
    text = trimLeft(text);
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc() || end == text.data()) return std::nullopt;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return value;
}

int lineNumber(long long value) {
    return value > 0 && value < (1LL << 31) ? static_cast<int>(value) : 0;
}

// Whether a file named in the code is the compiled source. NVRTC makes a relative program name absolute
// against its working folder, which differs between the machine that compiled and this one's tests: a
// path that ends in the name, at a folder boundary, is it.
bool isSource(std::string_view path, std::string_view sourceName) {
    if (sourceName.empty() || path == sourceName) return true;
    if (sourceName.starts_with("./")) sourceName.remove_prefix(2);
    return path.size() > sourceName.size() && path.ends_with(sourceName) &&
           path[path.size() - sourceName.size() - 1] == '/';
}

// --- PTX ---

// `.file 1 "/folder/kernel.cu"` (maybe followed by a timestamp and a size): its number and path.
std::optional<std::pair<long long, std::string_view>> fileDirective(std::string_view line) {
    if (!line.starts_with(".file")) return std::nullopt;
    line.remove_prefix(5);
    const auto number = takeNumber(line);
    const auto open = line.find('"');
    const auto close = open == std::string_view::npos ? open : line.find('"', open + 1);
    if (!number || close == std::string_view::npos) return std::nullopt;
    return std::pair{*number, line.substr(open + 1, close - open - 1)};
}

// `.loc FILE LINE COLUMN[, function_name LABEL, inlined_at FILE LINE COLUMN]`: the source line, when the
// place (or, for code inlined from a header, its call site) is in the compiled source; 0 otherwise.
int locLine(std::string_view line, const std::set<long long>& sourceFiles) {
    line.remove_prefix(4);
    const auto file = takeNumber(line);
    const auto number = takeNumber(line);
    if (!file || !number) return 0;
    if (sourceFiles.count(*file)) return lineNumber(*number);
    if (const auto at = line.find("inlined_at"); at != std::string_view::npos) {
        auto rest = line.substr(at + 10);
        const auto callerFile = takeNumber(rest);
        const auto callerLine = takeNumber(rest);
        if (callerFile && callerLine && sourceFiles.count(*callerFile)) return lineNumber(*callerLine);
    }
    return 0;
}

// The function a `.entry` or `.func` line declares, with whether it is a kernel; nullopt for other lines.
std::optional<CodeFunction> functionHeader(std::string_view line) {
    const auto token = [&](std::string_view word) {
        const auto at = line.find(word);
        const bool starts =
            at != std::string_view::npos && (at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t');
        const auto after = at + word.size();
        return starts && after < line.size() && (line[after] == ' ' || line[after] == '\t')
                   ? at
                   : std::string_view::npos;
    };
    const auto entry = token(".entry");
    const auto func = entry == std::string_view::npos ? token(".func") : std::string_view::npos;
    if (entry == std::string_view::npos && func == std::string_view::npos) return std::nullopt;
    auto rest = trimLeft(line.substr(entry != std::string_view::npos ? entry + 6 : func + 5));
    if (rest.starts_with('(')) { // a .func's return parameters
        const auto close = rest.find(')');
        if (close == std::string_view::npos) return std::nullopt;
        rest = trimLeft(rest.substr(close + 1));
    }
    const auto end = rest.find_first_of("( \t;");
    const auto name = rest.substr(0, end);
    if (name.empty()) return std::nullopt;
    return CodeFunction{std::string(name), entry != std::string_view::npos, 0, 0};
}

int braceBalance(std::string_view line) {
    line = line.substr(0, line.find("//"));
    return static_cast<int>(std::count(line.begin(), line.end(), '{')) -
           static_cast<int>(std::count(line.begin(), line.end(), '}'));
}

// An instruction or directive inside a body, as opposed to a label, a comment, a brace or a blank line.
bool isCode(std::string_view trimmed) {
    if (trimmed.empty() || trimmed.starts_with("//") || trimmed.starts_with('{') || trimmed.starts_with('}'))
        return false;
    return !(trimmed.ends_with(':') && trimmed.find_first_of(" \t") == std::string_view::npos);
}

// --- SASS ---

// `//## File "PATH", line N[ inlined at "PATH", line M]...`: its places, innermost first.
std::vector<std::pair<std::string_view, int>> filePlaces(std::string_view comment) {
    std::vector<std::pair<std::string_view, int>> places;
    for (;;) {
        const auto open = comment.find('"');
        const auto close = open == std::string_view::npos ? open : comment.find('"', open + 1);
        if (close == std::string_view::npos) return places;
        const auto path = comment.substr(open + 1, close - open - 1);
        comment.remove_prefix(close + 1);
        const auto word = comment.find("line");
        if (word == std::string_view::npos) return places;
        comment.remove_prefix(word + 4);
        if (const auto number = takeNumber(comment)) places.emplace_back(path, lineNumber(*number));
    }
}

// `/*00f0*/ ...`: the instruction's offset.
std::optional<std::int64_t> instructionAddress(std::string_view trimmed) {
    if (!trimmed.starts_with("/*")) return std::nullopt;
    trimmed.remove_prefix(2);
    const auto address = takeNumber(trimmed, 16);
    if (!address || !trimmed.starts_with("*/")) return std::nullopt;
    return *address;
}

// nvdisasm's instruction line, "/*00f0*/", 15 spaces, "@P0 EXIT ;", with the gap narrowed to a column
// for the predicate: "/*00f0*/  @P0   EXIT ;". The code is what a person reads in a narrow dock.
std::string compactInstruction(std::string_view line) {
    const auto close = line.find("*/") + 2;
    std::string text(line.substr(0, close));
    auto rest = trim(line.substr(close));
    std::string predicate;
    if (rest.starts_with('@')) {
        const auto end = std::min(rest.find_first_of(" \t"), rest.size());
        predicate = std::string(rest.substr(0, end));
        rest = trim(rest.substr(end));
    }
    predicate.resize(std::max<std::size_t>(predicate.size() + 1, 6), ' ');
    return text + "  " + predicate + std::string(rest);
}

// `.other NAME,@"STO_CUDA_ENTRY STV_DEFAULT"`: the kernel NAME, or nothing.
std::string_view entryIn(std::string_view trimmed) {
    if (!trimmed.starts_with(".other") || trimmed.find("STO_CUDA_ENTRY") == std::string_view::npos) return {};
    const auto name = trimLeft(trimmed.substr(6));
    return name.substr(0, name.find(','));
}

} // namespace

CodeListing CodeListing::fromPtx(std::string_view ptx, std::string_view sourceName) {
    const auto text = splitLines(ptx);
    std::set<long long> sourceFiles; // the .file numbers of the source (the table comes last)
    for (const auto line : text)
        if (const auto file = fileDirective(trim(line)); file && isSource(file->second, sourceName))
            sourceFiles.insert(file->first);

    CodeListing listing;
    listing.lines_.reserve(text.size());
    std::optional<CodeFunction> pending; // a header seen, its body not yet closed
    int depth = 0;
    int current = 0; // the source line of the last .loc
    for (const auto raw : text) {
        const auto line = trim(raw);
        const std::size_t index = listing.lines_.size();
        if (depth == 0 && !pending) {
            if (auto header = functionHeader(line)) {
                pending = std::move(header);
                pending->first = index;
                current = 0;
            }
        }
        if (line.starts_with(".loc") && (line.size() == 4 || line[4] == ' ' || line[4] == '\t'))
            current = locLine(line, sourceFiles);
        const bool inBody = depth > 0 && pending; // not the braces of a data section (.debug_str)
        listing.lines_.push_back({std::string(raw), inBody && isCode(line) ? current : 0, -1});
        depth = std::max(0, depth + braceBalance(line));
        if (pending && depth == 0) {
            if (inBody) { // the body just closed
                pending->end = index + 1;
                listing.functions_.push_back(std::move(*pending));
                pending.reset();
            } else if (line.ends_with(';')) { // a declaration (.extern .func vprintf ...;), no body
                pending.reset();
            }
        }
    }
    return listing;
}

CodeListing CodeListing::fromSass(std::string_view disassembly, std::string_view sourceName) {
    CodeListing listing;
    std::set<std::string, std::less<>> kernels;
    std::optional<CodeFunction> open;
    std::vector<std::pair<std::string_view, int>> places; // of the "//## File" lines just read
    bool readingPlaces = false;
    int current = 0;
    const auto close = [&] {
        if (!open) return;
        open->end = listing.lines_.size();
        listing.functions_.push_back(std::move(*open));
        open.reset();
    };
    for (const auto raw : splitLines(disassembly)) {
        const auto line = trim(raw);
        if (line.starts_with("//## File")) {
            if (!readingPlaces) places.clear();
            readingPlaces = true;
            const auto more = filePlaces(line);
            places.insert(places.end(), more.begin(), more.end());
            continue;
        }
        if (readingPlaces) {
            readingPlaces = false;
            const auto inSource = std::find_if(places.begin(), places.end(), [&](const auto& place) {
                return isSource(place.first, sourceName);
            });
            current = inSource == places.end() ? 0 : inSource->second;
        }
        if (const auto name = entryIn(line); !name.empty()) kernels.emplace(name);
        if (line.starts_with(".text.") && line.ends_with(':')) {
            close();
            const auto name = line.substr(6, line.size() - 7);
            if (!listing.lines_.empty()) listing.lines_.push_back({});
            open = CodeFunction{std::string(name), kernels.count(name) > 0, listing.lines_.size(), 0};
            listing.lines_.push_back({std::string(name) + ":", 0, -1});
            current = 0;
        } else if (line.starts_with("//")) {
            if (line.find(" SYMBOLS ") != std::string_view::npos) close(); // the code has ended
        } else if (const auto address = instructionAddress(line)) {
            listing.lines_.push_back({compactInstruction(line), current, *address});
        } else if (open && line.starts_with('.') && line.ends_with(':')) {
            listing.lines_.push_back({std::string(line), 0, -1}); // a branch target (.L_x_0:)
        }
    }
    close();
    return listing;
}

std::vector<std::size_t> CodeListing::linesFrom(int sourceLine) const {
    std::vector<std::size_t> indexes;
    if (sourceLine <= 0) return indexes;
    for (std::size_t i = 0; i < lines_.size(); ++i)
        if (lines_[i].sourceLine == sourceLine) indexes.push_back(i);
    return indexes;
}

const CodeFunction* CodeListing::functionAt(std::size_t line) const {
    for (const auto& f : functions_)
        if (line >= f.first && line < f.end) return &f;
    return nullptr;
}

const CodeFunction* CodeListing::function(std::string_view name) const {
    for (const auto& f : functions_)
        if (f.name == name) return &f;
    return nullptr;
}

bool CodeListing::hasSourceLines() const {
    return std::any_of(lines_.begin(), lines_.end(), [](const CodeLine& l) { return l.sourceLine > 0; });
}

json CodeListing::toJson() const {
    // Lines as [text, source line, address]: a kernel's PTX runs to thousands of them.
    json lines = json::array();
    for (const auto& l : lines_)
        lines.push_back(json::array({l.text, l.sourceLine, l.address}));
    json functions = json::array();
    for (const auto& f : functions_)
        functions.push_back({{"name", f.name}, {"kernel", f.kernel}, {"first", f.first}, {"end", f.end}});
    return {{"lines", lines}, {"functions", functions}};
}

CodeListing CodeListing::fromJson(const json& j) {
    try {
        CodeListing listing;
        for (const auto& l : j.at("lines")) {
            if (!l.is_array() || l.size() != 3)
                throw InputError("code listing: a line is not [text, source line, address]");
            listing.lines_.push_back(
                {l.at(0).get<std::string>(), l.at(1).get<int>(), l.at(2).get<std::int64_t>()});
        }
        for (const auto& f : j.at("functions")) {
            CodeFunction function{f.at("name").get<std::string>(), f.at("kernel").get<bool>(),
                                  f.at("first").get<std::size_t>(), f.at("end").get<std::size_t>()};
            if (function.first > function.end || function.end > listing.lines_.size())
                throw InputError("code listing: function " + function.name + " lies outside its lines");
            listing.functions_.push_back(std::move(function));
        }
        return listing;
    } catch (const json::exception& e) {
        throw InputError(std::string("code listing: ") + e.what());
    }
}

} // namespace kp::cuda
