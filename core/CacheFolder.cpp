#include "CacheFolder.h"

#include "Error.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <pwd.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace kp {

namespace fs = std::filesystem;

namespace {

fs::path fromEnvironment(const char* name) {
    const char* value = std::getenv(name);
    return value && *value ? fs::path(value) : fs::path();
}

fs::path homeFromPasswordDatabase() {
    passwd entry{};
    passwd* found = nullptr;
    std::vector<char> buffer(16384);
    if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || !found ||
        !found->pw_dir || !*found->pw_dir)
        return {};
    return found->pw_dir;
}

// A folder in the shared temporary folder: made private, and refused when it is not ours alone (another
// user could otherwise plant compiled code for us to load).
fs::path privateTemporary() {
    fs::path folder = fs::temp_directory_path() / ("kernelpad-" + std::to_string(::getuid()));
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        throw SystemError("mkdir", errno, folder.string());
    struct stat info {};
    if (::lstat(folder.c_str(), &info) != 0) throw SystemError("lstat", errno, folder.string());
    if (!S_ISDIR(info.st_mode) || info.st_uid != ::getuid() || (info.st_mode & 077) != 0)
        throw SystemError(
            "lstat", EPERM,
            folder.string() +
                " is not a private folder of this user: Kernelpad will not keep compiled code there. Set "
                "KERNELPAD_CACHE_DIR to a folder of yours");
    return folder;
}

} // namespace

fs::path userCacheFolder() {
    if (auto root = fromEnvironment("KERNELPAD_CACHE_DIR"); !root.empty()) return root;
    if (auto xdg = fromEnvironment("XDG_CACHE_HOME"); !xdg.empty()) return xdg / "kernelpad";
    if (auto home = fromEnvironment("HOME"); !home.empty()) return home / ".cache" / "kernelpad";
    if (auto home = homeFromPasswordDatabase(); !home.empty()) return home / ".cache" / "kernelpad";
    return privateTemporary();
}

void removeAbandonedFolders(const fs::path& parent, const std::string& prefix) {
    static std::mutex mutex;
    static std::set<std::pair<fs::path, std::string>> swept;
    const std::lock_guard lock(mutex);
    if (!swept.emplace(parent, prefix).second) return;
    const std::string start = prefix + "-";
    std::error_code error;
    for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (!name.starts_with(start)) continue;
        const pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + start.size()));
        if (pid <= 0 || (pid != ::getpid() && processIsGone(pid))) {
            std::error_code ignored;
            fs::remove_all(it->path(), ignored);
        }
    }
}

bool processIsGone(pid_t pid) {
    return ::kill(pid, 0) != 0 && errno == ESRCH;
}

} // namespace kp
