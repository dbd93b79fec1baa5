// A CUDA stream: the queue that transfers and launches go on, so the Runner can overlap and time them.
#pragma once

#include <cuda.h>

namespace kp::cuda {

class Stream {
public:
    // A non-blocking stream in the current context.
    static Stream create();
    // The legacy default stream (handle 0): not owned.
    static Stream defaultStream() noexcept { return Stream(nullptr, false); }

    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream();

    CUstream handle() const noexcept { return handle_; }
    void synchronize() const;
    // True when all work queued so far has finished.
    bool idle() const;

private:
    Stream(CUstream handle, bool owned) noexcept : handle_(handle), owned_(owned) {}
    CUstream handle_ = nullptr;
    bool owned_ = false;
};

} // namespace kp::cuda
