// Sizes for people ("1.5 GiB", one spelling for every message that names an amount of memory) and how
// much memory there is to have.
#pragma once

#include <cstdint>
#include <string>

namespace kp {

// Binary units up to TiB ("1024.0 TiB" for a petabyte), one decimal.
std::string humanBytes(double bytes);

// Memory the system could give this process now (MemAvailable), or 0 when it cannot tell.
std::uint64_t availableMemoryBytes();

} // namespace kp
