// What each kernel costs the GPU as ptxas reports it when compiling for a real architecture (NVRTC with
// -Xptxas=-v): registers, stack, static shared memory and spills. Known without a GPU, so the
// compiled-code view shows them on any machine with NVRTC.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kp::cuda {

struct KernelResources {
    std::string name;        // the kernel's symbol ("_Z5scalePfi", or its own name for extern "C")
    std::string displayName; // demangled ("scale(float*, int)")
    int registers = 0;       // per thread
    int stackBytes = 0;      // per thread: the stack frame
    int sharedBytes = 0;     // per block: static __shared__ memory
    int spillStoreBytes = 0;
    int spillLoadBytes = 0;
    int constBytes = -1; // constant memory ptxas says it uses (cmem); -1 when it does not say
    int barriers = 0;

    bool operator==(const KernelResources&) const = default;

    // Reads ptxas's verbose log ("Compiling entry function ...", "Used 12 registers, ..."); lines it does
    // not know are skipped, and a kernel it names without figures is listed with zeros. Device functions
    // compiled separately (__noinline__) get their own "Function properties" lines; they are not kernels
    // and are left out.
    static std::vector<KernelResources> fromPtxasLog(std::string_view log);

    nlohmann::json toJson() const;
    // Throws InputError naming what is missing or of the wrong type.
    static KernelResources fromJson(const nlohmann::json& json);
};

// "scale(float*, int)" for "_Z5scalePfi"; a name that is not mangled comes back as it is.
std::string demangle(const std::string& symbol);

} // namespace kp::cuda
