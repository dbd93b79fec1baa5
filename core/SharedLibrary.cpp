#include "SharedLibrary.h"

#include <dlfcn.h>
#include <utility>

namespace kp {

SharedLibrary SharedLibrary::openFirst(const std::vector<std::string>& candidates) {
    SharedLibrary lib;
    for (const auto& candidate : candidates) {
        if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            lib.handle_ = handle;
            lib.path_ = candidate;
            lib.error_.clear();
            return lib;
        }
        const char* why = dlerror();
        if (!lib.error_.empty()) lib.error_ += "; ";
        lib.error_ += why ? why : candidate + ": not found";
    }
    return lib;
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)),
      error_(std::move(other.error_)) {}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept {
    if (this != &other) {
        if (handle_) dlclose(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        path_ = std::move(other.path_);
        error_ = std::move(other.error_);
    }
    return *this;
}

SharedLibrary::~SharedLibrary() {
    if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const char* name) const noexcept {
    return handle_ ? dlsym(handle_, name) : nullptr;
}

} // namespace kp
