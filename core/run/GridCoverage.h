// How a launch's threads fall over its data, one thread per element as "auto" lays them out (x along the
// last dimension): the threads past the data's end that sit idle, the elements no thread reaches, and
// which blocks a drawing shows when there are too many. The launch panel's drawing and caption use it.
#pragma once

#include "core/launch/LaunchGeometry.h"
#include "core/model/Array.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace kp::run {

struct GridCoverage {
    std::uint64_t threads = 0;   // launched, in all
    std::uint64_t busy = 0;      // threads over an element
    std::uint64_t idle = 0;      // threads past the data's end
    std::uint64_t uncovered = 0; // elements past the grid's end: no thread reaches them
    std::uint64_t elements = 0;

    double idleRatio() const { return threads ? double(idle) / double(threads) : 0.0; }
    double uncoveredRatio() const { return elements ? double(uncovered) / double(elements) : 0.0; }
    bool operator==(const GridCoverage&) const = default;
};

// Counts saturate at 2^64 - 1 for grids no device accepts. An empty shape has no elements.
GridCoverage coverageOf(const model::Shape& shape, const launch::LaunchGeometry& geometry);

// The same for a kernel that loops over its data with the whole grid as the stride (a grid-stride
// loop over the flattened array): every element is reached whatever the grid, and only threads past
// the element count are idle.
GridCoverage strideCoverageOf(const model::Shape& shape, const launch::LaunchGeometry& geometry);

// How many elements of a one-dimensional `shape` each thread of a one-dimensional launch seems to take:
// 2, 4 or 8 where the grid is exactly sized for that many (ceil(n / k) threads, rounded up to whole
// blocks), as a kernel that loads pairs or vectors is launched; 1 otherwise, a grid that is simply short
// included. A guess from the sizes, said as such where it is shown.
std::uint32_t elementsPerThread(const model::Shape& shape, const launch::LaunchGeometry& geometry);

// Whether the body of the kernel whose name is on 1-based `line` of `source` reads gridDim, as a
// grid-stride loop does; comments and string literals do not count. False when no body follows.
bool readsGridDim(std::string_view source, int line);

// The extent of `shape` along launch axis 0 (x), 1 (y) or 2 (z): 1 where the shape has no such dimension.
std::uint64_t extentAlong(const model::Shape& shape, std::size_t axis);

// One axis of the drawing: the blocks drawn, each with how much of it lies over the data along this axis.
// Past `maxDrawn` blocks, the first ones and the last are drawn and the ones between are summarised, so
// that the end of the data, where the idle threads are, is always in the picture.
struct DrawnBlock {
    std::uint32_t index = 0;
    double onData = 0;      // 0..1 of the block's threads along this axis that lie over the data
    bool gapBefore = false; // the blocks between this one and the one drawn before it are not drawn
    bool operator==(const DrawnBlock&) const = default;
};
std::vector<DrawnBlock> drawnBlocks(std::uint64_t extent, std::uint32_t blockDim, std::uint32_t gridDim,
                                    std::size_t maxDrawn = 64);

} // namespace kp::run
