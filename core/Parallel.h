// Work on large arrays spread over every core this process may use (usableCores): copying, zeroing and
// hashing hundreds of megabytes on one core took longer than the kernels a sweep times on sixteen.
#pragma once

#include <cstddef>
#include <functional>

namespace kp {

// Calls part(from, to) for consecutive ranges covering [0, count), one per usable core, on the calling
// thread and threads of its own, and returns when all are done; once, on the calling thread, when `count`
// is below `parallelFrom` or only one core is usable. What a part throws ends the program: parts must not.
void inParts(std::size_t count, std::size_t parallelFrom,
             const std::function<void(std::size_t from, std::size_t to)>& part);

// How many parts inParts makes of `count` (1 when it calls once, on the calling thread; 0 for nothing).
std::size_t partsOf(std::size_t count, std::size_t parallelFrom);
// inParts, telling each part its index: 0 for the first range, up to partsOf(count, parallelFrom) - 1
// for the last, for results kept per part and merged in order (a check's first mismatches).
void inIndexedParts(std::size_t count, std::size_t parallelFrom,
                    const std::function<void(std::size_t index, std::size_t from, std::size_t to)>& part);

// memcpy and memset(0), in parts from 16 MiB.
void copyBytes(void* to, const void* from, std::size_t bytes);
void zeroBytes(void* to, std::size_t bytes);

} // namespace kp
