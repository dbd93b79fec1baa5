// The primary context of one device, retained for this object's lifetime and made current on the
// calling thread. Every other CUDA object (modules, buffers, streams) lives inside one.
#pragma once

#include "Device.h"

#include <cuda.h>

namespace kp::cuda {

class Context {
public:
    // Retains the device's primary context and makes it current on this thread.
    explicit Context(const Device& device);
    Context(Context&& other) noexcept;
    Context& operator=(Context&& other) noexcept;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context();

    const Device& device() const noexcept { return device_; }
    CUcontext handle() const noexcept { return handle_; }
    // Makes this context current on the calling thread (each thread that uses it must).
    void makeCurrent() const;
    // Waits for all work in the context; a fault in an earlier kernel surfaces here as a CudaError.
    void synchronize() const;

private:
    void release() noexcept;
    Device device_;
    CUcontext handle_ = nullptr;
};

} // namespace kp::cuda
