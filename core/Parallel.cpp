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

void inParts(std::size_t count, std::size_t parallelFrom,
             const std::function<void(std::size_t from, std::size_t to)>& part) {
    const std::size_t cores = std::min<std::size_t>(usableCores(), count);
    if (count < parallelFrom || cores < 2) {
        if (count > 0) part(0, count);
        return;
    }
    const std::size_t share = (count + cores - 1) / cores;
    std::vector<std::jthread> threads;
    threads.reserve(cores - 1);
    for (std::size_t from = share; from < count; from += share)
        threads.emplace_back([&part, from, to = std::min(count, from + share)] { part(from, to); });
    part(0, std::min(count, share));
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
