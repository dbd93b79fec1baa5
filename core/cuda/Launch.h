// Launching a kernel: a launch configuration as a value, the argument list the driver wants, and the
// free function launch(kernel, config, stream, args) that does nothing more than cuLaunchKernel.
#pragma once

#include "Kernel.h"
#include "Stream.h"

#include <array>
#include <cstddef>
#include <cstring>
#include <ostream>
#include <vector>

namespace kp::cuda {

struct Dim3 {
    unsigned x = 1;
    unsigned y = 1;
    unsigned z = 1;
    unsigned long long volume() const { return 1ULL * x * y * z; }
    bool operator==(const Dim3&) const = default;
};

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    unsigned sharedBytes = 0; // dynamic shared memory per block
    // cuLaunchCooperativeKernel: every block resident at once, so that a grid group can sync.
    bool cooperative = false;
    bool operator==(const LaunchConfig&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Dim3& d);
std::ostream& operator<<(std::ostream& out, const LaunchConfig& c);

// Kernel arguments by value, each stored with its own alignment, and the void* array that
// cuLaunchKernel reads. Built once, launched many times (repeats, sweeps).
class KernelArguments {
public:
    template <typename T> void add(const T& value) { addBytes(&value, sizeof(T), alignof(T)); }
    void addBytes(const void* value, std::size_t bytes, std::size_t alignment);
    std::size_t count() const noexcept { return offsets_.size(); }
    // Valid until the next add().
    void** pointers();

private:
    std::vector<std::byte> storage_;
    std::vector<std::size_t> offsets_;
    std::vector<void*> pointers_;
};

void launch(const Kernel& kernel, const LaunchConfig& config, const Stream& stream, void** arguments);

template <typename... Args>
void launch(const Kernel& kernel, const LaunchConfig& config, const Stream& stream, const Args&... args) {
    std::array<void*, sizeof...(Args) == 0 ? 1 : sizeof...(Args)> pointers{
        const_cast<void*>(static_cast<const void*>(&args))...};
    launch(kernel, config, stream, pointers.data());
}

} // namespace kp::cuda
