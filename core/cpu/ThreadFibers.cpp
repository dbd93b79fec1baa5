#include "ThreadFibers.h"

#include "core/Error.h"

#include <boost/context/fiber.hpp>
#include <cerrno>
#include <sys/mman.h>

namespace kp::cpu {

namespace ctx = boost::context;

namespace {
// The fiber currently running on this OS thread keeps here where to switch back to.
thread_local ctx::fiber* currentSink = nullptr;
} // namespace

// Stacks for up to the block's thread count, mapped once with a guard page each: a kernel that
// overflows its stack faults on the guard instead of writing into another thread's stack.
struct ThreadFibers::Stacks {
    std::size_t bytes;
    std::size_t pitch;
    std::byte* base = nullptr;
    std::size_t count = 0;

    explicit Stacks(std::size_t stackBytes) : bytes(stackBytes), pitch(stackBytes + 4096) {}
    ~Stacks() {
        if (base) ::munmap(base, pitch * count);
    }
    void reserve(std::size_t threads) {
        if (threads <= count) return;
        if (base) ::munmap(base, pitch * count);
        base = nullptr;
        count = 0;
        void* p = ::mmap(nullptr, pitch * threads, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            throw SystemError("mmap", errno, "fiber stacks for " + std::to_string(threads) + " threads");
        base = static_cast<std::byte*>(p);
        count = threads;
        for (std::size_t i = 0; i < threads; ++i)
            ::mprotect(base + i * pitch, 4096, PROT_NONE);
    }
};

namespace {
// Hands Boost.Context one of the preallocated stacks; nothing is freed per fiber.
struct PreallocatedStack {
    std::byte* low;
    std::size_t size;
    ctx::stack_context allocate() {
        ctx::stack_context sc;
        sc.size = size;
        sc.sp = low + size;
        return sc;
    }
    void deallocate(ctx::stack_context&) noexcept {}
};
} // namespace

ThreadFibers::ThreadFibers(std::size_t stackBytes) : stacks_(std::make_unique<Stacks>(stackBytes)) {}
ThreadFibers::~ThreadFibers() = default;

void ThreadFibers::barrier() {
    ctx::fiber* sink = currentSink;
    *sink = std::move(*sink).resume();
    currentSink = sink;
}

void ThreadFibers::run(std::size_t threads, const std::function<void(std::size_t)>& body) {
    stacks_->reserve(threads);
    std::vector<ctx::fiber> fibers;
    fibers.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        PreallocatedStack stack{stacks_->base + t * stacks_->pitch + 4096, stacks_->bytes};
        fibers.emplace_back(std::allocator_arg, stack, [t, &body](ctx::fiber&& sink) {
            currentSink = &sink;
            body(t);
            return std::move(*currentSink);
        });
    }
    // One pass per barrier phase: every live fiber runs until its next barrier or its end.
    for (bool alive = true; alive;) {
        alive = false;
        for (auto& fiber : fibers) {
            if (!fiber) continue;
            fiber = std::move(fiber).resume();
            alive = alive || static_cast<bool>(fiber);
        }
    }
}

} // namespace kp::cpu
