// The app <-> worker protocol (version kProtocol): frames over a Unix stream socket, each a JSON header
// and, for arrays, file descriptors of shared memory (memfd) passed along (SCM_RIGHTS), so a 256 MiB
// result costs one copy into shared memory in the worker and a mapping in the app, not a pipe's worth
// of copies.
//
// Frame: "KPW1", the header's length (4 bytes, little-endian), the header (UTF-8 JSON); descriptors ride
// with the first byte. Messages (the header's "type"):
//   worker -> app  hello  {protocol, version, pid}            once, first
//   app -> worker  run    {playground, path, backend, repeat, warmup, check_bounds, trusted}
//                  (every request may say trusted: where there is no sandbox, run the host code unconfined)
//   worker -> app  result {report, execution, outputs: [{name, dtype, shape, fd}], reference_outputs}
//   app -> worker  inspect {playground, path, backend}          compile only (run/Inspect.h)
//   worker -> app  inspection {inspection}
//   app -> worker  sweep  {playground, path, sweep}              a whole sweep (run/SweepRunner.h)
//   worker -> app  sweep_row {row, done, total}                  after each row, before the result
//   worker -> app  sweep_result {result}
//   app -> worker  disassemble {playground, path, arch, line_info}  compile only, show the code
//   (run/CompiledCode.h) worker -> app  compiled_code {compiled_code} worker -> app  error  {kind, message,
//   diagnostics, fatal}  fatal: the worker exits after it;
//                  kind "sandbox": the run needs the sandbox and this machine has none
#pragma once

#include "core/model/Array.h"
#include "core/launch/RunResult.h"

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kp::worker {

inline constexpr int kProtocol = 1;

struct Frame {
    nlohmann::json header;
    std::vector<int> fds; // owned by the receiver: closed by whoever takes them
};

// Largest header accepted (a 10 MB source travels inside a run request).
inline constexpr std::size_t kMaxHeaderBytes = 64u << 20;

// Throws SystemError on a socket error, Error on a malformed frame. receive() returns false at a clean
// end of stream (the other side closed) before a frame began.
void send(int socket, const Frame& frame);
bool receive(int socket, Frame& frame);

// Arrays through shared memory: the sender lists each array in the header with a memfd holding it (its
// own, if it came from SharedMemoryAllocator; else a copy); the receiver maps it read-write privately (copy
// on write) as an Array that unmaps when freed.
nlohmann::json shareArrays(const launch::NamedArrays& arrays, std::vector<int>& fds);
launch::NamedArrays adoptArrays(const nlohmann::json& listed, const std::vector<int>& fds);

void closeAll(std::vector<int>& fds) noexcept;

// Memory in memfds: arrays allocated here (the CPU backend's results in the worker) travel to the app
// without a copy; shareArrays sends their descriptor instead of copying them into a new one.
class SharedMemoryAllocator final : public model::HostAllocator {
public:
    std::byte* allocate(std::size_t bytes) override;
    void deallocate(std::byte* data, std::size_t bytes) noexcept override;
    bool sharedWithChildren() const noexcept override { return true; }
    // The memfd behind `data`, or -1 when it did not come from here.
    int descriptorOf(const std::byte* data) const;

private:
    mutable std::mutex mutex_;
    std::map<const std::byte*, int> descriptors_;
};

} // namespace kp::worker
