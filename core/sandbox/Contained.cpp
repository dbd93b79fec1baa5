#include "Contained.h"

#include "core/CacheFolder.h"
#include "core/Error.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <optional>
#include <poll.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

namespace kp::sandbox {

namespace fs = std::filesystem;

namespace {

// The child's messages on the pipe: a nonce the parent drew before fork, one of these kinds, and for an
// answer its length and bytes. A kernel that writes into its file descriptors (a forged worker frame,
// garbage) puts bytes on the pipe too: the parent takes the last message that carries the nonce.
constexpr char kAnswered = 'A';
constexpr char kOverflowed = 'S';
constexpr char kSetupFailed = 'E';
constexpr std::size_t kNonceBytes = 16;
constexpr int kAnswerFd = 3;
char nonce[kNonceBytes];
bool inChild = false; // set in the contained child, before its body runs
// The child's answer is written once: by the body's end or by answerNow, whichever comes first; the other
// waits for the first to end the process.
std::atomic<bool> answering{false};
constexpr std::size_t kAlternateStackBytes = 64 * 1024;
// A fault this close to the stack pointer is the stack running out, not a stray pointer.
constexpr std::uintptr_t kOverflowReach = 256 * 1024;

std::uintptr_t stackPointer(const void* context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return static_cast<std::uintptr_t>(uc->uc_mcontext.sp);
#else
    (void)uc;
    return 0;
#endif
}

void onFault(int signal, siginfo_t* info, void* context) {
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    const std::uintptr_t sp = stackPointer(context);
    const std::uintptr_t distance = address > sp ? address - sp : sp - address;
    if (sp != 0 && distance < kOverflowReach) {
        char marker[kNonceBytes + 1];
        std::memcpy(marker, nonce, kNonceBytes);
        marker[kNonceBytes] = kOverflowed;
        (void)!::write(kAnswerFd, marker, sizeof marker);
        ::_exit(1);
    }
    // Any other fault: the default action, so that the parent sees the signal itself.
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

void installFaultHandlers() {
    struct sigaction action {};
    action.sa_sigaction = onFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGSEGV, &action, nullptr);
    ::sigaction(SIGBUS, &action, nullptr);
}

void writeAll(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) ::_exit(71);
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

// One message: nonce, kind, length (8 bytes), text.
std::string message(char kind, const std::string& text) {
    std::string out(nonce, kNonceBytes);
    out += kind;
    const std::uint64_t size = text.size();
    out.append(reinterpret_cast<const char*>(&size), sizeof size);
    out += text;
    return out;
}

struct Message {
    char kind = 0;
    std::string text;
};

// The last well-formed message with the nonce in what the child wrote, if any.
std::optional<Message> lastMessage(const std::string& received) {
    const std::string_view key(nonce, kNonceBytes);
    const std::string_view all(received);
    for (std::size_t at = all.rfind(key); at != std::string_view::npos;
         at = at == 0 ? std::string_view::npos : all.rfind(key, at - 1)) {
        const std::size_t kindAt = at + kNonceBytes;
        if (kindAt >= all.size()) continue;
        Message m{all[kindAt], {}};
        if (m.kind == kOverflowed) return m;
        std::uint64_t size = 0;
        if (kindAt + 1 + sizeof size > all.size()) continue;
        std::memcpy(&size, all.data() + kindAt + 1, sizeof size);
        if (size > all.size() - (kindAt + 1 + sizeof size)) continue;
        m.text = std::string(all.substr(kindAt + 1 + sizeof size, size));
        return m;
    }
    return std::nullopt;
}

[[noreturn]] void answerOnce(const std::string& text) {
    if (answering.exchange(true))
        for (;;)
            ::pause();
    writeAll(kAnswerFd, text.data(), text.size());
    ::_exit(0);
}

[[noreturn]] void childMain(const std::function<std::string(const std::atomic<bool>&)>& body,
                            const ContainedOptions& options, int answerFd, const std::atomic<bool>& cancel,
                            std::uint64_t addressSpace, pid_t parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(72); // the parent is already gone
    // The parent's handlers (the CLI's crash message) are not the child's: a signal ends it as itself.
    for (const int signal :
         {SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ, SIGPIPE, SIGTERM, SIGINT})
        ::signal(signal, SIG_DFL);
    if (!options.workingDirectory.empty() && ::chdir(options.workingDirectory.c_str()) != 0) ::_exit(73);
    if (options.confinement) {
        const char* step = "";
        if (const int error = options.confinement->apply(addressSpace, &step); error != 0) {
            const std::string text = message(kSetupFailed, std::string(step) + ": " + std::strerror(error));
            writeAll(answerFd, text.data(), text.size());
            ::_exit(74);
        }
    }
    // Only stdin, stdout, stderr and the answer stay open: the worker's socket to the app, the CUDA
    // driver's files and anything else the parent had are out of the kernel's reach.
    if (answerFd != kAnswerFd && (::dup2(answerFd, kAnswerFd) < 0)) ::_exit(75);
    ::close_range(kAnswerFd + 1, ~0u, 0);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // what the kernel printed survives a crash, line by line
    prepareThreadForOverflow();
    installFaultHandlers();
    inChild = true;
    std::string answer;
    try {
        answer = body(cancel);
    } catch (...) {
        ::_exit(76); // the body reports its own errors in its answer; this is a bug of ours
    }
    std::fflush(nullptr);
    answerOnce(message(kAnswered, answer));
}

} // namespace

void answerNow(const std::string& answer) noexcept {
    if (!inChild) return;
    std::fflush(nullptr);
    try {
        answerOnce(message(kAnswered, answer));
    } catch (...) {
        ::_exit(76);
    }
}

namespace {

// What a signal that a limit sends means, in words.
std::string limitOf(int signal, const Confinement* confinement) {
    if (!confinement) return {};
    if (signal == SIGXCPU)
        return "its CPU time limit of " + std::to_string(confinement->limits().cpuSeconds) + " s";
    if (signal == SIGXFSZ)
        return "its file size limit of " + std::to_string(confinement->limits().fileBytes >> 20) + " MiB";
    return {};
}

} // namespace

void prepareThreadForOverflow() noexcept {
    thread_local void* alternate = nullptr;
    if (alternate) return;
    alternate =
        ::mmap(nullptr, kAlternateStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alternate == MAP_FAILED) {
        alternate = nullptr;
        return;
    }
    stack_t stack{};
    stack.ss_sp = alternate;
    stack.ss_size = kAlternateStackBytes;
    ::sigaltstack(&stack, nullptr);
}

std::string signalName(int signal) {
    const char* description = ::strsignal(signal);
    const char* abbreviation = ::sigabbrev_np(signal);
    std::string text = abbreviation ? std::string("SIG") + abbreviation : "signal " + std::to_string(signal);
    if (description) text += std::string(" (") + description + ")";
    return text;
}

ChildEnd runContained(const std::function<std::string(const std::atomic<bool>&)>& body,
                      const ContainedOptions& options) {
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) throw SystemError("pipe2", errno, "a contained run's answer");
    // The child's cancel flag lives in memory both see.
    void* page =
        ::mmap(nullptr, sizeof(std::atomic<bool>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        const int error = errno;
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        throw SystemError("mmap", error, "a contained run's cancel flag");
    }
    auto* cancel = new (page) std::atomic<bool>(false);
    struct Cleanup {
        int fds[2];
        void* page;
        ~Cleanup() {
            for (int fd : fds)
                if (fd >= 0) ::close(fd);
            ::munmap(page, sizeof(std::atomic<bool>));
        }
    } cleanup{{pipeFds[0], pipeFds[1]}, page};

    if (::getrandom(nonce, sizeof nonce, 0) != static_cast<ssize_t>(sizeof nonce))
        throw SystemError("getrandom", errno, "a contained run");
    const std::uint64_t addressSpace = options.confinement ? addressSpaceBytes() : 0;
    const pid_t parent = ::getpid();
    std::fflush(nullptr); // or the child would print what the parent had buffered a second time
    const pid_t pid = ::fork();
    if (pid < 0) throw SystemError("fork", errno, "a contained run");
    if (pid == 0) childMain(body, options, pipeFds[1], *cancel, addressSpace, parent);
    ::close(pipeFds[1]);
    cleanup.fds[1] = -1;

    std::string received;
    bool cancelled = false;
    auto cancelledAt = std::chrono::steady_clock::time_point{};
    for (bool open = true; open;) {
        pollfd p{pipeFds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, 20);
        if (ready < 0 && errno != EINTR) break;
        if (options.cancel && options.cancel->load() && !cancelled) {
            cancelled = true;
            cancelledAt = std::chrono::steady_clock::now();
            cancel->store(true);
        }
        if (cancelled && std::chrono::steady_clock::now() - cancelledAt > std::chrono::seconds(3)) {
            ::kill(pid, SIGKILL); // it does not look at its flag: a kernel that is still running
            break;
        }
        if (ready <= 0) continue;
        char chunk[65536];
        const ssize_t n = ::read(pipeFds[0], chunk, sizeof chunk);
        if (n > 0) received.append(chunk, static_cast<std::size_t>(n));
        if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) open = false;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }

    ChildEnd end;
    const auto last = lastMessage(received);
    if (last && last->kind == kSetupFailed && WIFEXITED(status) && WEXITSTATUS(status) == 74)
        throw Unavailable("the sandbox could not be set up for this run: " + last->text);
    if (last && last->kind == kAnswered && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        end.how = ChildEnd::How::Answered;
        end.answer = last->text;
        return end;
    }
    if (last && last->kind == kOverflowed) {
        end.how = ChildEnd::How::Signalled;
        end.signal = SIGSEGV;
        end.stackOverflow = true;
        return end;
    }
    if (cancelled) {
        end.how = ChildEnd::How::Cancelled;
        return end;
    }
    if (WIFSIGNALED(status)) {
        end.how = ChildEnd::How::Signalled;
        end.signal = WTERMSIG(status);
        end.limit = limitOf(end.signal, options.confinement);
        return end;
    }
    end.how = ChildEnd::How::Exited;
    end.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return end;
}

ScratchFolder::ScratchFolder(const fs::path& parent, const std::string& prefix) {
    std::error_code error;
    fs::create_directories(parent, error);
    if (error) throw SystemError("create_directories", error.value(), parent.string());
    removeAbandonedFolders(parent, prefix); // those of runs or compiles killed with their parent (--timeout)
    std::string pattern = (parent / (prefix + "-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw SystemError("mkdtemp", errno, pattern);
    path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
    std::error_code error;
    fs::remove_all(path_, error);
}

} // namespace kp::sandbox
