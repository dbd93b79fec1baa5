// Shared by the GPU test suites: skip with the reason where there is no usable CUDA device, and build
// a Module from source through the real Compiler.
#pragma once

#include "core/cuda/Compiler.h"
#include "core/cuda/Context.h"
#include "core/cuda/Device.h"
#include "core/cuda/Driver.h"
#include "core/cuda/Module.h"
#include "core/cuda/Nvrtc.h"

#include <QTest>
#include <string>

namespace kp::test {

// The text QSKIP shows when CUDA cannot run here, empty when it can.
inline const char* gpuSkipReason() {
    static const std::string reason = [] {
        if (!cuda::Driver::available()) return "needs a CUDA GPU: " + cuda::Driver::unavailableReason();
        if (cuda::Device::count() == 0) return std::string("needs a CUDA GPU: the driver reports no device");
        if (!cuda::Nvrtc::available()) return "needs NVRTC: " + cuda::Nvrtc::unavailableReason();
        return std::string();
    }();
    return reason.empty() ? nullptr : reason.c_str();
}

#define KP_REQUIRE_GPU()                                                                                     \
    do {                                                                                                     \
        if (const char* why = ::kp::test::gpuSkipReason()) QSKIP(why);                                       \
    } while (0)

// Compiles `source` for the current device without touching the user's cache, and loads it.
inline cuda::Module loadModule(const std::string& source, const cuda::CompileOptions& options = {}) {
    const cuda::Compiler compiler(nullptr);
    const auto result = compiler.compile(source, "test.cu", options);
    if (!result.ok) throw std::runtime_error("test kernel did not compile:\n" + result.log);
    if (!result.cubin.empty())
        return cuda::Module::fromImage(
            {reinterpret_cast<const char*>(result.cubin.data()), result.cubin.size()});
    return cuda::Module::fromImage(result.ptx);
}

} // namespace kp::test
