// What one compile produced: code, NVRTC's log, the diagnostics parsed from it and the mangled names of
// the requested kernels. The Compiler returns it, the CompileCache stores it, Module loads its code.
#pragma once

#include "core/model/Diagnostic.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace kp::cuda {

struct CompileResult {
    enum class CacheHit { None, Memory, Disk };

    // False when the source does not compile; `diagnostics` then says why. Never false for a result
    // that came from the cache: only successful compiles are stored.
    bool ok = false;
    std::string arch; // the architecture it was compiled for, after resolving an empty CompileOptions::arch
    std::string ptx;
    std::vector<std::byte> cubin; // empty when `arch` is a virtual architecture (compute_XY)
    std::string log;              // NVRTC's log as it wrote it
    std::vector<model::Diagnostic> diagnostics;
    std::map<std::string, std::string> loweredNames; // name expression -> mangled name, as in the PTX
    double milliseconds = 0;                         // time this compile() call took, cache lookup included
    CacheHit fromCache = CacheHit::None;
};

// "none", "memory", "disk". Not named toString: QTest would find it by ADL and free its static string.
const char* cacheHitName(CompileResult::CacheHit hit);

} // namespace kp::cuda
