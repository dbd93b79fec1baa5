#include "Subprocess.h"

#include "core/Error.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace kp::cpu {

namespace {

// Closes a pipe's ends that are still open, on every path.
struct Pipe {
    int fds[2] = {-1, -1};
    Pipe() {
        if (pipe2(fds, O_CLOEXEC) != 0) throw SystemError("pipe2", errno);
    }
    void closeEnd(int i) {
        if (fds[i] >= 0) close(fds[i]);
        fds[i] = -1;
    }
    ~Pipe() {
        closeEnd(0);
        closeEnd(1);
    }
};

struct SpawnActions {
    posix_spawn_file_actions_t actions;
    SpawnActions() { posix_spawn_file_actions_init(&actions); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
};

std::string readAll(int fd) {
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n > 0) {
            text.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            return text;
        }
    }
}

} // namespace

SubprocessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory) {
    if (argv.empty()) throw InputError("runProcess: no program given");
    Pipe out;
    SpawnActions spawn;
    posix_spawn_file_actions_adddup2(&spawn.actions, out.fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&spawn.actions, out.fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&spawn.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (!workingDirectory.empty()) posix_spawn_file_actions_addchdir_np(&spawn.actions, workingDirectory.c_str());

    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    if (const int err = posix_spawnp(&pid, args[0], &spawn.actions, nullptr, args.data(), environ); err != 0)
        throw SystemError("posix_spawnp", err, "starting " + argv[0]);
    out.closeEnd(1);

    SubprocessResult result;
    result.output = readAll(out.fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw SystemError("waitpid", errno, argv[0]);
    }
    if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
}

} // namespace kp::cpu
