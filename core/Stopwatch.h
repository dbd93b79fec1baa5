// Elapsed wall time in milliseconds, as every timing the core reports it (compiles, runs, references).
#pragma once

#include <chrono>

namespace kp {

inline double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace kp
