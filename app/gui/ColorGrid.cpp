#include "ColorGrid.h"

#include "ValueReader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

std::size_t divideRoundingUp(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

template <typename Read>
bool accumulate(ColorGrid& grid, std::size_t offset, const Read& read, std::vector<double>& sums,
                std::vector<std::size_t>& counts, const std::atomic<bool>* cancel) {
    for (std::size_t r = 0; r < grid.arrayRows; ++r) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        const std::size_t cellRow = (r / grid.blockRows) * grid.columns;
        const std::size_t rowStart = offset + r * grid.arrayColumns;
        for (std::size_t c = 0; c < grid.arrayColumns; ++c) {
            const double v = read(rowStart + c);
            if (!std::isfinite(v)) continue;
            const std::size_t cell = cellRow + c / grid.blockColumns;
            sums[cell] += v;
            ++counts[cell];
        }
    }
    return true;
}

template <typename Read>
bool markMismatches(ColorGrid& grid, std::size_t offset, const Read& actual, const Read& expected,
                    const kp::run::Tolerance& tolerance, const std::atomic<bool>* cancel) {
    grid.mismatch.assign(grid.rows * grid.columns, 0);
    for (std::size_t r = 0; r < grid.arrayRows; ++r) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        const std::size_t cellRow = (r / grid.blockRows) * grid.columns;
        const std::size_t rowStart = offset + r * grid.arrayColumns;
        for (std::size_t c = 0; c < grid.arrayColumns; ++c)
            if (!kp::run::matches(actual(rowStart + c), expected(rowStart + c), tolerance))
                grid.mismatch[cellRow + c / grid.blockColumns] = 1;
    }
    for (unsigned char m : grid.mismatch)
        grid.mismatchingCells += m;
    return true;
}

} // namespace

std::optional<ColorGrid> ColorGrid::build(const kp::model::Array& array, const kp::model::Array* reference,
                                          const kp::run::Tolerance& tolerance, int component,
                                          std::size_t slice, std::size_t maxCells,
                                          const std::atomic<bool>* cancel) {
    const auto& shape = array.shape();
    ColorGrid grid;
    grid.arrayRows = shape[shape.size() - 2];
    grid.arrayColumns = shape[shape.size() - 1];
    grid.blockRows = std::max<std::size_t>(1, divideRoundingUp(grid.arrayRows, maxCells));
    grid.blockColumns = std::max<std::size_t>(1, divideRoundingUp(grid.arrayColumns, maxCells));
    grid.rows = divideRoundingUp(grid.arrayRows, grid.blockRows);
    grid.columns = divideRoundingUp(grid.arrayColumns, grid.blockColumns);
    const std::size_t offset = shape.size() == 3 ? slice * grid.arrayRows * grid.arrayColumns : 0;

    std::vector<double> sums(grid.rows * grid.columns, 0.0);
    std::vector<std::size_t> counts(sums.size(), 0);
    const bool done = withValueReader(
        array, component, [&](auto read) { return accumulate(grid, offset, read, sums, counts, cancel); });
    if (!done) return std::nullopt;
    grid.mean.resize(sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i)
        grid.mean[i] = counts[i] ? sums[i] / double(counts[i]) : std::numeric_limits<double>::quiet_NaN();

    if (!reference) return grid;
    const bool marked = withValueReaders(array, *reference, component, [&](auto actual, auto expected) {
        return markMismatches(grid, offset, actual, expected, tolerance, cancel);
    });
    if (!marked) return std::nullopt;
    return grid;
}
