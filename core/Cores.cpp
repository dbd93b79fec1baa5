#include "Cores.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sched.h>
#include <string>
#include <thread>

namespace kp {

namespace {

unsigned coresInQuota(long long quota, long long period) {
    if (quota <= 0 || period <= 0) return 0;
    return unsigned((quota + period - 1) / period);
}

// The cgroup this process is in, from /proc/self/cgroup's v2 line ("0::/path"); empty when none.
std::string cgroupV2Path() {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("0::", 0) == 0) return line.substr(3);
    return {};
}

unsigned cgroupCores() {
    std::string line;
    // v2: the process's own cgroup, then the root of the mount (a container sees its own as "/").
    for (const std::string& where : {"/sys/fs/cgroup" + cgroupV2Path(), std::string("/sys/fs/cgroup")}) {
        std::ifstream max(where + "/cpu.max");
        if (max && std::getline(max, line)) return coresInCpuMax(line.c_str());
    }
    long long quota = 0, period = 0;
    std::ifstream q("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), p("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    if (q >> quota && p >> period) return coresInQuota(quota, period);
    return 0;
}

} // namespace

unsigned coresInCpuMax(const char* line) {
    long long quota = 0, period = 0;
    if (std::sscanf(line, "%lld %lld", &quota, &period) != 2) return 0; // "max ..." reads no number
    return coresInQuota(quota, period);
}

unsigned usableCores() {
    // Read each time (a few small files): a runner made after a `taskset` or a quota change follows it.
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        n = std::min(n, unsigned(std::max(1, CPU_COUNT(&set))));
    if (const unsigned quota = cgroupCores(); quota > 0) n = std::min(n, quota);
    return std::max(1u, n);
}

} // namespace kp
