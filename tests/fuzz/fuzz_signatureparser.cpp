// libFuzzer entry point for parseKernels: any bytes must parse without a crash, a sanitizer report or
// a broken invariant (positions inside the input, named parameters, bounded problem list).
#include "core/model/SignatureParser.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {
void require(bool condition) {
    if (!condition) std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view source(reinterpret_cast<const char*>(data), size);
    const kp::model::ParseResult result = kp::model::parseKernels(source, "fuzz.cu");
    const auto lines = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
    for (const auto& kernel : result.kernels) {
        require(!kernel.name.empty() && kernel.line >= 1 && kernel.line <= lines && kernel.column >= 1);
        for (const auto& parameter : kernel.parameters) {
            require(!parameter.name.empty());
            require(parameter.line >= 0 && parameter.line <= lines);
            require(!parameter.dtype || parameter.typeText.find('&') == std::string::npos);
        }
        require(!kp::model::toString(kernel).empty());
    }
    require(result.problems.size() <= 101);
    for (const auto& problem : result.problems)
        require(problem.line >= 0 && problem.line <= lines && !problem.message.empty());
    require(kp::model::parseKernels(source, "fuzz.cu") == result);
    return 0;
}
