#include "Module.h"

#include "Driver.h"

#include <utility>

namespace kp::cuda {

namespace {
bool looksLikePtx(std::string_view image) {
    // ELF (CUBIN) and fatbins begin with binary magic; PTX is text that starts with a comment or directive.
    return !image.empty() && (image.front() == '/' || image.front() == '.' || image.front() == '\n' ||
                              image.front() == ' ' || image.front() == '\t');
}
} // namespace

Module Module::fromImage(std::string_view image) {
    if (image.empty()) throw InputError("cannot load an empty module image");
    CUmodule handle = nullptr;
    if (looksLikePtx(image) && image.back() != '\0') {
        // The driver reads PTX as a C string.
        const std::string text(image);
        KP_CU(cuModuleLoadData, &handle, text.c_str());
    } else {
        KP_CU(cuModuleLoadData, &handle, image.data());
    }
    return Module(handle);
}

Module::Module(Module&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}

Module& Module::operator=(Module&& other) noexcept {
    if (this != &other) {
        if (handle_) (void)Driver::api().cuModuleUnload(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
}

Module::~Module() {
    // Unloading fails only when the context is already gone (reset after a fault, or process exit):
    // the module went with it, and a destructor has no one to tell.
    if (handle_) (void)Driver::api().cuModuleUnload(handle_);
}

Kernel Module::kernel(const std::string& name) const {
    CUfunction function = nullptr;
    try {
        KP_CU(cuModuleGetFunction, &function, handle_, name.c_str());
    } catch (const CudaError& e) {
        if (e.code() != CUDA_ERROR_NOT_FOUND) throw;
        throw CudaError(
            "cuModuleGetFunction(\"" + name + "\")", e.code(), e.name(),
            "no kernel of that name in the module; C++ kernels need extern \"C\" or a name expression");
    }
    return Kernel(function, name);
}

Module::Global Module::global(const std::string& name) const {
    Global g;
    KP_CU(cuModuleGetGlobal, &g.address, &g.bytes, handle_, name.c_str());
    return g;
}

} // namespace kp::cuda
