#include "OutputFolder.h"

#include "core/CacheFolder.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace kp::cli {

namespace {

namespace fs = std::filesystem;

// Where the set goes: absolute, without a trailing separator, and through a symbolic link to the folder
// it names (the link stays; the folder it points to is replaced).
struct Target {
    std::string given; // as the user wrote it, for messages
    fs::path folder;
    fs::path parent;
    std::string name;
};

std::string quoted(const fs::path& path) {
    return "\"" + path.string() + "\"";
}

Target resolve(const fs::path& given) {
    Target target{given.string(), {}, {}, {}};
    std::error_code error;
    fs::path folder = fs::absolute(given, error).lexically_normal();
    if (error) throw InputError("--out " + target.given + ": " + error.message());
    if (!folder.has_filename()) folder = folder.parent_path(); // "out/" and "out/." name "out"
    if (fs::is_symlink(fs::symlink_status(folder, error))) {
        folder = fs::canonical(folder, error);
        if (error)
            throw InputError("--out " + target.given + ": a link to a folder that is not there (" +
                             error.message() + ")");
    }
    target.folder = folder;
    target.parent = folder.parent_path();
    target.name = folder.filename().string();
    return target;
}

bool isSetFile(const fs::directory_entry& entry) {
    std::error_code error;
    if (!fs::is_regular_file(entry.symlink_status(error))) return false;
    const std::string name = entry.path().filename().string();
    return name == "timings.json" || (name.size() > 4 && name.ends_with(".npy") && name.front() != '.');
}

// `folder` or one of the folders above it is where this process (and so the shell that started it) is.
bool holdsTheCurrentFolder(const fs::path& folder) {
    std::error_code error;
    const fs::path here = fs::current_path(error);
    const fs::path real = fs::canonical(folder, error);
    if (error || here.empty()) return false;
    return std::mismatch(real.begin(), real.end(), here.begin(), here.end()).first == real.end();
}

void requireOnlyASet(const Target& target) {
    std::vector<std::string> others;
    std::size_t count = 0;
    std::error_code error;
    for (fs::directory_iterator it(target.folder, error), end; !error && it != end; it.increment(error)) {
        if (isSetFile(*it)) continue;
        if (others.size() < 3) others.push_back(quoted(it->path().filename()));
        ++count;
    }
    if (error)
        throw InputError("--out " + target.given + ": cannot list the folder's files: " + error.message());
    if (count == 0) return;
    std::string names;
    for (const auto& name : others)
        names += (names.empty() ? "" : ", ") + name;
    if (count > others.size()) names += " and " + std::to_string(count - others.size()) + " more";
    throw InputError(
        "--out " + target.given + ": the folder holds " + names +
        ", which a run does not write; --out replaces the whole folder with the run's NAME.npy files "
        "and timings.json, so name a new or empty folder, or one that an earlier run wrote");
}

void require(const Target& target) {
    std::error_code error;
    const fs::file_status status = fs::status(target.folder, error);
    if (status.type() == fs::file_type::not_found) return;
    if (error) throw InputError("--out " + target.given + ": " + error.message());
    if (status.type() != fs::file_type::directory)
        throw InputError("--out " + target.given +
                         ": this is a file, not a folder; name a folder for the run's files");
    if (holdsTheCurrentFolder(target.folder))
        throw InputError(
            "--out " + target.given +
            ": the current folder (or one above it) cannot be replaced; name a folder for the run's "
            "files, e.g. --out results");
    requireOnlyASet(target);
}

// Flushes a folder's entries (the files renamed into it, the folder renamed) to disk.
void syncFolder(const fs::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw SystemError("open", errno, folder.string());
    const int synced = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (synced != 0) throw SystemError("fsync", error, folder.string());
}

// Puts `staging` in `target.folder`'s place; returns where the earlier set now is (empty: there was none).
fs::path swapIn(const Target& target, const fs::path& staging) {
    // rename() replaces a missing or empty folder; a folder with files needs an exchange.
    if (::rename(staging.c_str(), target.folder.c_str()) == 0) return {};
    if (errno != ENOTEMPTY && errno != EEXIST)
        throw SystemError("rename", errno, staging.string() + " to " + target.folder.string());
    require(target); // again: files may have come since the run started
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.folder.c_str(), RENAME_EXCHANGE) == 0)
        return staging;
    if (errno != EINVAL && errno != ENOSYS)
        throw SystemError("renameat2 (RENAME_EXCHANGE)", errno,
                          staging.string() + " and " + target.folder.string());
    // A file system that cannot exchange: the earlier set goes aside first, so for a moment there is no
    // folder, but never a mixed one.
    fs::path aside = target.parent / ("." + target.name + ".kpold." + std::to_string(::getpid()));
    if (::rename(target.folder.c_str(), aside.c_str()) != 0)
        throw SystemError("rename", errno, target.folder.string() + " to " + aside.string());
    if (::rename(staging.c_str(), target.folder.c_str()) != 0) {
        const int error = errno;
        ::rename(aside.c_str(), target.folder.c_str());
        throw SystemError("rename", error, staging.string() + " to " + target.folder.string());
    }
    return aside;
}

// The hidden folder a run writes its set into, named after its process.
fs::path stagingOf(const Target& target, pid_t pid) {
    return target.parent / ("." + target.name + ".kptmp." + std::to_string(pid));
}

// A run killed while it wrote (the --timeout watchdog, kill -9) leaves its hidden folder behind: removes
// those of this DIR whose process is gone. A running one's is left alone.
void removeAbandonedStaging(const Target& target) {
    const std::string start = "." + target.name + ".kptmp.";
    std::error_code error;
    for (fs::directory_iterator it(target.parent, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (!name.starts_with(start) || name.size() == start.size()) continue;
        const std::string digits = name.substr(start.size());
        if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
        const pid_t pid = static_cast<pid_t>(std::atol(digits.c_str()));
        if (pid <= 0 || pid == ::getpid() || !processIsGone(pid)) continue;
        std::error_code ignored;
        fs::remove_all(it->path(), ignored);
    }
}

} // namespace

void requireReplaceable(const fs::path& folder) {
    require(resolve(folder));
}

void replaceFolder(const fs::path& folder, const std::function<void(const fs::path&)>& write) {
    const Target target = resolve(folder);
    std::error_code error;
    const bool existed = fs::exists(target.folder, error);
    const std::string kept =
        existed ? target.given + " keeps its earlier files" : "nothing was written to " + target.given;
    fs::create_directories(target.parent, error);
    if (error)
        throw OutputError("--out " + target.given + ": cannot create the folder " + quoted(target.parent) +
                          ": " + error.message());

    removeAbandonedStaging(target);
    const fs::path staging = stagingOf(target, ::getpid());
    fs::remove_all(staging, error); // a crashed run's, whose process had this one's id
    if (::mkdir(staging.c_str(), 0777) != 0)
        throw OutputError("--out " + target.given + ": cannot create the folder " + quoted(staging) +
                          " for the new files: " + std::strerror(errno) + "; " + kept);
    fs::path earlier;
    try {
        write(staging);
        syncFolder(staging);
        earlier = swapIn(target, staging);
    } catch (const InputError&) {
        fs::remove_all(staging, error);
        throw;
    } catch (const std::exception& e) {
        fs::remove_all(staging, error);
        throw OutputError("--out " + target.given + ": the run's files could not be written: " + e.what() +
                          "; " + kept);
    }
    try {
        syncFolder(target.parent);
    } catch (const SystemError& e) {
        std::cerr << "kernelpad-cli: warning: the new files are in " << target.given << ", but " << e.what()
                  << "\n";
    }
    if (earlier.empty()) return;
    fs::remove_all(earlier, error);
    if (error)
        std::cerr << "kernelpad-cli: warning: the new files are in " << target.given
                  << ", but the earlier ones could not "
                  << "be removed from " << quoted(earlier) << ": " << error.message() << "\n";
}

} // namespace kp::cli
