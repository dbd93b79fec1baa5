// The root of every exception Kernelpad's core throws. Boundaries (CLI main, worker, GUI actions)
// catch kp::Error and show what() to a person; subclasses carry the details a caller can act on.
#pragma once

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

} // namespace kp
