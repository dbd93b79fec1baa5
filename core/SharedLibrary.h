// A dlopen'ed library, closed on destruction. Used by Driver and Nvrtc to load CUDA at run time (so
// that Kernelpad starts without it) and by the CPU backend to load compiled kernels.
#pragma once

#include <string>
#include <vector>

namespace kp {

class SharedLibrary {
public:
    SharedLibrary() = default;
    // Tries each candidate in order; on failure, error() lists what every attempt said.
    static SharedLibrary openFirst(const std::vector<std::string>& candidates);

    SharedLibrary(SharedLibrary&& other) noexcept;
    SharedLibrary& operator=(SharedLibrary&& other) noexcept;
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;
    ~SharedLibrary();

    bool isOpen() const noexcept { return handle_ != nullptr; }
    const std::string& path() const noexcept { return path_; }
    const std::string& error() const noexcept { return error_; }
    // The symbol's address, or nullptr when the library lacks it.
    void* symbol(const char* name) const noexcept;

private:
    void* handle_ = nullptr;
    std::string path_;
    std::string error_;
};

} // namespace kp
