// Sizes for people: "1.5 GiB". One spelling for every message that names an amount of memory.
#pragma once

#include <string>

namespace kp {

// Binary units (B, KiB, MiB, GiB, TiB, PiB), one decimal above bytes.
std::string humanBytes(double bytes);

} // namespace kp
