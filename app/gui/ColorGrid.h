// A 2-D array, or one slice of a 3-D one, averaged over blocks of elements down to at most
// maxCells x maxCells cells, with the cells that hold a mismatch against the reference marked: what
// ArrayPlot's colour map shows. Built off the GUI thread for big arrays.
#pragma once

#include "core/model/Array.h"
#include "core/run/Check.h"

#include <atomic>
#include <cstddef>
#include <optional>
#include <vector>

struct ColorGrid {
    std::size_t rows = 0, columns = 0; // cells
    std::size_t blockRows = 1,
                blockColumns = 1; // elements per cell in each direction (the last ones may hold fewer)
    std::size_t arrayRows = 0, arrayColumns = 0; // of the slice
    std::vector<double> mean;                    // rows x columns, row-major; NaN where no finite value
    std::vector<unsigned char> mismatch;         // 1: a value in the cell differs; empty without reference
    std::size_t mismatchingCells = 0;

    double at(std::size_t row, std::size_t column) const { return mean[row * columns + column]; }

    // `array` has 2 or 3 dimensions; `slice` picks the first index of a 3-D one. `reference`, when
    // given, has the array's dtype and shape. Nullopt when `cancel` was set before it was done.
    static std::optional<ColorGrid> build(const kp::model::Array& array, const kp::model::Array* reference,
                                          const kp::run::Tolerance& tolerance, int component,
                                          std::size_t slice, std::size_t maxCells,
                                          const std::atomic<bool>* cancel = nullptr);
};
