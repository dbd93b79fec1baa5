// What a playground's kernel compiles to, for the compiled-code view: the PTX NVRTC writes, the SASS
// nvdisasm reads out of the CUBIN (where the toolkit has nvdisasm), each line tied to its source line
// when compiled with -lineinfo, and the registers, stack, shared memory and spills of every kernel. The
// worker answers the app's "disassemble" requests with it; no GPU is needed, only NVRTC.
#pragma once

#include "core/cuda/CodeListing.h"
#include "core/cuda/CompileCache.h"
#include "core/cuda/KernelResources.h"
#include "core/launch/RunSetup.h"
#include "core/model/Diagnostic.h"
#include "core/model/Playground.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kp::run {

struct CompiledCode {
    std::string arch;       // the real architecture compiled for ("sm_90")
    bool lineInfo = false;  // compiled with -lineinfo: the listings know their source lines
    std::string sourceName; // the source as compiled ("kernel.cu", "<code>")
    std::string kernel;     // the playground's kernel as a symbol in the code ("_Z5scalePfi")
    cuda::CodeListing ptx;
    cuda::CodeListing sass;                     // empty when sassUnavailable says why
    std::string sassUnavailable;                // no nvdisasm here, or it failed: what to do about it
    std::vector<cuda::KernelResources> kernels; // in the order of the code
    std::vector<model::Diagnostic> diagnostics; // warnings of a source that compiled
    std::vector<int> supportedArchs; // NVRTC's real architectures (75, 80, ..., 120), to choose from
    std::string deviceArch;          // this machine's GPU's, as compiled for by default; empty without one
    double compileMs = 0;
    bool fromCache = false; // the compile was found in the compile cache
    double disassembleMs = 0;

    const cuda::KernelResources* resources(std::string_view kernelName) const;

    nlohmann::json toJson() const;
    // Throws InputError naming the member that is missing or of the wrong type.
    static CompiledCode fromJson(const nlohmann::json& json);
    bool operator==(const CompiledCode&) const = default;

    // The architecture compileCode uses when none is asked for: the GPU's own where there is one;
    // without one, sm_90 (or NVRTC's newest, if it cannot target sm_90), so that there is SASS to read.
    // Throws cuda::Unavailable without NVRTC.
    static std::string defaultArch();
};

// Compiles the playground's source for `arch` ("sm_86"; empty: CompiledCode::defaultArch) with ptxas's
// verbose report, and with -lineinfo when `lineInfo`; an architecture in the playground's own options
// gives way to `arch`. Throws launch::CompileError (diagnostics) when the source does not compile,
// launch::SetupError when the playground names no kernel of the source, InputError for an architecture NVRTC
// cannot compile for, cuda::Unavailable without NVRTC. A missing or failing nvdisasm is no exception:
// the result says why it has no SASS.
CompiledCode compileCode(const model::Playground& playground, const std::string& arch, bool lineInfo,
                         cuda::CompileCache* cache = &cuda::CompileCache::user());

// What a GPU's compiler says of the kernel `setup` holds, compiled by NVRTC for this machine's GPU (or
// the default architecture without one) and not run: its errors, each saying a GPU would not compile the
// code. The CPU backend compiles kernels that throw or call host-only functions; its inspection adds
// these, so that the editor shows what a GPU would refuse whatever the backend. Empty when NVRTC
// compiles the kernel, and where NVRTC is missing (the CPU compiler then speaks alone). A kernel NVRTC
// compiles is kept in `cache` (none: not kept), so that text checked before costs no compile.
std::vector<model::Diagnostic> gpuCompilerErrors(const launch::RunSetup& setup,
                                                 cuda::CompileCache* cache = &cuda::CompileCache::user());

} // namespace kp::run
