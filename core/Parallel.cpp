#include "Parallel.h"

#include "Cores.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace kp {

namespace {
constexpr std::size_t kParallelBytes = std::size_t{16} << 20;
} // namespace

namespace {
// The share of each part (the last may be smaller) and how many there are.
struct Split {
    std::size_t share = 0;
    std::size_t parts = 0;
};
Split split(std::size_t count, std::size_t parallelFrom) {
    const Split alone{count, count > 0 ? std::size_t{1} : 0};
    // Below the threshold the cores are not counted: usableCores() reads cgroup files (30 us, most of a
    // small array's refill in every repeat).
    if (count < parallelFrom) return alone;
    const std::size_t cores = std::min<std::size_t>(usableCores(), count);
    if (cores < 2) return alone;
    const std::size_t share = (count + cores - 1) / cores;
    return {share, (count + share - 1) / share};
}
} // namespace

std::size_t partsOf(std::size_t count, std::size_t parallelFrom) {
    return split(count, parallelFrom).parts;
}

void inIndexedParts(std::size_t count, std::size_t parallelFrom,
                    const std::function<void(std::size_t index, std::size_t from, std::size_t to)>& part) {
    const auto [share, parts] = split(count, parallelFrom);
    if (parts == 0) return;
    std::vector<std::jthread> threads;
    threads.reserve(parts - 1);
    for (std::size_t index = 1; index < parts; ++index)
        threads.emplace_back([&part, index, from = index * share, to = std::min(count, (index + 1) * share)] {
            part(index, from, to);
        });
    part(0, 0, std::min(count, share));
}

void inParts(std::size_t count, std::size_t parallelFrom,
             const std::function<void(std::size_t from, std::size_t to)>& part) {
    inIndexedParts(count, parallelFrom,
                   [&part](std::size_t, std::size_t from, std::size_t to) { part(from, to); });
}

void copyBytes(void* to, const void* from, std::size_t bytes) {
    inParts(bytes, kParallelBytes, [to, from](std::size_t begin, std::size_t end) {
        std::memcpy(static_cast<std::byte*>(to) + begin, static_cast<const std::byte*>(from) + begin,
                    end - begin);
    });
}

void zeroBytes(void* to, std::size_t bytes) {
    inParts(bytes, kParallelBytes, [to](std::size_t begin, std::size_t end) {
        std::memset(static_cast<std::byte*>(to) + begin, 0, end - begin);
    });
}

} // namespace kp
