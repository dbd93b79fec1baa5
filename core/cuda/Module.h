// Compiled code loaded into the current context (PyCUDA's SourceModule after compilation): a CUBIN or
// a PTX image. Kernels and globals are looked up by name; they are valid while the Module lives.
#pragma once

#include "Kernel.h"

#include <cstddef>
#include <cuda.h>
#include <string>
#include <string_view>

namespace kp::cuda {

class Module {
public:
    // `image` is a CUBIN, a fatbin, or PTX text (with or without its terminating NUL).
    static Module fromImage(std::string_view image);

    Module(Module&& other) noexcept;
    Module& operator=(Module&& other) noexcept;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    ~Module();

    CUmodule handle() const noexcept { return handle_; }
    // The kernel with this (lowered, for C++ names) name; throws CudaError naming it if absent.
    Kernel kernel(const std::string& name) const;
    struct Global {
        CUdeviceptr address = 0;
        std::size_t bytes = 0;
    };
    Global global(const std::string& name) const;

private:
    explicit Module(CUmodule handle) : handle_(handle) {}
    CUmodule handle_ = nullptr;
};

} // namespace kp::cuda
