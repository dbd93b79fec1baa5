#include "FileBytes.h"

#include "core/Bytes.h"
#include "core/CacheFolder.h"
#include "core/Error.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace kp::io {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTemporaryMark = ".kptmp.";
constexpr std::time_t kStaleSeconds = 30 * 60;

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

// What a file that is not a regular one is, in a person's words.
std::string kindOf(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

InputError notRegular(const fs::path& path, mode_t mode, const std::string& verb) {
    return InputError("cannot " + verb + " " + path.string() + ": it is " + kindOf(mode) +
                      (S_ISDIR(mode) ? ", not a file" : ", not a regular file"));
}

InputError overLimit(const fs::path& path, std::uint64_t size, std::uint64_t limit, bool exact) {
    return InputError("cannot read " + path.string() + ": it is " + (exact ? "" : "more than ") +
                      humanBytes(static_cast<double>(size)) + ", and Kernelpad reads at most " +
                      humanBytes(static_cast<double>(limit)) + " from a file of this kind");
}

// Reads the regular file at `path` into `out` (bytes or chars), at most `limit` bytes.
template <typename Buffer> void readRegular(const fs::path& path, std::uint64_t limit, Buffer& out) {
    // O_NONBLOCK: opening a FIFO waits for a writer otherwise; regular files ignore the flag.
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (file.get() < 0) throw InputError("cannot open " + path.string() + ": " + std::strerror(errno));
    struct stat info {};
    if (::fstat(file.get(), &info) != 0) throw SystemError("fstat", errno, path.string());
    if (!S_ISREG(info.st_mode)) throw notRegular(path, info.st_mode, "read");
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > limit) throw overLimit(path, size, limit, true);
    out.resize(static_cast<std::size_t>(size));
    std::size_t got = 0;
    for (;;) {
        // One byte past the limit tells a file that grew since fstat from one that ends there.
        if (got == out.size()) {
            if (got > limit) throw overLimit(path, limit, limit, false);
            out.resize(std::min<std::uint64_t>(limit + 1, std::max<std::uint64_t>(got * 2, got + 65536)));
        }
        const ssize_t n = ::read(file.get(), out.data() + got, out.size() - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw SystemError("read", errno, path.string());
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    if (got > limit) throw overLimit(path, limit, limit, false);
    out.resize(got);
}

std::string temporaryName(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    return "." + target.filename().string() + std::string(kTemporaryMark) + std::to_string(::getpid()) + "." +
           std::to_string(counter.fetch_add(1));
}

// The process id in a temporary file's name, or 0 when the name is not one of ours.
pid_t temporaryOwner(std::string_view name) {
    if (name.empty() || name.front() != '.') return 0;
    const auto mark = name.rfind(kTemporaryMark);
    if (mark == std::string_view::npos) return 0;
    const std::string_view rest = name.substr(mark + kTemporaryMark.size());
    pid_t pid = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
    if (error != std::errc() || pid <= 0 || end == rest.data() + rest.size() || *end != '.') return 0;
    const std::string_view counter = rest.substr(static_cast<std::size_t>(end - rest.data()) + 1);
    unsigned number = 0;
    const auto [counterEnd, counterError] =
        std::from_chars(counter.data(), counter.data() + counter.size(), number);
    if (counterError != std::errc() || counter.empty() || counterEnd != counter.data() + counter.size())
        return 0;
    return pid;
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

// The file a write replaces: a symbolic link's target (followed to its end), else the path itself.
fs::path followLinks(fs::path path) {
    for (int hops = 0; hops < 40; ++hops) {
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return path;
        std::error_code error;
        const fs::path target = fs::read_symlink(path, error);
        if (error) throw SystemError("readlink", error.value(), path.string());
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    throw InputError("cannot write " + path.string() + ": too many levels of symbolic links");
}

fs::path folderOf(const fs::path& target) {
    return target.has_parent_path() ? target.parent_path() : ".";
}

// One file of a write on its way: its temporary is written before anything is renamed.
struct Pending {
    fs::path target;
    fs::path temporary;
    fs::path backup; // a second name for the old file while others are renamed; empty when none
    bool existed = false;
};

// Creates the temporary file, retrying on a name clash with a stale one from a crashed process.
FileDescriptor createTemporary(Pending& pending) {
    const fs::path folder = folderOf(pending.target);
    for (int attempt = 0;; ++attempt) {
        fs::path candidate = folder / temporaryName(pending.target);
        const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd >= 0) {
            pending.temporary = std::move(candidate);
            return FileDescriptor(fd);
        }
        if (errno != EEXIST || attempt == 100) throw SystemError("open", errno, candidate.string());
    }
}

void writeTemporary(Pending& pending, std::span<const std::byte> bytes) {
    struct stat old {};
    // rename() would replace a FIFO or a device node (/dev/null, as root) without a word; a folder it
    // refuses by itself (EISDIR, a SystemError naming rename), after the pair's other files are renamed.
    if (::stat(pending.target.c_str(), &old) == 0 && !S_ISDIR(old.st_mode)) {
        if (!S_ISREG(old.st_mode)) throw notRegular(pending.target, old.st_mode, "write");
        pending.existed = true;
    }
    FileDescriptor file = createTemporary(pending);
    const std::string where = pending.temporary.string();
    if (pending.existed) {
        // The replaced file's permissions (a 0600 file stays private) and owner; a process that may not
        // give a file away keeps it as its own, which is what saving a copy would do.
        if (::fchmod(file.get(), old.st_mode & 07777) != 0) throw SystemError("fchmod", errno, where);
        const bool sameOwner = old.st_uid == ::geteuid() && old.st_gid == ::getegid();
        if (!sameOwner && ::fchown(file.get(), old.st_uid, old.st_gid) != 0) {
            // Not allowed (only root gives files away): the copy is this user's, as any save would be.
        }
    }
    writeAll(file.get(), bytes, where);
    if (::fsync(file.get()) != 0) throw SystemError("fsync", errno, where);
    if (::close(file.release()) != 0) throw SystemError("close", errno, where);
}

// Puts back the files already renamed over (the old one from its backup, a new one removed) and removes
// every temporary and backup left.
void rollBack(std::vector<Pending>& pending, std::size_t renamed) noexcept {
    for (std::size_t i = 0; i < pending.size(); ++i) {
        auto& p = pending[i];
        if (i < renamed) {
            if (!p.backup.empty()) {
                if (::rename(p.backup.c_str(), p.target.c_str()) == 0) p.backup.clear();
            } else if (!p.existed) {
                ::unlink(p.target.c_str());
            }
        } else if (!p.temporary.empty()) {
            ::unlink(p.temporary.c_str());
        }
        if (!p.backup.empty()) ::unlink(p.backup.c_str());
    }
}

} // namespace

std::vector<std::byte> readFileBytes(const fs::path& path, std::uint64_t limit) {
    std::vector<std::byte> bytes;
    readRegular(path, limit, bytes);
    return bytes;
}

std::string readTextFile(const fs::path& path, std::uint64_t limit) {
    std::string text;
    readRegular(path, limit, text);
    return text;
}

std::optional<std::string> readFileIfPresent(const fs::path& path, std::uint64_t limit) {
    try {
        return readTextFile(path, limit);
    } catch (const Error&) {
        return std::nullopt;
    }
}

void writeFileAtomically(const fs::path& path, std::span<const std::byte> bytes) {
    const FileContent file{path, bytes};
    writeFilesAtomically(std::span(&file, 1));
}

void writeFilesAtomically(std::span<const FileContent> files) {
    std::vector<Pending> pending;
    pending.reserve(files.size());
    try {
        for (const auto& file : files) {
            pending.push_back({followLinks(file.path), {}, {}, false});
            removeStaleTemporaries(folderOf(pending.back().target));
            writeTemporary(pending.back(), file.bytes);
        }
    } catch (...) {
        rollBack(pending, 0);
        throw;
    }
    // A second name for each old file while the others are renamed, so a failed rename can put them back.
    // Where the filesystem has no hard links, a later failure cannot undo an earlier rename.
    if (pending.size() > 1)
        for (auto& p : pending) {
            if (!p.existed) continue;
            fs::path backup = folderOf(p.target) / temporaryName(p.target);
            if (::link(p.target.c_str(), backup.c_str()) == 0) p.backup = std::move(backup);
        }
    for (std::size_t i = 0; i < pending.size(); ++i) {
        if (::rename(pending[i].temporary.c_str(), pending[i].target.c_str()) == 0) continue;
        const int error = errno;
        const std::string what = pending[i].temporary.string() + " to " + pending[i].target.string();
        rollBack(pending, i);
        throw SystemError("rename", error, what);
    }
    for (const auto& p : pending)
        if (!p.backup.empty()) ::unlink(p.backup.c_str());
}

int removeStaleTemporaries(const fs::path& folder) {
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) return 0;
    int removed = 0;
    const std::time_t now = std::time(nullptr);
    while (const dirent* entry = ::readdir(dir)) {
        const pid_t owner = temporaryOwner(entry->d_name);
        if (owner == 0) continue;
        const fs::path path = folder / entry->d_name;
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
        const bool old = now - info.st_mtime > kStaleSeconds;
        // A live process's file is being written now, unless it is old: then its id was reused.
        if (!old && (owner == ::getpid() || !processIsGone(owner))) continue;
        if (::unlink(path.c_str()) == 0) ++removed;
    }
    ::closedir(dir);
    return removed;
}

} // namespace kp::io
