#include "FileBytes.h"

#include "core/Error.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace kp::io {

namespace {

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    FileDescriptor& operator=(FileDescriptor&&) = delete;
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const noexcept { return fd_; }
    // close() can report a delayed write error, so a writer must see its result.
    int release() noexcept { return std::exchange(fd_, -1); }

private:
    int fd_;
};

std::string temporaryName(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    return "." + target.filename().string() + ".kptmp." + std::to_string(::getpid()) + "." +
           std::to_string(counter.fetch_add(1));
}

void writeAll(int fd, std::span<const std::byte> bytes, const std::string& where) {
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd, bytes.data(), bytes.size());
        if (written < 0) {
            if (errno == EINTR) continue;
            throw SystemError("write", errno, where);
        }
        bytes = bytes.subspan(static_cast<std::size_t>(written));
    }
}

// Creates the temporary file, retrying on a name clash with a stale one from a crashed process.
std::pair<FileDescriptor, std::filesystem::path> createTemporary(const std::filesystem::path& target) {
    const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
    for (int attempt = 0;; ++attempt) {
        std::filesystem::path candidate = folder / temporaryName(target);
        const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return {FileDescriptor(fd), std::move(candidate)};
        if (errno != EEXIST || attempt == 100) throw SystemError("open", errno, candidate.string());
    }
}

} // namespace

std::vector<std::byte> readFileBytes(const std::filesystem::path& path) {
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (file.get() < 0) throw InputError("cannot open " + path.string() + ": " + std::strerror(errno));
    struct stat info {};
    if (::fstat(file.get(), &info) != 0) throw SystemError("fstat", errno, path.string());
    if (S_ISDIR(info.st_mode)) throw InputError(path.string() + " is a folder, not a file");

    std::vector<std::byte> bytes;
    if (S_ISREG(info.st_mode) && info.st_size > 0) bytes.reserve(static_cast<std::size_t>(info.st_size));
    std::byte chunk[65536];
    for (;;) {
        const ssize_t got = ::read(file.get(), chunk, sizeof chunk);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw SystemError("read", errno, path.string());
        }
        if (got == 0) return bytes;
        bytes.insert(bytes.end(), chunk, chunk + got);
    }
}

void writeFileAtomically(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    auto [file, temporary] = createTemporary(path);
    try {
        writeAll(file.get(), bytes, temporary.string());
        if (::fsync(file.get()) != 0) throw SystemError("fsync", errno, temporary.string());
        if (::close(file.release()) != 0) throw SystemError("close", errno, temporary.string());
        if (::rename(temporary.c_str(), path.c_str()) != 0)
            throw SystemError("rename", errno, temporary.string() + " to " + path.string());
    } catch (...) {
        ::unlink(temporary.c_str());
        throw;
    }
}

std::optional<std::string> readFileIfPresent(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    return content;
}

} // namespace kp::io
