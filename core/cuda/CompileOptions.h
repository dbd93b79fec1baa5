// What a kernel is compiled with: the target architecture and the NVRTC options a playground's "compile"
// section or `kernelpad-cli compile` asks for. The Compiler turns it into NVRTC flags; the compile
// cache hashes every field, so a field added here must also go into Compiler's cache key.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kp::cuda {

struct CompileOptions {
    // "sm_90": CUBIN and PTX; "compute_90": PTX only, which the driver JIT-compiles at load time.
    // Empty: chosen from device `device` (see Compiler::defaultArch).
    std::string arch;
    int device = 0;
    std::string standard = "c++17"; // NVRTC's -std
    std::vector<std::string> includeDirs;
    std::map<std::string, std::string> defines; // -DNAME=VALUE, or -DNAME when the value is empty
    bool lineInfo = false;                      // -lineinfo, for profilers and the source view
    bool fastMath = false;                      // -use_fast_math
    // Passed to NVRTC as they are, after the ones above. An architecture (-arch, --gpu-architecture) or a
    // -std given here takes the place of `arch` or `standard`.
    std::vector<std::string> extraOptions;
    // C++ names to look up after the compile ("scale<float>", "ns::kernel"): templates must be named
    // here to be instantiated, and overloaded or namespaced kernels need their mangled names.
    std::vector<std::string> nameExpressions;

    bool operator==(const CompileOptions&) const = default;
};

} // namespace kp::cuda
