// The worker's channel on one machine: frames over a Unix stream socket, each "KPW1", the header's length
// (4 bytes, little-endian) and the header (UTF-8 JSON), with the arrays in shared memory (memfd) whose
// descriptors ride with the first byte (SCM_RIGHTS). A 256 MiB result costs one copy into shared memory
// in the worker and a mapping in the app, not a pipe's worth of copies. The header lists the arrays
// under the key "arrays" ({dtype, shape}, in the order of the descriptors); the receiver maps each
// read-write privately (copy on write) as an Array that unmaps when freed.
#pragma once

#include "Channel.h"
#include "core/UniqueFd.h"

#include <map>
#include <mutex>

namespace kp::worker {

// Largest header accepted (a 10 MB source travels inside a run request).
inline constexpr std::size_t kMaxHeaderBytes = 64u << 20;

class UnixChannel final : public Channel {
public:
    explicit UnixChannel(UniqueFd socket) : socket_(std::move(socket)) {}

    void send(const Frame& frame) override;
    bool receive(Frame& frame) override;
    bool wait(std::chrono::milliseconds timeout) override;
    std::shared_ptr<model::HostAllocator> arrayAllocator() override;

private:
    UniqueFd socket_;
};

// Memory in memfds: arrays allocated here (the CPU backend's results in the worker) travel to the app
// without a copy; the channel sends their descriptor instead of copying them into a new one.
class SharedMemoryAllocator final : public model::HostAllocator {
public:
    std::byte* allocate(std::size_t bytes) override;
    void deallocate(std::byte* data, std::size_t bytes) noexcept override;
    bool sharedWithChildren() const noexcept override { return true; }
    // The memfd behind `data`, or -1 when it did not come from here.
    int descriptorOf(const std::byte* data) const;

private:
    mutable std::mutex mutex_;
    std::map<const std::byte*, UniqueFd> descriptors_;
};

} // namespace kp::worker
