// Turns a CUBIN into SASS, the GPU's own instructions, with the CUDA toolkit's nvdisasm, for the
// compiled-code view. nvdisasm is a program of its own that not every toolkit installs: where it is
// missing, unavailableReason() says where it was looked for, and the PTX is shown without the SASS.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kp::cuda {

class Disassembler {
public:
    // The places nvdisasm is looked for, in order: $KERNELPAD_NVDISASM alone when it is set (tests, unusual
    // installs); else the bin folder of each of toolkitRoots(), then every folder of $PATH.
    static std::vector<std::filesystem::path> candidates();
    // The first candidate that is an executable file.
    static std::optional<std::filesystem::path> find();
    // "SASS needs nvdisasm, which this CUDA toolkit does not have (looked in ...)", for when find() finds
    // none.
    static std::string unavailableReason();

    explicit Disassembler(std::filesystem::path nvdisasm);
    const std::filesystem::path& program() const noexcept { return program_; }

    // nvdisasm's text for `cubin`: code sections only, with the source line of each instruction (and
    // where it was inlined) when the CUBIN was compiled with -lineinfo. Throws SystemError when the
    // temporary file cannot be written or nvdisasm cannot be started, Error with nvdisasm's own message
    // when it fails.
    // The text of a CUBIN disassembled before in this process is given again without running nvdisasm.
    std::string disassemble(std::span<const std::byte> cubin) const;

private:
    static constexpr std::size_t kMaxKept = 16; // texts kept, a few hundred kB each at most
    std::string run(std::span<const std::byte> cubin) const;

    std::filesystem::path program_;
};

} // namespace kp::cuda
