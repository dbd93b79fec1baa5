// Exceptions for CUDA driver and NVRTC failures. Every non-success result code in core/cuda becomes
// one of these, naming the API call, the error's symbolic name and its text.
#pragma once

#include "core/Error.h"

#include <string>

namespace kp::cuda {

// The CUDA backend cannot be used here (no driver, no device, no NVRTC); what() says why in words.
class Unavailable : public Error {
public:
    using Error::Error;
};

class CudaError : public Error {
public:
    CudaError(std::string call, int code, std::string name, const std::string& message);

    const std::string& call() const noexcept { return call_; }
    int code() const noexcept { return code_; }
    const std::string& name() const noexcept { return name_; }
    // True for errors that poison CUDA in this process (illegal address, misaligned access, a kernel
    // trap...): every later call fails, and cuDevicePrimaryCtxReset does not bring it back (measured on
    // driver 580: the next retain returns the same error). Only a new process can use the GPU again,
    // which is why runs happen in a worker process that the app restarts.
    bool sticky() const noexcept;
    bool outOfMemory() const noexcept;

private:
    std::string call_;
    int code_;
    std::string name_;
};

class NvrtcError : public Error {
public:
    NvrtcError(std::string call, int code, const std::string& name);

    const std::string& call() const noexcept { return call_; }
    int code() const noexcept { return code_; }

private:
    std::string call_;
    int code_;
};

// Checks a CUresult; throws CudaError naming `call` unless it is CUDA_SUCCESS.
void check(int result, const char* call);

} // namespace kp::cuda
