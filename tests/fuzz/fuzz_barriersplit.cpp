// libFuzzer entry point for splitAtBarriers: every kernel the signature parser finds in any bytes is
// split or refused with a reason, never a crash or a sanitizer report; a split keeps everything before
// the kernel's name as it was and reports the barriers it found.
#include "core/cpu/BarrierSplit.h"
#include "core/model/SignatureParser.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {
void require(bool condition) {
    if (!condition) std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source(reinterpret_cast<const char*>(data), size);
    const auto parsed = kp::model::parseKernels(source, "fuzz.cu");
    for (const auto& kernel : parsed.kernels) {
        const auto split = kp::cpu::splitAtBarriers(source, kernel.line, kernel.column, {"fuzz.cu", false});
        require(split.split() == !split.source.empty());
        if (!split.split()) continue;
        require(split.barriers >= 0);
        require(split.computedActiveMasks >= 0 && split.computedActiveMasks <= split.warpOperations);
        require(split.gridStrideLoops >= 0);
        // (The kernel's own parameter list may change: a parameter the kernel writes is renamed there.)
        const auto brace = source.find('{', 0);
        const auto kept = std::min(brace, kp::cpu::offsetOf(source, kernel.line, kernel.column));
        require(brace != std::string::npos && split.source.compare(0, kept, source, 0, kept) == 0);
    }
    // Positions the parser never reports must not crash either.
    (void)kp::cpu::splitAtBarriers(source, 1, 1, {"fuzz.cu", true});
    (void)kp::cpu::splitAtBarriers(source, 1 << 20, 5, {"fuzz.cu", false});
    return 0;
}
