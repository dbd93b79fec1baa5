// libFuzzer entry point for io::parsePlayground: any bytes must either give a playground or throw
// kp::InputError (a PlaygroundError for a bad file), never crash, hang or trip a sanitizer. A playground
// that was read must survive serializePlayground and read back equal, as saving and reopening does.
#include "core/Error.h"
#include "core/io/PlaygroundFile.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace {
void require(bool condition) {
    if (!condition) std::abort();
}

// A folder that does not exist: path checks resolve against it without touching real files.
const std::filesystem::path kFile = "/nonexistent-kernelpad-fuzz/dir/fuzz.kpad.json";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    kp::model::Playground playground;
    try {
        playground = kp::io::parsePlayground(text, kFile);
    } catch (const kp::io::PlaygroundError& error) {
        require(!error.problems().empty());
        for (const auto& problem : error.problems())
            require(!problem.empty());
        return 0;
    } catch (const kp::InputError&) {
        return 0;
    }
    const std::string saved = kp::io::serializePlayground(playground);
    try {
        require(kp::io::parsePlayground(saved, kFile) == playground);
    } catch (const kp::Error&) {
        std::abort(); // what was read and written must read again
    }
    return 0;
}
