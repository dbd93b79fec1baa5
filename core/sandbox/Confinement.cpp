#include "Confinement.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace kp::sandbox {

namespace {

// Landlock's interface (linux/landlock.h), spelled out here for the ABIs Debian 12's headers predate.
constexpr unsigned kCreateRulesetVersion = 1u << 0;
constexpr int kRulePathBeneath = 1;
struct RulesetAttr {
    std::uint64_t handledAccessFs;
    std::uint64_t handledAccessNet; // ABI 4
    std::uint64_t scoped;           // ABI 6
};
struct __attribute__((packed)) PathBeneathAttr {
    std::uint64_t allowedAccess;
    std::int32_t parentFd;
};
constexpr std::uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2,
                        kReadDir = 1ull << 3;
constexpr std::uint64_t kAbi1Fs = (1ull << 13) - 1;                               // execute .. make_sym
constexpr std::uint64_t kRefer = 1ull << 13;                                      // ABI 2
constexpr std::uint64_t kTruncate = 1ull << 14;                                   // ABI 3
constexpr std::uint64_t kIoctlDev = 1ull << 15;                                   // ABI 5
constexpr std::uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;      // ABI 4
constexpr std::uint64_t kScopeAbstractUnix = 1ull << 0, kScopeSignal = 1ull << 1; // ABI 6
// The rights that make sense on a file rather than a folder.
constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

int landlockAbi() noexcept {
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
    return abi < 0 ? 0 : static_cast<int>(abi);
}

std::uint64_t handledFs(int abi) {
    std::uint64_t access = kAbi1Fs;
    if (abi >= 2) access |= kRefer;
    if (abi >= 3) access |= kTruncate;
    if (abi >= 5) access |= kIoctlDev;
    return access;
}

Support probe() {
    Support s;
    if (const char* simulated = std::getenv("KERNELPAD_TEST_NO_SANDBOX"); simulated && *simulated) {
        s.reason = std::string("the sandbox was turned off for a test (KERNELPAD_TEST_NO_SANDBOX=") +
                   simulated + ")";
        return s;
    }
    s.landlockAbi = landlockAbi();
    if (s.landlockAbi == 0) {
        s.reason = errno == EOPNOTSUPP ? "this Linux kernel has Landlock built in but turned off (add "
                                         "landlock to the lsm= boot parameter)"
                                       : "this Linux kernel has no Landlock (Linux 5.13 or newer with "
                                         "CONFIG_SECURITY_LANDLOCK is needed)";
        return s;
    }
    if (::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0) {
        s.reason = "this Linux kernel has no seccomp filters";
        return s;
    }
    s.available = true;
    return s;
}

std::atomic<Mode> currentMode{Mode::Contained};

// Refused system calls fail with an error, as a program expects from a system without the feature; a
// kernel that checks errors says so in its own words.
void refuse(scmp_filter_ctx ctx, int error, int syscallNumber) {
    (void)seccomp_rule_add(ctx, SCMP_ACT_ERRNO(static_cast<std::uint32_t>(error)), syscallNumber, 0);
}

std::vector<sock_filter> buildFilter(bool startsPrograms) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) throw SystemError("seccomp_init", ENOMEM, "the sandbox's system-call filter");
    struct Release {
        scmp_filter_ctx ctx;
        ~Release() { seccomp_release(ctx); }
    } release{ctx};
    (void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0); // Confinement::apply sets it itself
    // No network, no looking into or changing other processes, no way around the filter.
    for (int nr : {SCMP_SYS(socket),
                   SCMP_SYS(socketpair),
                   SCMP_SYS(ptrace),
                   SCMP_SYS(process_vm_readv),
                   SCMP_SYS(process_vm_writev),
                   SCMP_SYS(io_uring_setup),
                   SCMP_SYS(io_uring_enter),
                   SCMP_SYS(io_uring_register),
                   SCMP_SYS(bpf),
                   SCMP_SYS(perf_event_open),
                   SCMP_SYS(userfaultfd),
                   SCMP_SYS(unshare),
                   SCMP_SYS(setns),
                   SCMP_SYS(mount),
                   SCMP_SYS(umount2),
                   SCMP_SYS(pivot_root),
                   SCMP_SYS(chroot),
                   SCMP_SYS(keyctl),
                   SCMP_SYS(add_key),
                   SCMP_SYS(request_key),
                   SCMP_SYS(kcmp),
                   SCMP_SYS(pidfd_open),
                   SCMP_SYS(pidfd_getfd),
                   SCMP_SYS(pidfd_send_signal)})
        refuse(ctx, EACCES, nr);
    if (!startsPrograms) {
        for (int nr :
             {SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(tkill)})
            refuse(ctx, EACCES, nr);
        // Threads yes (clone with CLONE_THREAD), processes no. clone3 passes its flags in memory a
        // filter cannot read: it answers "not implemented", and glibc falls back to clone.
        // Built by hand: libseccomp's SCMP_A0 is a C compound literal, which C++ does not have.
        scmp_arg_cmp withoutThreadFlag{};
        withoutThreadFlag.arg = 0;
        withoutThreadFlag.op = SCMP_CMP_MASKED_EQ;
        withoutThreadFlag.datum_a = CLONE_THREAD;
        withoutThreadFlag.datum_b = 0;
        (void)seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(clone), 1, withoutThreadFlag);
        refuse(ctx, ENOSYS, SCMP_SYS(clone3));
    }
    const int fd = ::memfd_create("kernelpad-seccomp", MFD_CLOEXEC);
    if (fd < 0) throw SystemError("memfd_create", errno, "the sandbox's system-call filter");
    struct Close {
        int fd;
        ~Close() { ::close(fd); }
    } close{fd};
    if (const int rc = seccomp_export_bpf(ctx, fd); rc < 0)
        throw SystemError("seccomp_export_bpf", -rc, "the sandbox's system-call filter");
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size <= 0 || size % static_cast<off_t>(sizeof(sock_filter)) != 0)
        throw Error("the sandbox's system-call filter came out empty");
    std::vector<sock_filter> program(static_cast<std::size_t>(size) / sizeof(sock_filter));
    if (::pread(fd, program.data(), static_cast<std::size_t>(size), 0) != size)
        throw SystemError("pread", errno, "the sandbox's system-call filter");
    return program;
}

void addRule(int ruleset, const std::filesystem::path& path, std::uint64_t access) {
    const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) return; // a folder this machine does not have (no /lib64, no CUDA toolkit)
    struct stat info {};
    if (::fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) access &= kFileRights;
    PathBeneathAttr rule{access, fd};
    const long rc = ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0);
    const int error = errno;
    ::close(fd);
    if (rc != 0) throw SystemError("landlock_add_rule", error, path.string());
}

// Allows `tgkill` and `kill` only towards this process, so a kernel cannot signal the user's other
// programs where Landlock cannot scope signals (before ABI 6). Built on the stack in the child: it
// needs the child's own pid.
int restrictSignals() noexcept {
    const auto pid = static_cast<std::uint32_t>(::getpid());
    sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tgkill, 0, 2),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, pid, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
    };
    // Jumps count instructions to skip: kill goes to 3 (load the pid), tgkill falls to 3, any other
    // call skips to 5 (allow); a pid that is not ours goes to 6 (refuse).
    sock_fprog program{static_cast<unsigned short>(sizeof code / sizeof code[0]), code};
    return ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0 ? 0 : errno;
}

} // namespace

const Support& support() {
    static const Support probed = probe();
    return probed;
}

void setMode(Mode mode) noexcept {
    currentMode = mode;
}
Mode mode() noexcept {
    return currentMode;
}

void requireSupport(const std::string& what) {
    if (mode() == Mode::Trusted || support().available) return;
    throw Unavailable(
        "Kernelpad cannot run " + what + " in its sandbox here: " + support().reason +
        ". Code from a playground could then read your files and reach the network as you. Run it only "
        "if you trust the file: in the app, answer Run Anyway; with kernelpad-cli, add --no-sandbox.");
}

std::uint64_t addressSpaceBytes() noexcept {
    std::FILE* statm = std::fopen("/proc/self/statm", "re");
    if (!statm) return 0;
    unsigned long long pages = 0;
    const int got = std::fscanf(statm, "%llu", &pages);
    std::fclose(statm);
    return got == 1 ? pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

Confinement::Confinement(const Policy& policy)
    : limits_(policy.limits), startsPrograms_(policy.startsPrograms) {
    const Support& s = support();
    if (!s.available) throw Unavailable("no sandbox here: " + s.reason);
    const std::uint64_t fs = handledFs(s.landlockAbi);
    RulesetAttr attr{fs, s.landlockAbi >= 4 ? (kNetBindTcp | kNetConnectTcp) : 0,
                     s.landlockAbi >= 6 ? (kScopeAbstractUnix | kScopeSignal) : 0};
    const std::size_t size = s.landlockAbi >= 6   ? sizeof attr
                             : s.landlockAbi >= 4 ? 2 * sizeof(std::uint64_t)
                                                  : sizeof(std::uint64_t);
    ruleset_ = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, size, 0));
    if (ruleset_ < 0) throw SystemError("landlock_create_ruleset", errno, "the sandbox");
    try {
        for (const auto& path : policy.readable)
            addRule(ruleset_, path, kExecute | kReadFile | kReadDir);
        for (const auto& path : policy.writable)
            addRule(ruleset_, path, fs);
        addRule(ruleset_, "/dev/null", kReadFile | kWriteFile | (s.landlockAbi >= 3 ? kTruncate : 0));
        filter_ = buildFilter(policy.startsPrograms);
    } catch (...) {
        ::close(ruleset_);
        throw;
    }
}

Confinement::~Confinement() {
    if (ruleset_ >= 0) ::close(ruleset_);
}

Confinement::Confinement(Confinement&& other) noexcept
    : ruleset_(std::exchange(other.ruleset_, -1)), filter_(std::move(other.filter_)), limits_(other.limits_),
      startsPrograms_(other.startsPrograms_) {}

int applyLimits(const Limits& limits, std::uint64_t addressSpace) noexcept {
    // Only ever lowers: a limit the user set already (ulimit -f) stays if it is tighter.
    const auto limit = [](int resource, std::uint64_t soft, std::uint64_t hard) {
        rlimit value{};
        if (::getrlimit(resource, &value) != 0) return false;
        value.rlim_cur = std::min(value.rlim_cur, static_cast<rlim_t>(soft));
        value.rlim_max = std::min(value.rlim_max, static_cast<rlim_t>(hard));
        value.rlim_cur = std::min(value.rlim_cur, value.rlim_max);
        return ::setrlimit(resource, &value) == 0;
    };
    if (!limit(RLIMIT_CORE, 0, 0)) return errno;
    if (limits.memoryBytes &&
        !limit(RLIMIT_AS, addressSpace + limits.memoryBytes, addressSpace + limits.memoryBytes))
        return errno;
    // The soft CPU limit sends SIGXCPU, which names the limit; the hard one a moment later makes sure.
    if (limits.cpuSeconds && !limit(RLIMIT_CPU, limits.cpuSeconds, limits.cpuSeconds + 2)) return errno;
    if (limits.fileBytes && !limit(RLIMIT_FSIZE, limits.fileBytes, limits.fileBytes)) return errno;
    return 0;
}

int Confinement::apply(std::uint64_t addressSpace, const char** step) const noexcept {
    const auto fail = [step](const char* name) {
        const int error = errno;
        if (step) *step = name;
        return error ? error : EPERM;
    };
    if (const int error = applyLimits(limits_, addressSpace); error != 0) {
        errno = error;
        return fail("setrlimit");
    }
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail("prctl(PR_SET_NO_NEW_PRIVS)");
    if (::syscall(SYS_landlock_restrict_self, ruleset_, 0) != 0) return fail("landlock_restrict_self");
    sock_fprog program{static_cast<unsigned short>(filter_.size()), const_cast<sock_filter*>(filter_.data())};
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0)
        return fail("prctl(PR_SET_SECCOMP)");
    if (!startsPrograms_) {
        if (const int error = restrictSignals(); error != 0) {
            errno = error;
            return fail("prctl(PR_SET_SECCOMP) for signals");
        }
    }
    return 0;
}

} // namespace kp::sandbox
