// How many cores this process may really use: the CPU backend starts that many worker threads.
// std::thread::hardware_concurrency() counts the machine's cores, but a container or a `taskset` may
// allow fewer; threads beyond the allowance only queue, and a CPU quota then stops the whole process,
// GUI thread included, for the rest of each period once the spinning threads have used it up.
#pragma once

namespace kp {

// The smallest of: the CPUs in this thread's affinity mask, the cgroup's CPU quota (cgroup v2 cpu.max
// or v1 cfs_quota_us / cfs_period_us, rounded up) and hardware_concurrency(); at least 1.
unsigned usableCores();

// The quota in a cgroup v2 cpu.max line ("max 100000" or "150000 100000"), in cores rounded up; 0 when
// unlimited or unreadable. Apart for its test.
unsigned coresInCpuMax(const char* line);

} // namespace kp
