// A kernel that crashed the device (illegal address, misaligned access, a trap or assert): reported with
// the kernel's name, for the CLI's exit code 4 and the app's "the worker restarts" message.
#pragma once

#include "core/Error.h"

namespace kp::launch {

class KernelFault : public Error {
public:
    using Error::Error;
};

} // namespace kp::launch
