// Kernelpad's CUDA built-ins for the CPU backend: compiled in front of the user's .cu source by the host
// C++ compiler, so the same kernel runs on the CPU. Threads of a block run one after another on one
// core; where a kernel synchronises (__syncthreads), each thread is a fiber that Kernelpad's core
// switches between at the barrier. Blocks are spread over all cores by the core.

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <source_location>
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __constant__ static
#define __align__(n) alignas(n)
// Shared memory is per block; a block runs on one OS thread at a time, so thread_local is per block.
#define __shared__ static thread_local

struct uint3 { unsigned int x, y, z; };
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

#define KERNELPAD_VECTOR2(T, name, a)                                                                   \
    struct alignas(a) name { T x, y; };                                                                 \
    inline name make_##name(T x, T y) { return name{x, y}; }
#define KERNELPAD_VECTOR3(T, name)                                                                      \
    struct name { T x, y, z; };                                                                         \
    inline name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define KERNELPAD_VECTOR4(T, name, a)                                                                   \
    struct alignas(a) name { T x, y, z, w; };                                                           \
    inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
KERNELPAD_VECTOR2(float, float2, 8)
KERNELPAD_VECTOR3(float, float3)
KERNELPAD_VECTOR4(float, float4, 16)
KERNELPAD_VECTOR2(int, int2, 8)
KERNELPAD_VECTOR3(int, int3)
KERNELPAD_VECTOR4(int, int4, 16)
KERNELPAD_VECTOR2(unsigned int, uint2, 8)
KERNELPAD_VECTOR4(unsigned int, uint4, 16)
KERNELPAD_VECTOR2(double, double2, 16)
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }

// Set by the core before a block runs (blockIdx, blockDim, gridDim) and before each thread (threadIdx).
// One definition in the Kernelpad process (core/cpu/BlockState.cpp), not one per kernel: initial-exec
// TLS in each dlopen'ed kernel would use up glibc's small static TLS reserve after a few dozen runs, and
// the default model would call __tls_get_addr on every read of threadIdx.
struct KernelpadBlockState {
    uint3 threadIndex;
    uint3 blockIndex;
    dim3 blockDimension;
    dim3 gridDimension;
    unsigned char* dynamicShared;
    unsigned long long dynamicSharedBytes;
    // One slot per thread of the block, for warp votes and shuffles (sized by the core for each block).
    unsigned long long* laneSlots;
    unsigned blockThreads;
};
extern "C" __thread __attribute__((tls_model("initial-exec"))) KernelpadBlockState kernelpad_block_state;

namespace kernelpad {
// Most threads in a block (the CPU backend's launch limit).
inline constexpr unsigned kMaxThreads = 1024;
// A kernel split at its barriers keeps the variables that live across a barrier here, one element per
// thread: one frame per worker thread, reused block after block.
template <typename Frame> Frame& frame() {
    static thread_local Frame storage;
    return storage;
}
// The core's barrier: switches to the next thread of the block (fibers). Installed by the core.
inline void (*barrier)() = nullptr;

// The bounds-checking mode: array parameters become Checked<T>, whose every index is compared with the
// array's size. An access outside is reported to the core (array, index, thread, block, source line)
// and reads or writes a scratch element instead, so the run finishes and nothing is corrupted.
struct ArrayArgument {
    void* data;
    unsigned long long size;
    const char* name;
};
inline void (*outOfBounds)(const char* array, long long index, unsigned long long size, uint3 thread, uint3 block,
                           const char* file, unsigned line) = nullptr;

// An index that remembers where in the user's source it was used (the conversion happens there).
struct Index {
    long long value;
    std::source_location where;
    template <typename I, typename = std::enable_if_t<std::is_integral_v<I> || std::is_enum_v<I>>>
    Index(I i, std::source_location at = std::source_location::current()) : value(static_cast<long long>(i)), where(at) {}
};

template <typename T> class Checked {
public:
    using element_type = T;
    Checked(T* base, unsigned long long size, const char* name, long long offset = 0)
        : base_(base), size_(size), name_(name), offset_(offset) {}
    T& operator[](Index i) const {
        const long long at = offset_ + i.value;
        if (at < 0 || static_cast<unsigned long long>(at) >= size_) {
            outOfBounds(name_, at, size_, kernelpad_block_state.threadIndex, kernelpad_block_state.blockIndex, i.where.file_name(), i.where.line());
            static thread_local std::remove_const_t<T> scratch{};
            return scratch;
        }
        return base_[at];
    }
    T& operator*() const { return (*this)[0]; }
    T* operator->() const { return &(*this)[0]; }
    Checked operator+(Index i) const { return Checked(base_, size_, name_, offset_ + i.value); }
    Checked operator-(Index i) const { return Checked(base_, size_, name_, offset_ - i.value); }
    Checked& operator+=(Index i) { offset_ += i.value; return *this; }
    Checked& operator-=(Index i) { offset_ -= i.value; return *this; }
    Checked& operator++() { ++offset_; return *this; }
    explicit operator bool() const { return base_ != nullptr; }

private:
    T* base_;
    unsigned long long size_;
    const char* name_;
    long long offset_;
};
// A one-dimensional __shared__ array in the bounds-checking mode.
template <typename T, unsigned long long N> struct SharedArray {
    const char* name;
    T values[N];
    T& operator[](Index i) {
        if (i.value < 0 || static_cast<unsigned long long>(i.value) >= N) {
            outOfBounds(name, i.value, N, kernelpad_block_state.threadIndex, kernelpad_block_state.blockIndex, i.where.file_name(), i.where.line());
            static thread_local T scratch{};
            return scratch;
        }
        return values[i.value];
    }
};
template <typename T> Checked<T> dynamicSharedArray(const char* name) {
    return Checked<T>(reinterpret_cast<T*>(kernelpad_block_state.dynamicShared), kernelpad_block_state.dynamicSharedBytes / sizeof(T), name);
}

template <typename T> struct IsChecked : std::false_type {};
template <typename T> struct IsChecked<Checked<T>> : std::true_type {};

// The core passes a launch's arguments as an array of pointers: pointer parameters are the pointer
// itself, scalar parameters point to their value, checked arrays point to their ArrayArgument.
template <typename T> T argument(void* p) {
    if constexpr (IsChecked<T>::value) {
        const auto* a = static_cast<const ArrayArgument*>(p);
        return T(static_cast<typename T::element_type*>(a->data), a->size, a->name);
    } else if constexpr (std::is_pointer_v<T>) {
        return static_cast<T>(p);
    } else {
        return *static_cast<std::remove_cv_t<std::remove_reference_t<T>>*>(p);
    }
}
} // namespace kernelpad

#define threadIdx (kernelpad_block_state.threadIndex)
#define blockIdx (kernelpad_block_state.blockIndex)
#define blockDim (kernelpad_block_state.blockDimension)
#define gridDim (kernelpad_block_state.gridDimension)
#define warpSize 32

// Each fiber keeps its own threadIdx across the switch: it lives in thread_local storage shared by
// the block's fibers, so it is saved on the fiber's own stack.
inline void __syncthreads() {
    const uint3 self = threadIdx;
    ::kernelpad::barrier();
    threadIdx = self;
}
inline int __syncthreads_count(int predicate);
inline int __syncthreads_and(int predicate);
inline int __syncthreads_or(int predicate);

// Warp votes and shuffles. On the CPU the threads of a block meet at a block-wide barrier to exchange
// values (the warp's lanes then read each other's slots), so every thread of the block must reach
// them the same number of times, as CUDA asks of the lanes named in the mask.
namespace kernelpad {
inline unsigned linearThread() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
template <typename T> void publish(T value) {
    static_assert(sizeof(T) <= sizeof(unsigned long long), "warp operations take values of up to 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    kernelpad_block_state.laneSlots[linearThread()] = bits;
    __syncthreads();
}
template <typename T> T slot(unsigned thread) {
    T value;
    std::memcpy(&value, &kernelpad_block_state.laneSlots[thread], sizeof(T));
    return value;
}
// Reads lane `lane` (within the caller's segment of `width` lanes) after everyone published.
template <typename T> T shuffleFrom(T own, int lane, int width, bool inRange) {
    const unsigned self = linearThread();
    const unsigned warpBase = self - self % 32u;
    const unsigned w = width > 0 && width <= 32 ? static_cast<unsigned>(width) : 32u;
    const unsigned segment = warpBase + (self % 32u) / w * w;
    const unsigned source = segment + static_cast<unsigned>(lane) % w;
    const T result = inRange && source < kernelpad_block_state.blockThreads ? slot<T>(source) : own;
    __syncthreads();
    return result;
}
inline unsigned laneInSegment(int width) {
    const unsigned w = width > 0 && width <= 32 ? static_cast<unsigned>(width) : 32u;
    return linearThread() % 32u % w;
}
inline unsigned ballot(int predicate) {
    publish<int>(predicate != 0);
    const unsigned self = linearThread(), base = self - self % 32u;
    unsigned bits = 0;
    for (unsigned lane = 0; lane < 32 && base + lane < kernelpad_block_state.blockThreads; ++lane)
        if (slot<int>(base + lane)) bits |= 1u << lane;
    __syncthreads();
    return bits;
}
inline int countBlock(int predicate) {
    publish<int>(predicate != 0);
    int count = 0;
    for (unsigned t = 0; t < kernelpad_block_state.blockThreads; ++t) count += slot<int>(t);
    __syncthreads();
    return count;
}
} // namespace kernelpad

template <typename T> T __shfl_sync(unsigned, T var, int srcLane, int width = 32) {
    ::kernelpad::publish(var);
    return ::kernelpad::shuffleFrom(var, srcLane, width, true);
}
template <typename T> T __shfl_up_sync(unsigned, T var, unsigned delta, int width = 32) {
    ::kernelpad::publish(var);
    const unsigned lane = ::kernelpad::laneInSegment(width);
    return ::kernelpad::shuffleFrom(var, static_cast<int>(lane - delta), width, lane >= delta);
}
template <typename T> T __shfl_down_sync(unsigned, T var, unsigned delta, int width = 32) {
    ::kernelpad::publish(var);
    const unsigned lane = ::kernelpad::laneInSegment(width);
    const unsigned w = width > 0 && width <= 32 ? static_cast<unsigned>(width) : 32u;
    return ::kernelpad::shuffleFrom(var, static_cast<int>(lane + delta), width, lane + delta < w);
}
template <typename T> T __shfl_xor_sync(unsigned, T var, int laneMask, int width = 32) {
    ::kernelpad::publish(var);
    const unsigned lane = ::kernelpad::laneInSegment(width);
    const unsigned w = width > 0 && width <= 32 ? static_cast<unsigned>(width) : 32u;
    const unsigned other = lane ^ static_cast<unsigned>(laneMask);
    return ::kernelpad::shuffleFrom(var, static_cast<int>(other), width, other < w);
}
inline unsigned __ballot_sync(unsigned, int predicate) { return ::kernelpad::ballot(predicate); }
inline int __all_sync(unsigned mask, int predicate) {
    const unsigned self = ::kernelpad::linearThread(), base = self - self % 32u;
    const unsigned lanes = kernelpad_block_state.blockThreads - base >= 32 ? 0xffffffffu : (1u << (kernelpad_block_state.blockThreads - base)) - 1u;
    return (__ballot_sync(mask, predicate) & lanes) == lanes;
}
inline int __any_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }
inline void __syncwarp(unsigned = 0xffffffffu) { __syncthreads(); }
inline unsigned __activemask() { return 0xffffffffu; }
inline int __syncthreads_count(int predicate) { return ::kernelpad::countBlock(predicate); }
inline int __syncthreads_and(int predicate) {
    return ::kernelpad::countBlock(predicate) == static_cast<int>(kernelpad_block_state.blockThreads);
}
inline int __syncthreads_or(int predicate) { return ::kernelpad::countBlock(predicate) != 0; }

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// Atomics: the same semantics as CUDA's, on std::atomic_ref (blocks run on several cores at once).
template <typename T> T atomicAdd(T* address, T value) { return std::atomic_ref<T>(*address).fetch_add(value); }
template <typename T> T atomicSub(T* address, T value) { return std::atomic_ref<T>(*address).fetch_sub(value); }
template <typename T> T atomicExch(T* address, T value) { return std::atomic_ref<T>(*address).exchange(value); }
template <typename T> T atomicAnd(T* address, T value) { return std::atomic_ref<T>(*address).fetch_and(value); }
template <typename T> T atomicOr(T* address, T value) { return std::atomic_ref<T>(*address).fetch_or(value); }
template <typename T> T atomicXor(T* address, T value) { return std::atomic_ref<T>(*address).fetch_xor(value); }
template <typename T> T atomicMin(T* address, T value) {
    std::atomic_ref<T> ref(*address);
    T old = ref.load();
    while (value < old && !ref.compare_exchange_weak(old, value)) {}
    return old;
}
template <typename T> T atomicMax(T* address, T value) {
    std::atomic_ref<T> ref(*address);
    T old = ref.load();
    while (value > old && !ref.compare_exchange_weak(old, value)) {}
    return old;
}
template <typename T> T atomicCAS(T* address, T compare, T value) {
    std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
    return compare;
}
#define KERNELPAD_CHECKED_ATOMIC(name)                                                                  \
    template <typename T, typename V> T name(::kernelpad::Checked<T> address, V value) {                  \
        return name(&address[0], static_cast<T>(value));                                                \
    }
KERNELPAD_CHECKED_ATOMIC(atomicAdd)
KERNELPAD_CHECKED_ATOMIC(atomicSub)
KERNELPAD_CHECKED_ATOMIC(atomicExch)
KERNELPAD_CHECKED_ATOMIC(atomicAnd)
KERNELPAD_CHECKED_ATOMIC(atomicOr)
KERNELPAD_CHECKED_ATOMIC(atomicXor)
KERNELPAD_CHECKED_ATOMIC(atomicMin)
KERNELPAD_CHECKED_ATOMIC(atomicMax)

// ((old >= limit) ? 0 : old + 1) and (((old == 0) || (old > limit)) ? limit : old - 1), as CUDA defines them.
inline unsigned int atomicInc(unsigned int* address, unsigned int limit) {
    std::atomic_ref<unsigned int> ref(*address);
    unsigned int old = ref.load();
    while (!ref.compare_exchange_weak(old, old >= limit ? 0u : old + 1u)) {}
    return old;
}
inline unsigned int atomicDec(unsigned int* address, unsigned int limit) {
    std::atomic_ref<unsigned int> ref(*address);
    unsigned int old = ref.load();
    while (!ref.compare_exchange_weak(old, (old == 0u || old > limit) ? limit : old - 1u)) {}
    return old;
}

// Math: CUDA's single-precision names and intrinsics over the host's libm.
using std::abs;
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
    unsigned int r = 0;
    for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1u) << (31 - b);
    return r;
}
inline int __mul24(int a, int b) { return static_cast<int>((static_cast<long long>(a) << 40 >> 40) * (static_cast<long long>(b) << 40 >> 40)); }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
template <typename T> T __ldg(const T* p) { return *p; }
inline float __int_as_float(int x) { float f; std::memcpy(&f, &x, sizeof f); return f; }
inline int __float_as_int(float f) { int x; std::memcpy(&x, &f, sizeof x); return x; }
inline unsigned int __float_as_uint(float f) { unsigned int x; std::memcpy(&x, &f, sizeof x); return x; }
inline float __uint_as_float(unsigned int x) { float f; std::memcpy(&f, &x, sizeof f); return f; }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __tanf(float x) { return std::tan(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline void sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
