#include "Error.h"

#include <cstring>

namespace kp {

namespace {
std::string describe(const std::string& call, int errnoValue, const std::string& context) {
    std::string text = call + " failed: " + std::strerror(errnoValue);
    if (!context.empty()) text += " (" + context + ")";
    return text;
}
} // namespace

SystemError::SystemError(const std::string& call, int errnoValue, const std::string& context)
    : Error(describe(call, errnoValue, context)), errno_(errnoValue) {}

OutOfHostMemory::OutOfHostMemory(std::size_t bytes)
    : message_("out of host memory: cannot allocate " + std::to_string(bytes) + " bytes") {}

} // namespace kp
