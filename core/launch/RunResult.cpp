#include "RunResult.h"

#include <algorithm>

namespace kp::launch {

const model::Array* find(const NamedArrays& arrays, std::string_view name) {
    for (const auto& [arrayName, array] : arrays)
        if (arrayName == name) return &array;
    return nullptr;
}

double median(std::vector<double> samples) {
    if (samples.empty()) return 0;
    const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
    std::nth_element(samples.begin(), middle, samples.end());
    if (samples.size() % 2 == 1) return *middle;
    return (*middle + *std::max_element(samples.begin(), middle)) / 2;
}

} // namespace kp::launch
