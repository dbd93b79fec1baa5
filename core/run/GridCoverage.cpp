#include "GridCoverage.h"

#include "core/source/Lexer.h"

#include <algorithm>
#include <limits>

namespace kp::run {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::uint64_t times(std::uint64_t a, std::uint64_t b) {
    if (a != 0 && b > kMax / a) return kMax;
    return a * b;
}

} // namespace

std::uint64_t extentAlong(const model::Shape& shape, std::size_t axis) {
    return axis < shape.size() ? std::uint64_t{shape[shape.size() - 1 - axis]} : 1;
}

GridCoverage coverageOf(const model::Shape& shape, const launch::LaunchGeometry& geometry) {
    GridCoverage c;
    c.threads = times(geometry.blocks(), geometry.threadsPerBlock());
    if (shape.empty()) return c;
    // Per axis, threads reach min(extent, grid x block) positions: a thread lies over an element exactly
    // when every one of its coordinates does.
    std::uint64_t elements = 1;
    std::uint64_t reached = 1;
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const std::uint64_t extent = extentAlong(shape, axis);
        const std::uint64_t span = times(geometry.grid[axis], geometry.block[axis]);
        elements = times(elements, extent);
        reached = times(reached, std::min(extent, span));
    }
    c.elements = elements;
    c.busy = reached;
    c.idle = c.threads - std::min(c.threads, reached);
    c.uncovered = elements - reached;
    return c;
}

std::uint32_t elementsPerThread(const model::Shape& shape, const launch::LaunchGeometry& geometry) {
    if (shape.size() != 1 || geometry.grid[1] != 1 || geometry.grid[2] != 1 || geometry.block[1] != 1 ||
        geometry.block[2] != 1 || geometry.block[0] == 0)
        return 1;
    const std::uint64_t elements = shape[0];
    const std::uint64_t threads = std::uint64_t{geometry.grid[0]} * geometry.block[0];
    if (elements <= threads) return 1;
    for (std::uint32_t k : {2U, 4U, 8U}) {
        const std::uint64_t needed = (elements + k - 1) / k;
        if (needed <= threads && threads < needed + geometry.block[0]) return k;
    }
    return 1;
}

GridCoverage strideCoverageOf(const model::Shape& shape, const launch::LaunchGeometry& geometry) {
    GridCoverage c;
    c.threads = times(geometry.blocks(), geometry.threadsPerBlock());
    if (shape.empty()) return c;
    c.elements = 1;
    for (const auto extent : shape)
        c.elements = times(c.elements, extent);
    c.busy = std::min(c.threads, c.elements);
    c.idle = c.threads - c.busy;
    return c;
}

bool readsGridDim(std::string_view source, int line) {
    std::size_t lineStart = 0;
    for (int l = 1; l < line && lineStart < source.size(); ++l)
        lineStart = std::min(source.find('\n', lineStart), source.size()) + 1;
    if (lineStart >= source.size()) return false;
    source::Lexer lexer(source, {.offset = lineStart, .line = line, .column = 1});
    int depth = 0;
    for (source::Token token = lexer.next(); token.kind != source::TokenKind::End; token = lexer.next()) {
        if (token.inDirective || token.kind == source::TokenKind::Directive) continue;
        const std::string_view text = lexer.text(token);
        if (text == "{") {
            ++depth;
        } else if ((text == "}" && depth > 0 && --depth == 0) || (text == ";" && depth == 0)) {
            return false; // the body ended without it, or a declaration without a body
        } else if (depth > 0 && token.kind == source::TokenKind::Identifier && text == "gridDim") {
            return true;
        }
    }
    return false;
}

std::vector<DrawnBlock> drawnBlocks(std::uint64_t extent, std::uint32_t blockDim, std::uint32_t gridDim,
                                    std::size_t maxDrawn) {
    std::vector<DrawnBlock> blocks;
    if (gridDim == 0 || blockDim == 0 || maxDrawn < 2) return blocks;
    const auto onData = [&](std::uint32_t index) {
        const std::uint64_t start = std::uint64_t{index} * blockDim;
        const std::uint64_t inside = extent > start ? std::min<std::uint64_t>(extent - start, blockDim) : 0;
        return double(inside) / double(blockDim);
    };
    const bool summarised = gridDim > maxDrawn;
    const std::uint32_t leading = summarised ? static_cast<std::uint32_t>(maxDrawn - 1) : gridDim;
    for (std::uint32_t index = 0; index < leading; ++index)
        blocks.push_back({index, onData(index), false});
    if (summarised) blocks.push_back({gridDim - 1, onData(gridDim - 1), true});
    return blocks;
}

} // namespace kp::run
