#include "Disassembler.h"

#include "Toolkit.h"
#include "core/Error.h"
#include "core/sandbox/Subprocess.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>
#include <unistd.h>
#include <xxhash.h>

namespace kp::cuda {

namespace {

namespace fs = std::filesystem;

// A CUBIN in a file of its own for nvdisasm, which reads only files; removed on every path.
class TemporaryFile {
public:
    explicit TemporaryFile(std::span<const std::byte> bytes) {
        std::error_code error;
        auto folder = fs::temp_directory_path(error);
        if (error) folder = "/tmp";
        std::string pattern = (folder / "kernelpad-XXXXXX.cubin").string();
        const int fd = ::mkstemps(pattern.data(), 6);
        if (fd < 0) throw SystemError("mkstemps", errno, pattern);
        path_ = pattern;
        std::size_t written = 0;
        while (written < bytes.size()) {
            const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                const int e = errno;
                ::close(fd);
                throw SystemError("write", e, path_.string());
            }
            written += static_cast<std::size_t>(n);
        }
        if (::close(fd) != 0) throw SystemError("close", errno, path_.string());
    }
    ~TemporaryFile() {
        std::error_code ignored; // a leftover temporary file is not worth failing for
        fs::remove(path_, ignored);
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    const fs::path& path() const noexcept { return path_; }

private:
    fs::path path_;
};

bool isExecutable(const fs::path& path) {
    std::error_code error;
    return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

} // namespace

std::vector<fs::path> Disassembler::candidates() {
    if (const auto chosen = environmentValue("KERNELPAD_NVDISASM"); !chosen.empty())
        return {fs::path(chosen)};
    std::vector<fs::path> folders;
    for (const auto& root : toolkitRoots())
        folders.push_back(root / "bin");
    for (auto& folder : folderList(environmentValue("PATH")))
        folders.push_back(std::move(folder));
    std::vector<fs::path> programs;
    for (const auto& folder : folders) {
        auto program = (folder / "nvdisasm").lexically_normal();
        if (std::find(programs.begin(), programs.end(), program) == programs.end())
            programs.push_back(std::move(program));
    }
    return programs;
}

std::optional<fs::path> Disassembler::find() {
    for (const auto& program : candidates())
        if (isExecutable(program)) return program;
    return std::nullopt;
}

std::string Disassembler::unavailableReason() {
    std::string places;
    for (const auto& program : candidates())
        places += (places.empty() ? "" : ", ") + program.parent_path().string();
    if (!environmentValue("KERNELPAD_NVDISASM").empty())
        return "SASS needs nvdisasm, and KERNELPAD_NVDISASM names " + environmentValue("KERNELPAD_NVDISASM") +
               ", which is not an executable file. The PTX is shown.";
    return "SASS needs nvdisasm, which this CUDA toolkit does not have (looked in " + places +
           "). Install the toolkit's nvdisasm (the cuda-nvdisasm package), or set CUDA_HOME or "
           "KERNELPAD_NVDISASM "
           "to where it is. The PTX is shown.";
}

Disassembler::Disassembler(fs::path nvdisasm) : program_(std::move(nvdisasm)) {}

std::string Disassembler::disassemble(std::span<const std::byte> cubin) const {
    // nvdisasm takes most of a second to start on a large toolkit, and the view asks again for the same
    // CUBIN (a refresh, another tab, a compile-cache hit): the text of the last few is kept. The program
    // is part of the key, so another nvdisasm is asked again.
    static std::mutex mutex;
    static std::map<std::pair<std::string, XXH64_hash_t>, std::string> kept;
    const auto key = std::pair{program_.string(), XXH3_64bits(cubin.data(), cubin.size())};
    {
        const std::scoped_lock lock(mutex);
        if (const auto it = kept.find(key); it != kept.end()) return it->second;
    }
    std::string text = run(cubin);
    const std::scoped_lock lock(mutex);
    if (kept.size() >= kMaxKept) kept.clear();
    kept.emplace(key, text);
    return text;
}

std::string Disassembler::run(std::span<const std::byte> cubin) const {
    const TemporaryFile file(cubin);
    // -c: the code alone, not the ELF's other sections; -gi: source lines with the places code was inlined.
    const auto result = sandbox::runProcess({program_.string(), "-c", "-gi", file.path().string()});
    if (result.exitCode == 0) return result.output;
    std::string output = result.output;
    while (!output.empty() && (output.back() == '\n' || output.back() == ' '))
        output.pop_back();
    const std::string how = result.signal ? "was killed by signal " + std::to_string(result.signal)
                                          : "failed (exit status " + std::to_string(result.exitCode) + ")";
    throw Error(program_.string() + " " + how + " disassembling the CUBIN" +
                (output.empty() ? "" : ": " + output));
}

} // namespace kp::cuda
