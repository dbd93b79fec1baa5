#include "Subprocess.h"

#include "core/Error.h"
#include "core/sandbox/Confinement.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace kp::sandbox {

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

// Everything the children need, made before fork: after it, in a threaded program, they may only make
// system calls.
struct Prepared {
    std::vector<std::string> strings;
    std::vector<char*> argv;
    std::vector<std::string> environment;
    std::vector<char*> envp;
    std::string program; // as found on PATH
};

Prepared prepare(const std::vector<std::string>& argv, const ProcessOptions& options) {
    Prepared p;
    p.program = findProgram(argv[0]);
    if (p.program.empty()) throw SystemError("execve", ENOENT, "starting " + argv[0]);
    p.strings = argv;
    for (auto& s : p.strings)
        p.argv.push_back(s.data());
    p.argv.push_back(nullptr);
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('='));
        bool replaced = false;
        for (const auto& extra : options.environment)
            replaced = replaced || extra.substr(0, extra.find('=')) == name;
        if (!replaced) p.environment.push_back(entry);
    }
    p.environment.insert(p.environment.end(), options.environment.begin(), options.environment.end());
    for (auto& s : p.environment)
        p.envp.push_back(s.data());
    p.envp.push_back(nullptr);
    return p;
}

// The supervisor ends its whole group (itself, the program and whatever the program started) when it
// is told to stop or its parent dies.
void endGroup(int) {
    ::kill(0, SIGKILL);
}

// The program is a fresh exec: its memory limit counts from zero.
[[noreturn]] void program(const Prepared& p, const ProcessOptions& options, int output) {
    ::signal(SIGTERM, SIG_DFL);
    const int input = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (input < 0 || ::dup2(input, STDIN_FILENO) < 0 || ::dup2(output, STDOUT_FILENO) < 0 ||
        ::dup2(output, STDERR_FILENO) < 0)
        ::_exit(126);
    if (!options.workingDirectory.empty() && ::chdir(options.workingDirectory.c_str()) != 0) ::_exit(126);
    if (sandbox::applyLimits(options.limits, 0) != 0) ::_exit(126);
    if (options.confinement) {
        const char* step = "";
        if (const int error = options.confinement->apply(0, &step); error != 0) {
            const char* text = "kernelpad: the sandbox could not be set up: ";
            (void)!::write(STDERR_FILENO, text, std::strlen(text));
            (void)!::write(STDERR_FILENO, step, std::strlen(step));
            (void)!::write(STDERR_FILENO, "\n", 1);
            ::_exit(125);
        }
    }
    ::execve(p.program.c_str(), p.argv.data(), p.envp.data());
    ::_exit(127);
}

[[noreturn]] void supervise(const Prepared& p, const ProcessOptions& options, int output, pid_t parent) {
    ::setpgid(0, 0);
    struct sigaction stop {};
    stop.sa_handler = endGroup;
    ::sigaction(SIGTERM, &stop, nullptr);
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) endGroup(0);
    const pid_t child = ::fork();
    if (child < 0) ::_exit(126);
    if (child == 0) program(p, options, output);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) ::_exit(WEXITSTATUS(status));
    // Ended by a signal: the supervisor ends by the same one, so the caller sees what the program saw.
    const int signal = WTERMSIG(status);
    ::signal(signal, SIG_DFL);
    ::prctl(PR_SET_PDEATHSIG, 0);
    ::kill(::getpid(), signal);
    ::_exit(128 + signal);
}

} // namespace

std::string findProgram(const std::string& name) {
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char* path = std::getenv("PATH");
    const std::string dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= dirs.size();) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        std::string candidate = (end > start ? dirs.substr(start, end - start) : ".") + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return {};
}

SubprocessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory) {
    ProcessOptions options;
    options.workingDirectory = workingDirectory;
    return runProcess(argv, options);
}

SubprocessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options) {
    if (argv.empty()) throw InputError("runProcess: no program given");
    const Prepared prepared = prepare(argv, options);
    Pipe out;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw SystemError("fork", errno, "starting " + argv[0]);
    if (pid == 0) supervise(prepared, options, out.fds[1], parent);
    ::setpgid(pid, pid); // as the supervisor does itself: whichever runs first, the group exists
    out.closeEnd(1);

    SubprocessResult result;
    const auto started = std::chrono::steady_clock::now();
    for (;;) {
        pollfd p{out.fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, 50);
        if (ready < 0 && errno != EINTR) break;
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (options.timeLimitSeconds > 0 && elapsed > options.timeLimitSeconds) {
            result.timedOut = true;
            break;
        }
        if (options.cancel && options.cancel->load()) {
            result.cancelled = true;
            break;
        }
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::read(out.fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        const std::size_t room =
            options.maxOutputBytes - std::min(options.maxOutputBytes, result.output.size());
        result.output.append(buffer, std::min(room, static_cast<std::size_t>(n)));
    }
    // Whatever is left of the group goes: a timed-out or cancelled program, or anything it started.
    ::kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw SystemError("waitpid", errno, argv[0]);
    }
    if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
}

} // namespace kp::sandbox
