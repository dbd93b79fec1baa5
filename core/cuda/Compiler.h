// Compiles CUDA C++ source to PTX (and CUBIN for a real architecture) with NVRTC, for the CUDA runner
// (run/CudaRunner), the compiled-code view (run/CompiledCode) and `kernelpad-cli compile`. Needs NVRTC
// but no GPU. Unchanged inputs come from a CompileCache.
#pragma once

#include "CompileCache.h"
#include "CompileOptions.h"
#include "CompileResult.h"

#include <string>
#include <string_view>
#include <vector>

namespace kp::cuda {

class Compiler {
public:
    // Compiles through `cache`, which must outlive the Compiler; nullptr compiles every time.
    explicit Compiler(CompileCache* cache = &CompileCache::user());

    // `fileName` is the name diagnostics carry; quoted #includes are also looked up beside it.
    // A source that does not compile is not an exception: the result has ok == false and diagnostics.
    // Throws InputError when NVRTC rejects the options (its log says which), Unavailable when NVRTC
    // cannot be loaded or the device is too old for it, NvrtcError when any other NVRTC call fails.
    CompileResult compile(std::string_view source, const std::string& fileName,
                          const CompileOptions& options = {}) const;

    // The architecture an empty CompileOptions::arch means. With a usable device: sm_XY of the device, or
    // the nearest older one NVRTC supports in the same major version (binary compatible); when NVRTC
    // knows nothing as new, compute_XY of its newest, which the driver JIT-compiles. Without a device
    // (no driver, a CI machine): compute_XY of the oldest architecture NVRTC supports, so that the PTX
    // loads on any GPU this NVRTC can target.
    static std::string defaultArch(int device = 0);
    // NVRTC's supported real architectures as numbers (75, 80, ..., 120); throws Unavailable without it.
    static const std::vector<int>& supportedArchs();

    CompileCache* cache() const noexcept { return cache_; }

private:
    CompileResult compileWithNvrtc(std::string_view source, const std::string& fileName,
                                   const CompileOptions& options, const std::string& arch) const;

    CompileCache* cache_;
};

} // namespace kp::cuda
