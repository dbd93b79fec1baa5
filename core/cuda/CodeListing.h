// Compiled code as lines a person reads, PTX from NVRTC or SASS from nvdisasm, each tied to the line of
// the kernel's source it came from (when compiled with -lineinfo) and grouped into functions. The
// compiled-code view shows it; run/CompiledCode builds it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kp::cuda {

struct CodeLine {
    std::string text;
    int sourceLine = 0;        // 1-based line of the compiled source; 0 when none is known
    std::int64_t address = -1; // SASS: the instruction's offset in its function; -1 for other lines

    bool operator==(const CodeLine&) const = default;
};

struct CodeFunction {
    std::string name;      // the symbol, mangled as in the code ("_Z5scalePfi")
    bool kernel = false;   // a __global__ function (.entry), not a device function
    std::size_t first = 0; // index of its first line
    std::size_t end = 0;   // one past its last line

    bool operator==(const CodeFunction&) const = default;
};

class CodeListing {
public:
    // PTX as NVRTC writes it: .loc directives (from -lineinfo) give each instruction its source line,
    // through the .file table. `sourceName` is the name the source was compiled under; only locations in
    // that file count, not those in headers.
    static CodeListing fromPtx(std::string_view ptx, std::string_view sourceName);
    // nvdisasm's text (-c -gi): "//## File" comments give the following instructions their source line;
    // with inlining, the innermost place that lies in `sourceName`.
    static CodeListing fromSass(std::string_view disassembly, std::string_view sourceName);

    const std::vector<CodeLine>& lines() const { return lines_; }
    const std::vector<CodeFunction>& functions() const { return functions_; }
    bool empty() const { return lines_.empty(); }
    // Indexes of the lines compiled from `sourceLine`, in order.
    std::vector<std::size_t> linesFrom(int sourceLine) const;
    // The function a line belongs to; nullptr outside any.
    const CodeFunction* functionAt(std::size_t line) const;
    const CodeFunction* function(std::string_view name) const;
    bool hasSourceLines() const;

    nlohmann::json toJson() const;
    // Throws InputError naming what is missing or of the wrong type.
    static CodeListing fromJson(const nlohmann::json& json);
    bool operator==(const CodeListing&) const = default;

private:
    std::vector<CodeLine> lines_;
    std::vector<CodeFunction> functions_;
};

} // namespace kp::cuda
