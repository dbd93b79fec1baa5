// How a playground writes an unordered output's comparison ("multiset", "multiset_per_row" or
// {"min": a, "max": b}), shared by the playground file and the run report, which says it back as given.
#pragma once

#include "core/model/Playground.h"

#include <nlohmann/json.hpp>

namespace kp::io {

nlohmann::ordered_json unorderedJson(const model::UnorderedSpec& how);

} // namespace kp::io
