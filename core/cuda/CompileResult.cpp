#include "CompileResult.h"

namespace kp::cuda {

const char* cacheHitName(CompileResult::CacheHit hit) {
    switch (hit) {
    case CompileResult::CacheHit::None:
        return "none";
    case CompileResult::CacheHit::Memory:
        return "memory";
    case CompileResult::CacheHit::Disk:
        return "disk";
    }
    return "none";
}

} // namespace kp::cuda
