// The root of every exception Kernelpad's core throws. Boundaries (CLI main, worker, GUI actions)
// catch kp::Error and show what() to a person; subclasses carry the details a caller can act on.
#pragma once

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>

namespace kp {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A file, argument or configuration given to the core is wrong; the message says where and why.
class InputError : public Error {
public:
    using Error::Error;
};

// An operating-system call failed (open, mmap, dlopen, ...): names the call and errno's text.
class SystemError : public Error {
public:
    SystemError(const std::string& call, int errnoValue, const std::string& context = {});
    int errnoValue() const noexcept { return errno_; }

private:
    int errno_;
};

// Host memory ran out. A std::bad_alloc, so that every boundary's handler for one (the worker, the CLI,
// a sweep's row) catches it too, saying how much was asked for.
class OutOfHostMemory : public std::bad_alloc {
public:
    explicit OutOfHostMemory(std::size_t bytes);
    const char* what() const noexcept override { return message_.c_str(); }

private:
    std::string message_;
};

} // namespace kp
