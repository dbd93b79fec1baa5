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
#include <limits>
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

// Every CUDA vector type, with CUDA's alignment (vector_types.h) and its make_ function.
#define KERNELPAD_VECTOR1(T, name, a)                                                                   \
    struct alignas(a) name { T x; };                                                                    \
    inline name make_##name(T x) { return name{x}; }
#define KERNELPAD_VECTOR2(T, name, a)                                                                   \
    struct alignas(a) name { T x, y; };                                                                 \
    inline name make_##name(T x, T y) { return name{x, y}; }
#define KERNELPAD_VECTOR3(T, name)                                                                      \
    struct name { T x, y, z; };                                                                         \
    inline name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define KERNELPAD_VECTOR4(T, name, a)                                                                   \
    struct alignas(a) name { T x, y, z, w; };                                                           \
    inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
#define KERNELPAD_VECTORS(T, prefix, a1, a2, a4)                                                        \
    KERNELPAD_VECTOR1(T, prefix##1, a1)                                                                 \
    KERNELPAD_VECTOR2(T, prefix##2, a2)                                                                 \
    KERNELPAD_VECTOR3(T, prefix##3)                                                                     \
    KERNELPAD_VECTOR4(T, prefix##4, a4)
KERNELPAD_VECTORS(signed char, char, 1, 2, 4)
KERNELPAD_VECTORS(unsigned char, uchar, 1, 2, 4)
KERNELPAD_VECTORS(short, short, 2, 4, 8)
KERNELPAD_VECTORS(unsigned short, ushort, 2, 4, 8)
KERNELPAD_VECTORS(int, int, 4, 8, 16)
KERNELPAD_VECTOR1(unsigned int, uint1, 4)
KERNELPAD_VECTOR2(unsigned int, uint2, 8)
KERNELPAD_VECTOR4(unsigned int, uint4, 16)
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
KERNELPAD_VECTORS(long, long, 8, 16, 16)
KERNELPAD_VECTORS(unsigned long, ulong, 8, 16, 16)
KERNELPAD_VECTORS(long long, longlong, 8, 16, 16)
KERNELPAD_VECTORS(unsigned long long, ulonglong, 8, 16, 16)
KERNELPAD_VECTORS(float, float, 4, 8, 16)
KERNELPAD_VECTORS(double, double, 8, 16, 16)

// clock64(): a counter that only goes up, as the SM's cycle counter does (clock() is the C library's).
#if defined(__x86_64__) || defined(__i386__)
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
#else
inline long long clock64() { return static_cast<long long>(clock()); }
#endif

// What __half and __nv_bfloat16 share, defined for each (plain overloads, as cuda_fp16.h and cuda_bf16.h
// declare them, so that arguments convert alike): add, subtract and multiply in float, rounded once to
// the type (exact in float for both, or off by far less than the type's last bit), comparisons in float,
// max and min, and the operators; the type defines its division, negation and fma first. Then the pairs.
#define KERNELPAD_SIXTEEN_BIT_FLOAT(T)                                                             \
    inline T __hadd(T a, T b) { return T(float(a) + float(b)); }                                   \
    inline T __hsub(T a, T b) { return T(float(a) - float(b)); }                                   \
    inline T __hmul(T a, T b) { return T(float(a) * float(b)); }                                   \
    inline T __hadd_rn(T a, T b) { return __hadd(a, b); }                                          \
    inline T __hsub_rn(T a, T b) { return __hsub(a, b); }                                          \
    inline T __hmul_rn(T a, T b) { return __hmul(a, b); }                                          \
    inline bool __heq(T a, T b) { return float(a) == float(b); }                                   \
    inline bool __hne(T a, T b) { return float(a) != float(b); }                                   \
    inline bool __hlt(T a, T b) { return float(a) < float(b); }                                    \
    inline bool __hle(T a, T b) { return float(a) <= float(b); }                                   \
    inline bool __hgt(T a, T b) { return float(a) > float(b); }                                    \
    inline bool __hge(T a, T b) { return float(a) >= float(b); }                                   \
    inline bool __hisnan(T a) { return std::isnan(float(a)); }                                     \
    inline T __hmax(T a, T b) { return float(a) < float(b) ? b : a; }                              \
    inline T __hmin(T a, T b) { return float(b) < float(a) ? b : a; }                              \
    inline T operator+(const T& a, const T& b) { return __hadd(a, b); }                            \
    inline T operator-(const T& a, const T& b) { return __hsub(a, b); }                            \
    inline T operator*(const T& a, const T& b) { return __hmul(a, b); }                            \
    inline T operator/(const T& a, const T& b) { return __hdiv(a, b); }                            \
    inline T operator-(const T& a) { return __hneg(a); }                                           \
    inline T& operator+=(T& a, const T& b) { return a = __hadd(a, b); }                            \
    inline T& operator-=(T& a, const T& b) { return a = __hsub(a, b); }                            \
    inline T& operator*=(T& a, const T& b) { return a = __hmul(a, b); }                            \
    inline T& operator/=(T& a, const T& b) { return a = __hdiv(a, b); }                            \
    inline bool operator==(const T& a, const T& b) { return __heq(a, b); }                         \
    inline bool operator!=(const T& a, const T& b) { return __hne(a, b); }                         \
    inline bool operator<(const T& a, const T& b) { return __hlt(a, b); }                          \
    inline bool operator<=(const T& a, const T& b) { return __hle(a, b); }                         \
    inline bool operator>(const T& a, const T& b) { return __hgt(a, b); }                          \
    inline bool operator>=(const T& a, const T& b) { return __hge(a, b); }
#define KERNELPAD_SIXTEEN_BIT_PAIR(T2)                                                             \
    inline float __low2float(T2 h) { return float(h.x); }                                          \
    inline float __high2float(T2 h) { return float(h.y); }                                         \
    inline T2 __hadd2(T2 a, T2 b) { return T2{__hadd(a.x, b.x), __hadd(a.y, b.y)}; }               \
    inline T2 __hsub2(T2 a, T2 b) { return T2{__hsub(a.x, b.x), __hsub(a.y, b.y)}; }               \
    inline T2 __hmul2(T2 a, T2 b) { return T2{__hmul(a.x, b.x), __hmul(a.y, b.y)}; }               \
    inline T2 __hadd2_rn(T2 a, T2 b) { return __hadd2(a, b); }                                    \
    inline T2 __hsub2_rn(T2 a, T2 b) { return __hsub2(a, b); }                                    \
    inline T2 __hmul2_rn(T2 a, T2 b) { return __hmul2(a, b); }                                    \
    inline T2 __hfma2(T2 a, T2 b, T2 c) { return T2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }

// Half precision (cuda_fp16.h): __half and __half2 over the compiler's _Float16. Each operation is done
// in float and rounded to half once, which gives the correctly rounded result CUDA's half instructions
// give (float has more than twice half's precision); __hfma goes through double.
struct alignas(2) __half {
    _Float16 value;
    __half() = default;
    __half(float f) : value(static_cast<_Float16>(f)) {}
    __half(double d) : value(static_cast<_Float16>(d)) {}
    __half(int i) : value(static_cast<_Float16>(i)) {}
    __half(unsigned int i) : value(static_cast<_Float16>(i)) {}
    operator float() const { return static_cast<float>(value); }
};
struct alignas(4) __half2 {
    __half x, y;
};
typedef __half half;
typedef __half2 half2;
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); } // one rounding, double to half
inline float __half2float(__half h) { return static_cast<float>(h.value); }
inline __half __int2half_rn(int i) { return __half(static_cast<float>(i)); }
inline int __half2int_rz(__half h) { return static_cast<int>(static_cast<float>(h)); }
inline __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
inline __half __hneg(__half a) { return __half(-float(a)); }
// The _rn forms (from KERNELPAD_SIXTEEN_BIT_FLOAT) are the same operations, which NVRTC never contracts into a fused multiply-add. The CPU
// backend does not contract half operations at all, so `s * a - b` on halves, which NVRTC fuses by
// default, can differ from the GPU in the last bit; write __hsub(__hmul_rn(s, a), b) for the same bits.
inline __half __habs(__half a) { return __half(std::fabs(float(a))); }
inline __half __hfma(__half a, __half b, __half c) { return __half(std::fma(double(float(a)), double(float(b)), double(float(c)))); }
inline __half hsqrt(__half a) { return __half(std::sqrt(float(a))); }
KERNELPAD_SIXTEEN_BIT_FLOAT(__half)
inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
inline __half2 __float2half2_rn(float a) { return __half2{__half(a), __half(a)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float2 __half22float2(__half2 h) { return float2{float(h.x), float(h.y)}; }
KERNELPAD_SIXTEEN_BIT_PAIR(__half2)

// bfloat16 (cuda_bf16.h): float's upper 16 bits. Conversions round to nearest even, as CUDA's _rn do;
// add, subtract and multiply are done in float, where the exact result of two bfloat16s fits (or is
// rounded so far below bfloat16's last bit that it cannot change it), then rounded once; divide and fma
// go through double, rounded to odd in float first, so that the two roundings give the correctly rounded
// result. As with half, the CPU backend does not contract `a * b + c` on bfloat16s the way NVRTC may.
namespace kernelpad {
inline unsigned short bfloatBits(float f) {
    unsigned bits;
    std::memcpy(&bits, &f, 4);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((bits >> 16) | 0x40u); // quiet NaN
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<unsigned short>(bits >> 16);
}
// `d` in float, rounded to odd: exact where it can be, else the neighbour whose last bit is 1.
inline float roundToOddFloat(double d) {
    float f = static_cast<float>(d);
    if (!std::isfinite(f) || static_cast<double>(f) == d) return f;
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    unsigned bits;
    std::memcpy(&bits, &f, 4);
    bits |= 1u;
    std::memcpy(&f, &bits, 4);
    return f;
}
} // namespace kernelpad
struct alignas(2) __nv_bfloat16 {
    unsigned short bits;
    __nv_bfloat16() = default;
    __nv_bfloat16(float f) : bits(::kernelpad::bfloatBits(f)) {}
    __nv_bfloat16(double d) : bits(::kernelpad::bfloatBits(::kernelpad::roundToOddFloat(d))) {}
    __nv_bfloat16(int i) : __nv_bfloat16(static_cast<double>(i)) {}
    __nv_bfloat16(unsigned int i) : __nv_bfloat16(static_cast<double>(i)) {}
    operator float() const {
        const unsigned wide = static_cast<unsigned>(bits) << 16;
        float f;
        std::memcpy(&f, &wide, 4);
        return f;
    }
};
struct alignas(4) __nv_bfloat162 {
    __nv_bfloat16 x, y;
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
inline __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16(i); }
inline float __bfloat162float(__nv_bfloat16 h) { return float(h); }
inline int __bfloat162int_rz(__nv_bfloat16 h) { return static_cast<int>(float(h)); }
inline __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(double(float(a)) / double(float(b))); }
inline __nv_bfloat16 __hneg(__nv_bfloat16 a) { __nv_bfloat16 r = a; r.bits ^= 0x8000u; return r; }
inline __nv_bfloat16 __habs(__nv_bfloat16 a) { __nv_bfloat16 r = a; r.bits &= 0x7fffu; return r; }
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    return __nv_bfloat16(std::fma(double(float(a)), double(float(b)), double(float(c))));
}
inline __nv_bfloat16 hsqrt(__nv_bfloat16 a) { return __nv_bfloat16(std::sqrt(double(float(a)))); }
KERNELPAD_SIXTEEN_BIT_FLOAT(__nv_bfloat16)
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162{a, b}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(b)}; }
inline __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(a)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{float(h.x), float(h.y)}; }
KERNELPAD_SIXTEEN_BIT_PAIR(__nv_bfloat162)
#undef KERNELPAD_SIXTEEN_BIT_FLOAT
#undef KERNELPAD_SIXTEEN_BIT_PAIR

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
    unsigned blockThreads;
    void* deferredAtomics; // the worker's table of deferred atomics, or null where this launch defers none
    // A kernel split at its warp operations (core/cpu/WarpExchange.h): what a warp operation does now
    // (0: meet as fibers, 1: record, 2: take the result), the current occasion and the block's first.
    unsigned warpPhase;
    unsigned warpThread; // the running thread's linear index, while warpPhase is not 0
    unsigned long long warpOccasion;
    unsigned long long warpBlockStart;
    void* warpSlots; // the worker's ::kernelpad::WarpSlots, made at its first split block with warp operations
    // Bit P: the launch gave this worker a private copy of parameter P's buffer (privateAdd, below).
    unsigned long long privateParameters;
    // The running thread's x in a split kernel's thread loop, where the kernel has deferred sums: the lane
    // its sums fold into (kernelpad::deferred).
    unsigned deferredLane;
};
extern "C" __thread __attribute__((tls_model("initial-exec"))) KernelpadBlockState kernelpad_block_state;

namespace kernelpad {
// Most threads in a block (the CPU backend's launch limit).
inline constexpr unsigned kMaxThreads = 1024;
// The address of a thread_local (a __shared__ variable) as a value the compiler cannot trace back to
// it: otherwise it recomputes the address, a call of __tls_get_addr, at every use in the thread loops.
template <typename T> inline T* opaqueAddress(T* p) {
    asm("" : "+r"(p));
    return p;
}
// An index of a leading guard (`const int i = blockIdx.x * blockDim.x + threadIdx.x;`) in a block the split
// kernel has checked before its loop: the largest value it can take is below 2^31, so the unsigned sum
// never wrapped and the index is not negative. Said to the compiler, which can then vectorise the row's
// loop (`dest[i] = a[i] * b[i]`): without it, a sum that might wrap is not a step of one element.
template <typename T> [[gnu::always_inline]] inline void assumeExactIndex(T i) {
    if constexpr (std::is_signed_v<T>) {
        if (i < 0) __builtin_unreachable();
    }
    if (static_cast<unsigned long long>(i) > 2147483647ull) __builtin_unreachable();
}
// A leading guard's row of a split kernel, in a grid whose x is checked to stay below 2^31 threads:
// blockIdx.x * blockDim.x plus the row's end does too. GCC 13 needs this said to see the usual index
// (`blockIdx.x * blockDim.x + threadIdx.x`, an unsigned sum made int) step by one element along the row:
// without it, it took `dest[i] = a[i] * b[i]` for a scatter and vectorised nothing (GCC 12 did).
[[gnu::always_inline]] inline void assumeRowFits(unsigned block, unsigned threads, unsigned end) {
    if (static_cast<unsigned long long>(block) * threads + end > 2147483647ull) __builtin_unreachable();
}
// A grid-stride loop of a split kernel runs in passes (BarrierSplit.cpp) where its limit and step are
// integers, the step positive, and every index it computes, the first elements' (`firstBound`, their
// largest) and the limit plus a step, stays below 2^31: then the passes' indices are the loop's own.
template <typename L, typename S> [[gnu::always_inline]] inline bool passesFit(L limit, S step, double firstBound) {
    if constexpr (!std::is_integral_v<L> || !std::is_integral_v<S> || std::is_same_v<L, bool> ||
                  std::is_same_v<S, bool>) {
        return false;
    } else {
        if constexpr (std::is_signed_v<L>) {
            if (limit < 0) return false;
        }
        if constexpr (std::is_signed_v<S>) {
            if (step <= 0) return false;
        } else {
            if (step == 0) return false;
        }
        return static_cast<double>(limit) + static_cast<double>(step) < 2147483647.0 &&
               firstBound < 2147483647.0;
    }
}
// Whether a thread of a split kernel's `mask` (all threads when null) has not returned: a loop the block
// runs once for those threads ends when none is left, though its condition may never turn false.
inline bool anyLeft(const unsigned char* alive, const unsigned char* mask, unsigned threads) {
    for (unsigned t = 0; t < threads; ++t)
        if (alive[t] && (!mask || mask[t])) return true;
    return false;
}
// A kernel split at its barriers keeps the variables that live across a barrier here, one element per
// thread: one frame per worker thread, reused block after block.
template <typename Frame> Frame& frame() {
    static thread_local Frame storage;
    return *opaqueAddress(&storage);
}
// Where threads meet (__syncthreads, warp operations), the core switches between them (fibers). A thread
// says what it does in a Meeting and waits in meet() until the others named are there; the result is
// then in the meeting. The layout and values are the core's (core/cpu/ThreadFibers.h).
enum class Meet : unsigned {
    Barrier, SyncWarp, ShuffleIndex, ShuffleUp, ShuffleDown, ShuffleXor, Ballot, Any, All, MatchAny, MatchAll,
    Active, ReduceAdd, ReduceMinSigned, ReduceMinUnsigned, ReduceMaxSigned, ReduceMaxUnsigned, ReduceAnd,
    ReduceOr, ReduceXor, Grid,
};
struct Meeting {
    Meet what;
    unsigned mask;
    unsigned long long value;
    int source;
    unsigned line;
    const char* function;
    const char* file;
    unsigned long long result;
};
inline void (*meet)(Meeting&) = nullptr;

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
    // `const float* p = a;`: a plain pointer from here on, unchecked. Conversion templates are not among
    // the built-in operators' candidates, so a[i] and a + i stay the checked ones.
    template <typename U, std::enable_if_t<std::is_convertible_v<T*, U*>, int> = 0> operator U*() const {
        return base_ + offset_;
    }
    // (const float4*)a and static_cast: the same, for any other pointee.
    template <typename U, std::enable_if_t<!std::is_convertible_v<T*, U*>, int> = 0> explicit operator U*() const {
        return reinterpret_cast<U*>(base_ + offset_);
    }
    // reinterpret_cast<const __half2*>(a), rewritten to reinterpretCast: the same bytes seen as U, still
    // checked, in U's elements (a partial last element is outside).
    template <typename U> Checked<U> as() const {
        const bool inside = offset_ >= 0 && static_cast<unsigned long long>(offset_) <= size_;
        const unsigned long long bytes = inside ? (size_ - static_cast<unsigned long long>(offset_)) * sizeof(T) : 0;
        return Checked<U>(reinterpret_cast<U*>(base_ + offset_), bytes / sizeof(U), name_);
    }

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

// The bounds mode's reinterpret_cast: a checked array cast to another element type stays checked
// (vector loads such as reinterpret_cast<const float4*>(a)[i] are bounds-checked too); a cast to
// void* or an integer goes through its plain pointer; anything else is C++'s reinterpret_cast.
template <typename To, typename From> decltype(auto) reinterpretCast(From&& from) {
    using Source = std::remove_cv_t<std::remove_reference_t<From>>;
    if constexpr (IsChecked<Source>::value && std::is_pointer_v<To> && !std::is_void_v<std::remove_pointer_t<To>>)
        return from.template as<std::remove_pointer_t<To>>();
    else if constexpr (IsChecked<Source>::value)
        return reinterpret_cast<To>(static_cast<typename Source::element_type*>(from));
    else
        return reinterpret_cast<To>(std::forward<From>(from));
}

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

// A kernel split at its warp operations (core/cpu/BarrierSplit.h) runs each warp operation twice per
// thread: once to record what the thread brings (warpPhase 1), once more, after every thread of the block
// has recorded, to take its result (warpPhase 2), which the core computes once per warp from the lanes
// that recorded at that occasion (core/cpu/WarpExchange.h). A plain warp intrinsic's statement records
// lightly first (warpPhase 3: exchangeWarp). The layout is the core's WarpSlots.
namespace kernelpad {
struct WarpSlots {
    unsigned long long value[2][kMaxThreads]; // two sets: by the parity of the occasion
    unsigned long long occasion[2][kMaxThreads];
    unsigned long long result[2][kMaxThreads];
    unsigned long long operand[2][kMaxThreads]; // a gathered atomicAdd's value (its address is the value)
    const char* function[2][kMaxThreads];
    const char* file[2][kMaxThreads];
    unsigned line[2][kMaxThreads];
    int source[2][kMaxThreads];
    unsigned mask[2][kMaxThreads];
    Meet what[2][kMaxThreads];
    unsigned long long warpDone[2][kMaxThreads / 32];
    unsigned long long last[kMaxThreads];     // the occasion a thread last recorded at
    unsigned long long missedAt[kMaxThreads]; // a warp operation named the thread, which did not record
    void (*complete)(unsigned warp, unsigned long long occasion);
    void (*refuse)(unsigned thread); // a record that cannot be: throws
    // A thread a warp operation missed is at `function` (__syncthreads, __activemask) instead: throws.
    void (*barrier)(unsigned thread, const char* function, const char* file, unsigned line);
    unsigned long long fullAt[2]; // the last occasion (of each parity) a thread recorded in full in phase 3
    bool (*recorded)(unsigned long long occasion); // completeRecorded, after a light record's loop
    unsigned long long reduced[2][kMaxThreads / 32]; // the occasion a warp's tile reduce results were worked out
};
inline void* (*warpSlotsOfThisThread)() = nullptr;

struct WarpSplitBlock {
    WarpSplitBlock() {
        if (!kernelpad_block_state.warpSlots) kernelpad_block_state.warpSlots = warpSlotsOfThisThread();
        kernelpad_block_state.warpBlockStart = ++kernelpad_block_state.warpOccasion;
        kernelpad_block_state.warpPhase = 2;
    }
    ~WarpSplitBlock() { kernelpad_block_state.warpPhase = 0; }
    WarpSplitBlock(const WarpSplitBlock&) = delete;
    WarpSplitBlock& operator=(const WarpSplitBlock&) = delete;
};

// The running thread records `value` at the block's current occasion; returns the slots' parity.
inline unsigned recordAtOccasion(WarpSlots* x, unsigned t, unsigned long long value) {
    const unsigned long long occasion = kernelpad_block_state.warpOccasion;
    const unsigned p = occasion & 1;
    x->value[p][t] = value;
    x->occasion[p][t] = occasion;
    x->last[t] = occasion;
    return p;
}

// A record in full (warpPhase 1, or 3 where a light one cannot be).
[[gnu::always_inline]] inline void recordFields(Meet what, unsigned mask, unsigned long long value, int source,
                                                const char* function, const std::source_location& at) {
    auto& state = kernelpad_block_state;
    auto* x = static_cast<WarpSlots*>(state.warpSlots);
    const unsigned t = state.warpThread;
    if (state.warpPhase == 3) x->fullAt[state.warpOccasion & 1] = state.warpOccasion;
    const unsigned p = recordAtOccasion(x, t, value);
    x->function[p][t] = function;
    x->file[p][t] = at.file_name();
    x->line[p][t] = at.line();
    x->source[p][t] = source;
    x->mask[p][t] = mask;
    x->what[p][t] = what;
    if ((what != Meet::Active && !(mask >> (t & 31u) & 1u)) || x->missedAt[t] >= state.warpBlockStart)
        x->refuse(t);
}
// Out of line, and hidden (a direct call), for the warp intrinsics: their light record and their take then
// inline into the kernel's loops.
[[gnu::noinline, gnu::visibility("hidden")]] inline void recordInFull(Meet what, unsigned mask, unsigned long long value,
                                                                     int source, const char* function,
                                                                     const std::source_location& at) {
    recordFields(what, mask, value, source, function, at);
}

[[gnu::always_inline]] inline unsigned long long exchangeWarp(Meet what, unsigned mask, unsigned long long value,
                                                             int source, const char* function,
                                                             const std::source_location& at) {
    auto& state = kernelpad_block_state;
    auto* x = static_cast<WarpSlots*>(state.warpSlots);
    const unsigned t = state.warpThread;
    if (state.warpPhase == 3 && mask == ~0u && what != Meet::Active && x->missedAt[t] < state.warpBlockStart) {
        // A light record: a lane that calls with the full mask (and that no earlier operation missed)
        // brings its value and source alone. Where the loop's every lane did, the core completes each warp
        // at once (completeRecorded); otherwise the loop records again, in full.
        const unsigned long long occasion = state.warpOccasion;
        const unsigned p = occasion & 1;
        x->value[p][t] = value;
        x->source[p][t] = source;
        x->what[p][t] = what;
        x->last[t] = occasion;
        return 0;
    }
    if (state.warpPhase & 1u) {
        recordInFull(what, mask, value, source, function, at);
        return 0;
    }
    const unsigned long long occasion = x->last[t];
    const unsigned p = occasion & 1;
    if (x->warpDone[p][t / 32] != occasion) x->complete(t / 32, occasion);
    return x->result[p][t];
}

// After a thread loop that recorded lightly (warpPhase 3): whether every warp that recorded was
// completed at once; if not, the statement's call records again, in full, for each thread that had
// (recordedHere), and the takes complete each warp as after a full record.
inline bool recordedLight() {
    const auto& state = kernelpad_block_state;
    return static_cast<const WarpSlots*>(state.warpSlots)->recorded(state.warpOccasion);
}
inline bool recordedHere() {
    const auto& state = kernelpad_block_state;
    return static_cast<const WarpSlots*>(state.warpSlots)->last[state.warpThread] == state.warpOccasion;
}

// At a __syncthreads() of a split kernel with warp operations: a thread that a warp operation named and
// did not find, still running (`alive`, when the kernel can return), is here instead; on a GPU that
// operation would wait for it.
inline void warpBarrier(const unsigned char* alive, unsigned threads,
                        std::source_location at = std::source_location::current()) {
    const auto& state = kernelpad_block_state;
    const auto* x = static_cast<const WarpSlots*>(state.warpSlots);
    for (unsigned t = 0; t < threads; ++t)
        if (x->missedAt[t] >= state.warpBlockStart && (!alive || alive[t]))
            x->barrier(t, "__syncthreads", at.file_name(), at.line());
}

// `__activemask()` where a region of a split kernel begins (the statement's first call): the lanes of
// each warp that run the region (in `mask`, all threads when null, and not returned, `alive`), the lanes
// that would record there, found without a record per thread and a pass to take it.
inline void activeLanes(unsigned* lanes, const unsigned char* alive, const unsigned char* mask, unsigned threads,
                        std::source_location at = std::source_location::current()) {
    const auto& state = kernelpad_block_state;
    const auto* x = static_cast<const WarpSlots*>(state.warpSlots);
    // A warp's bits in a register: or-ing each lane's bit into memory made every lane wait for the last.
    bool missed = false;
    for (unsigned first = 0; first < threads; first += 32) {
        const unsigned end = threads - first < 32 ? threads : first + 32;
        unsigned bits = 0;
        for (unsigned t = first; t < end; ++t) {
            const bool in = (!alive || alive[t]) && (!mask || mask[t]);
            bits |= static_cast<unsigned>(in) << (t - first);
            missed |= in && x->missedAt[t] >= state.warpBlockStart;
        }
        lanes[first / 32] = bits;
    }
    if (missed)
        for (unsigned t = 0; t < threads; ++t)
            if (lanes[t / 32] >> (t % 32) & 1u && x->missedAt[t] >= state.warpBlockStart)
                x->barrier(t, "__activemask", at.file_name(), at.line());
}

// Each fiber keeps its own threadIdx across the switch: it lives in thread_local storage shared by
// the block's fibers, so it is saved on the fiber's own stack.
inline unsigned long long meetFibers(Meet what, unsigned mask, unsigned long long value, int source,
                                     const char* function, const std::source_location& at) {
    const uint3 self = threadIdx;
    Meeting m{what, mask, value, source, at.line(), function, at.file_name(), 0};
    meet(m);
    threadIdx = self;
    return m.result;
}
[[gnu::always_inline]] inline unsigned long long meetOthers(Meet what, unsigned mask, unsigned long long value,
                                                           int source, const char* function,
                                                           const std::source_location& at) {
    if (kernelpad_block_state.warpPhase != 0) return exchangeWarp(what, mask, value, source, function, at);
    return meetFibers(what, mask, value, source, function, at);
}
} // namespace kernelpad
// A barrier's result is how many of the threads that met there gave a non-zero value.
inline void __syncthreads(std::source_location at = std::source_location::current()) {
    ::kernelpad::meetOthers(::kernelpad::Meet::Barrier, 0, 0, -1, "__syncthreads", at);
}
inline int __syncthreads_count(int predicate, std::source_location at = std::source_location::current()) {
    return static_cast<int>(::kernelpad::meetOthers(::kernelpad::Meet::Barrier, 0, predicate != 0, -1, "__syncthreads_count", at));
}
inline int __syncthreads_and(int predicate, std::source_location at = std::source_location::current()) {
    return __syncthreads_count(predicate, at) == static_cast<int>(kernelpad_block_state.blockThreads);
}
inline int __syncthreads_or(int predicate, std::source_location at = std::source_location::current()) {
    return __syncthreads_count(predicate, at) != 0;
}

// Warp operations, as CUDA defines them: each completes when every lane its mask names (that has not
// returned) calls it with the same mask; lanes outside the mask run on, divergent branches included.
namespace kernelpad {
inline unsigned linearThread() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
// A split kernel's thread loops keep the linear index too: reading threadIdx's three fields right after
// the loop stored them stalled on every warp operation (a wide load is not forwarded from narrow stores).
inline unsigned laneId() {
    const auto& state = kernelpad_block_state;
    return (state.warpPhase != 0 ? state.warpThread : linearThread()) % 32u;
}
template <typename T> unsigned long long bitsOf(T value) {
    static_assert(sizeof(T) <= sizeof(unsigned long long), "warp operations take values of up to 8 bytes");
    static_assert(std::is_trivially_copyable_v<T>, "warp operations take plain values");
    unsigned long long bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}
template <typename T> T fromBits(unsigned long long bits) {
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}
// The width of the caller's segment of its warp: 32 unless a power of two up to 32, so that `& (w - 1)`
// is the lane's place in its segment.
inline unsigned segmentWidth(int width) {
    return width > 0 && width <= 32 && (width & (width - 1)) == 0 ? static_cast<unsigned>(width) : 32u;
}
template <typename T> [[gnu::always_inline]] inline T shuffle(Meet what, unsigned mask, T var, int source, const char* function,
                                const std::source_location& at) {
    return fromBits<T>(meetOthers(what, mask, bitsOf(var), source, function, at));
}
} // namespace kernelpad

template <typename T>
[[gnu::always_inline]] inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32, std::source_location at = std::source_location::current()) {
    const unsigned w = ::kernelpad::segmentWidth(width), lane = ::kernelpad::laneId();
    const int source = static_cast<int>((lane & ~(w - 1)) + (static_cast<unsigned>(srcLane) & (w - 1)));
    return ::kernelpad::shuffle(::kernelpad::Meet::ShuffleIndex, mask, var, source, "__shfl_sync", at);
}
template <typename T>
[[gnu::always_inline]] inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, std::source_location at = std::source_location::current()) {
    const unsigned w = ::kernelpad::segmentWidth(width), lane = ::kernelpad::laneId();
    const int source = (lane & (w - 1)) >= delta ? static_cast<int>(lane - delta) : -1;
    return ::kernelpad::shuffle(::kernelpad::Meet::ShuffleUp, mask, var, source, "__shfl_up_sync", at);
}
template <typename T>
[[gnu::always_inline]] inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, std::source_location at = std::source_location::current()) {
    const unsigned w = ::kernelpad::segmentWidth(width), lane = ::kernelpad::laneId();
    const int source = (lane & (w - 1)) + delta < w ? static_cast<int>(lane + delta) : -1;
    return ::kernelpad::shuffle(::kernelpad::Meet::ShuffleDown, mask, var, source, "__shfl_down_sync", at);
}
// A lane may read from its own segment or an earlier one, as CUDA's documentation says; a later segment
// gives the lane its own value.
template <typename T>
[[gnu::always_inline]] inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32, std::source_location at = std::source_location::current()) {
    const unsigned w = ::kernelpad::segmentWidth(width), lane = ::kernelpad::laneId();
    const unsigned other = (lane ^ static_cast<unsigned>(laneMask)) & 31u;
    const int source = other < (lane & ~(w - 1)) + w ? static_cast<int>(other) : -1;
    return ::kernelpad::shuffle(::kernelpad::Meet::ShuffleXor, mask, var, source, "__shfl_xor_sync", at);
}
[[gnu::always_inline]] inline unsigned __ballot_sync(unsigned mask, int predicate, std::source_location at = std::source_location::current()) {
    return static_cast<unsigned>(::kernelpad::meetOthers(::kernelpad::Meet::Ballot, mask, predicate != 0, -1, "__ballot_sync", at));
}
[[gnu::always_inline]] inline int __all_sync(unsigned mask, int predicate, std::source_location at = std::source_location::current()) {
    return static_cast<int>(::kernelpad::meetOthers(::kernelpad::Meet::All, mask, predicate != 0, -1, "__all_sync", at));
}
[[gnu::always_inline]] inline int __any_sync(unsigned mask, int predicate, std::source_location at = std::source_location::current()) {
    return static_cast<int>(::kernelpad::meetOthers(::kernelpad::Meet::Any, mask, predicate != 0, -1, "__any_sync", at));
}
[[gnu::always_inline]] inline void __syncwarp(unsigned mask = 0xffffffffu, std::source_location at = std::source_location::current()) {
    ::kernelpad::meetOthers(::kernelpad::Meet::SyncWarp, mask, 0, -1, "__syncwarp", at);
}
// The lanes that reached this call together (those of the warp that can run and stop here).
[[gnu::always_inline]] inline unsigned __activemask(std::source_location at = std::source_location::current()) {
    return static_cast<unsigned>(::kernelpad::meetOthers(::kernelpad::Meet::Active, 0, 0, -1, "__activemask", at));
}
template <typename T>
[[gnu::always_inline]] inline unsigned __match_any_sync(unsigned mask, T value, std::source_location at = std::source_location::current()) {
    static_assert(std::is_integral_v<T> || std::is_floating_point_v<T>, "__match_any_sync takes a 32- or 64-bit value");
    return static_cast<unsigned>(::kernelpad::meetOthers(::kernelpad::Meet::MatchAny, mask, ::kernelpad::bitsOf(value), -1, "__match_any_sync", at));
}
template <typename T>
[[gnu::always_inline]] inline unsigned __match_all_sync(unsigned mask, T value, int* pred, std::source_location at = std::source_location::current()) {
    static_assert(std::is_integral_v<T> || std::is_floating_point_v<T>, "__match_all_sync takes a 32- or 64-bit value");
    const auto lanes = static_cast<unsigned>(::kernelpad::meetOthers(::kernelpad::Meet::MatchAll, mask, ::kernelpad::bitsOf(value), -1, "__match_all_sync", at));
    *pred = lanes != 0;
    return lanes;
}
#define KERNELPAD_REDUCE(name, T, meet)                                                                 \
    [[gnu::always_inline]] inline T name(unsigned mask, T value,                                  \
                                         std::source_location at = std::source_location::current()) { \
        return static_cast<T>(::kernelpad::meetOthers(::kernelpad::Meet::meet, mask,                  \
                                                      static_cast<unsigned>(value), -1, #name, at));   \
    }
KERNELPAD_REDUCE(__reduce_add_sync, unsigned, ReduceAdd)
KERNELPAD_REDUCE(__reduce_add_sync, int, ReduceAdd)
KERNELPAD_REDUCE(__reduce_min_sync, unsigned, ReduceMinUnsigned)
KERNELPAD_REDUCE(__reduce_min_sync, int, ReduceMinSigned)
KERNELPAD_REDUCE(__reduce_max_sync, unsigned, ReduceMaxUnsigned)
KERNELPAD_REDUCE(__reduce_max_sync, int, ReduceMaxSigned)
KERNELPAD_REDUCE(__reduce_and_sync, unsigned, ReduceAnd)
KERNELPAD_REDUCE(__reduce_or_sync, unsigned, ReduceOr)
KERNELPAD_REDUCE(__reduce_xor_sync, unsigned, ReduceXor)
#undef KERNELPAD_REDUCE

// Cooperative groups (<cooperative_groups.h>, <cooperative_groups/reduce.h>, <cooperative_groups/scan.h>):
// the thread block, tiles of it (static and dynamic sizes) and coalesced_threads() with their shuffles,
// votes and matches, reduce and the scans with the standard operators, and the grid group (the core runs
// every block of such a kernel at once, each on a thread of its own, so that grid.sync() can wait for all
// of them). A tile's operations are warp operations on the tile's lanes. Not provided (a compile error
// names them on their line): labeled_partition and binary_partition.
namespace cooperative_groups {
class thread_group {
public:
    explicit thread_group(unsigned size) : size_(size) {}
    // A tile of at most a warp synchronises its lanes; a larger one, the block (CUDA syncs just the tile).
    void sync(std::source_location at = std::source_location::current()) const {
        if (size_ <= 32 && (size_ & (size_ - 1)) == 0)
            __syncwarp(size_ == 32 ? 0xffffffffu : ((1u << size_) - 1u) << (::kernelpad::laneId() / size_ * size_), at);
        else
            __syncthreads(at);
    }
    unsigned thread_rank() const { return ::kernelpad::linearThread() % size_; }
    unsigned long long size() const { return size_; }
    unsigned long long num_threads() const { return size_; }
    unsigned meta_group_rank() const { return ::kernelpad::linearThread() / size_; }

private:
    unsigned size_;
};

class thread_block {
public:
    void sync(std::source_location at = std::source_location::current()) const { __syncthreads(at); }
    static void barrier_wait(std::source_location at = std::source_location::current()) { __syncthreads(at); }
    unsigned thread_rank() const { return ::kernelpad::linearThread(); }
    unsigned long long size() const { return kernelpad_block_state.blockThreads; }
    unsigned long long num_threads() const { return kernelpad_block_state.blockThreads; }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
    operator thread_group() const { return thread_group(kernelpad_block_state.blockThreads); }
};
inline thread_block this_thread_block() { return {}; }

class grid_group {
public:
    void sync(std::source_location at = std::source_location::current()) const {
        ::kernelpad::meetOthers(::kernelpad::Meet::Grid, 0, 0, -1, "grid.sync", at);
    }
    bool is_valid() const { return true; }
    unsigned long long block_rank() const {
        return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
    }
    unsigned long long num_blocks() const { return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z; }
    unsigned long long thread_rank() const { return block_rank() * kernelpad_block_state.blockThreads + ::kernelpad::linearThread(); }
    unsigned long long size() const { return num_blocks() * kernelpad_block_state.blockThreads; }
    unsigned long long num_threads() const { return size(); }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_blocks() const { return gridDim; }
    dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
inline grid_group this_grid() { return {}; }

namespace detail {
// A mask in lane numbers made into one in the group's ranks (bit k for the group's k-th lane).
inline unsigned compact(unsigned lanes, unsigned group) {
    unsigned out = 0, rank = 0;
    for (unsigned lane = 0; lane < 32; ++lane)
        if (group >> lane & 1u) {
            if (lanes >> lane & 1u) out |= 1u << rank;
            ++rank;
        }
    return out;
}
// The lane of the group's rank-th member.
inline int laneOfRank(unsigned group, unsigned rank) {
    for (unsigned lane = 0; lane < 32; ++lane)
        if ((group >> lane & 1u) && rank-- == 0) return static_cast<int>(lane);
    return -1;
}
} // namespace detail

template <unsigned Size, typename Parent = void> class thread_block_tile {
    static_assert(Size > 0 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "a thread_block_tile has a power-of-two size of at most 32");

public:
    thread_block_tile() = default;
    // A tile of a known parent converts to one whose parent is left open, and back.
    template <typename Other> thread_block_tile(const thread_block_tile<Size, Other>&) {}
    static constexpr unsigned long long num_threads() { return Size; }
    static constexpr unsigned long long size() { return Size; }
    unsigned thread_rank() const { return ::kernelpad::linearThread() % Size; }
    unsigned meta_group_rank() const { return ::kernelpad::linearThread() / Size; }
    unsigned meta_group_size() const { return (kernelpad_block_state.blockThreads + Size - 1) / Size; }
    // The tile's lanes in its warp.
    static unsigned lanes() {
        return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << (::kernelpad::laneId() / Size * Size);
    }
    void sync(std::source_location at = std::source_location::current()) const { __syncwarp(lanes(), at); }
    template <typename T> T shfl(T var, int srcRank, std::source_location at = std::source_location::current()) const {
        return __shfl_sync(lanes(), var, srcRank, Size, at);
    }
    template <typename T> T shfl_down(T var, unsigned delta, std::source_location at = std::source_location::current()) const {
        return __shfl_down_sync(lanes(), var, delta, Size, at);
    }
    template <typename T> T shfl_up(T var, unsigned delta, std::source_location at = std::source_location::current()) const {
        return __shfl_up_sync(lanes(), var, delta, Size, at);
    }
    template <typename T> T shfl_xor(T var, unsigned laneMask, std::source_location at = std::source_location::current()) const {
        return __shfl_xor_sync(lanes(), var, static_cast<int>(laneMask), Size, at);
    }
    unsigned ballot(int predicate, std::source_location at = std::source_location::current()) const {
        return detail::compact(__ballot_sync(lanes(), predicate, at), lanes());
    }
    int any(int predicate, std::source_location at = std::source_location::current()) const {
        return __any_sync(lanes(), predicate, at);
    }
    int all(int predicate, std::source_location at = std::source_location::current()) const {
        return __all_sync(lanes(), predicate, at);
    }
    template <typename T> unsigned match_any(T value, std::source_location at = std::source_location::current()) const {
        return detail::compact(__match_any_sync(lanes(), value, at), lanes());
    }
    template <typename T> unsigned match_all(T value, int& pred, std::source_location at = std::source_location::current()) const {
        return detail::compact(__match_all_sync(lanes(), value, &pred, at), lanes());
    }
    operator thread_group() const { return thread_group(Size); }
};

// The lanes of a warp active together where coalesced_threads() is called, ranked in lane order.
class coalesced_group {
public:
    explicit coalesced_group(unsigned lanes) : lanes_(lanes) {}
    unsigned long long size() const { return static_cast<unsigned long long>(__builtin_popcount(lanes_)); }
    unsigned long long num_threads() const { return size(); }
    unsigned thread_rank() const {
        return static_cast<unsigned>(__builtin_popcount(lanes_ & ((1u << ::kernelpad::laneId()) - 1u)));
    }
    unsigned meta_group_rank() const { return 0; }
    unsigned meta_group_size() const { return 1; }
    void sync(std::source_location at = std::source_location::current()) const { __syncwarp(lanes_, at); }
    template <typename T> T shfl(T var, int srcRank, std::source_location at = std::source_location::current()) const {
        const int lane = detail::laneOfRank(lanes_, static_cast<unsigned>(srcRank) % static_cast<unsigned>(size()));
        return ::kernelpad::shuffle(::kernelpad::Meet::ShuffleIndex, lanes_, var, lane, "coalesced_group::shfl", at);
    }
    template <typename T> T shfl_down(T var, unsigned delta, std::source_location at = std::source_location::current()) const {
        const unsigned rank = thread_rank() + delta;
        const int lane = rank < size() ? detail::laneOfRank(lanes_, rank) : -1;
        return ::kernelpad::shuffle(::kernelpad::Meet::ShuffleDown, lanes_, var, lane, "coalesced_group::shfl_down", at);
    }
    template <typename T> T shfl_up(T var, unsigned delta, std::source_location at = std::source_location::current()) const {
        const unsigned rank = thread_rank();
        const int lane = rank >= delta ? detail::laneOfRank(lanes_, rank - delta) : -1;
        return ::kernelpad::shuffle(::kernelpad::Meet::ShuffleUp, lanes_, var, lane, "coalesced_group::shfl_up", at);
    }
    unsigned ballot(int predicate, std::source_location at = std::source_location::current()) const {
        return detail::compact(__ballot_sync(lanes_, predicate, at), lanes_);
    }
    int any(int predicate, std::source_location at = std::source_location::current()) const { return __any_sync(lanes_, predicate, at); }
    int all(int predicate, std::source_location at = std::source_location::current()) const { return __all_sync(lanes_, predicate, at); }
    template <typename T> unsigned match_any(T value, std::source_location at = std::source_location::current()) const {
        return detail::compact(__match_any_sync(lanes_, value, at), lanes_);
    }
    template <typename T> unsigned match_all(T value, int& pred, std::source_location at = std::source_location::current()) const {
        return detail::compact(__match_all_sync(lanes_, value, &pred, at), lanes_);
    }
    operator thread_group() const { return thread_group(static_cast<unsigned>(size())); }

private:
    unsigned lanes_;
};
inline coalesced_group coalesced_threads(std::source_location at = std::source_location::current()) {
    return coalesced_group(__activemask(at));
}

template <unsigned Size, typename Parent> thread_block_tile<Size, Parent> tiled_partition(const Parent&) { return {}; }
inline thread_group tiled_partition(const thread_group&, unsigned size) { return thread_group(size); }
inline thread_group tiled_partition(const thread_block&, unsigned size) { return thread_group(size); }

template <typename Group> void sync(const Group& group, std::source_location at = std::source_location::current()) {
    group.sync(at);
}
template <typename Group> unsigned thread_rank(const Group& group) { return group.thread_rank(); }
template <typename Group> unsigned long long group_size(const Group& group) { return group.size(); }

template <typename T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <typename T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <typename T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <typename T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <typename T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <typename T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };

namespace detail {
// An integer sum (wrapping, added here as unsigned), minimum, maximum or bitwise operation gives the
// same result in any order, so a whole warp's reduce need not run the butterfly. Not a float's sum,
// whose rounding depends on the order, nor a kernel's own operation.
template <typename T, typename Op> constexpr bool exactInAnyOrder() {
    if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool>) {
        return false;
    } else {
        return std::is_same_v<Op, plus<T>> || std::is_same_v<Op, less<T>> || std::is_same_v<Op, greater<T>> ||
               std::is_same_v<Op, bit_and<T>> || std::is_same_v<Op, bit_or<T>> || std::is_same_v<Op, bit_xor<T>>;
    }
}
// splitTileReduce's results for a warp (below), computed by its first thread to take one. Out of line and
// hidden (a direct call): the per-thread part inlines into the kernel's loop. A whole warp that came runs
// the butterfly without asking who came, in the same order.
template <unsigned Size, typename T, typename Op>
[[gnu::noinline, gnu::visibility("hidden")]] void completeTileReduce(::kernelpad::WarpSlots* x, unsigned t,
                                                                     unsigned long long occasion, Op op,
                                                                     bool light) {
    const unsigned p = occasion & 1;
    // Recorded lightly, the warp was checked whole when the loop ended (completeRecorded): all 32 lanes came.
    if (!light) x->complete(t / 32, occasion); // may throw: a lane the mask names is elsewhere
    x->reduced[p][t / 32] = occasion;
    const unsigned base = t & ~31u;
    T v[32];
    bool came[32];
    bool all = true;
    for (unsigned i = 0; i < 32; ++i) {
        came[i] = light || (base + i < ::kernelpad::kMaxThreads && x->occasion[p][base + i] == occasion);
        v[i] = came[i] ? ::kernelpad::fromBits<T>(x->value[p][base + i]) : T{};
        all = all && came[i];
    }
    if constexpr (exactInAnyOrder<T, Op>()) {
        if (all) { // every lane's result is its group's total, as the butterfly's is
            for (unsigned g = 0; g < 32; g += Size) {
                T total = v[g];
                for (unsigned i = g + 1; i < g + Size; ++i) {
                    if constexpr (std::is_same_v<Op, plus<T>>)
                        total = static_cast<T>(static_cast<std::make_unsigned_t<T>>(total) +
                                               static_cast<std::make_unsigned_t<T>>(v[i]));
                    else
                        total = op(total, v[i]);
                }
                for (unsigned i = g; i < g + Size; ++i) x->result[p][base + i] = ::kernelpad::bitsOf(total);
            }
            return;
        }
    }
    for (unsigned m = Size / 2; m > 0; m /= 2) {
        T next[32];
        if (all) {
            for (unsigned i = 0; i < 32; ++i) next[i] = op(v[i], v[i ^ m]);
        } else {
            for (unsigned i = 0; i < 32; ++i) next[i] = came[i] ? op(v[i], came[i ^ m] ? v[i ^ m] : v[i]) : v[i];
        }
        for (unsigned i = 0; i < 32; ++i) v[i] = next[i];
    }
    for (unsigned i = 0; i < 32; ++i)
        if (came[i]) x->result[p][base + i] = ::kernelpad::bitsOf(v[i]);
}
// reduce over a tile in a kernel split at its warp operations (core/cpu/BarrierSplit.h): one warp
// operation instead of log2(Size) shuffles. Each thread records its value as a __syncwarp of the tile's
// lanes; the warp's first thread to take its result checks the meeting (as any warp operation) and works
// out every lane's result with the butterfly the shuffles run (op(value, the partner's), a partner that
// did not come lending the lane its own value, as a shuffle does), so both ways agree bit for bit.
template <unsigned Size, typename T, typename Op>
[[gnu::always_inline]] inline T splitTileReduce(unsigned lanes, T value, Op op, const std::source_location& at) {
    auto& state = kernelpad_block_state;
    auto* x = static_cast<::kernelpad::WarpSlots*>(state.warpSlots);
    const unsigned t = state.warpThread;
    if (state.warpPhase == 3 && x->missedAt[t] < state.warpBlockStart) {
        // A light record (exchangeWarp's): the value alone. Where every lane of every warp did, the core
        // checks each warp whole when the loop ends and the takes work out its results without complete().
        const unsigned long long occasion = state.warpOccasion;
        const unsigned p = occasion & 1;
        x->value[p][t] = ::kernelpad::bitsOf(value);
        x->what[p][t] = ::kernelpad::Meet::SyncWarp;
        x->last[t] = occasion;
        return value;
    }
    if (state.warpPhase & 1u) { // inlined: the reduce is one operation where the shuffles were five
        ::kernelpad::recordFields(::kernelpad::Meet::SyncWarp, lanes, ::kernelpad::bitsOf(value), -1,
                                  "cooperative_groups::reduce", at);
        return value;
    }
    const unsigned long long occasion = x->last[t];
    const unsigned p = occasion & 1;
    // A warp completed when its light records' loop ended (completeRecorded) has all 32 lanes' values.
    if (x->reduced[p][t / 32] != occasion)
        completeTileReduce<Size, T>(x, t, occasion, op, x->warpDone[p][t / 32] == occasion);
    return ::kernelpad::fromBits<T>(x->result[p][t]);
}
} // namespace detail

// Every thread of the tile gets the whole tile's result. Inlined: called in two passes over every thread
// of a split block, the call's own cost was a fifth of cooperative_groups_reduction's time.
template <unsigned Size, typename Parent, typename T, typename Op>
[[gnu::always_inline]] inline T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op,
         std::source_location at = std::source_location::current()) {
    if (kernelpad_block_state.warpPhase != 0) return detail::splitTileReduce<Size>(tile.lanes(), value, op, at);
    for (unsigned mask = Size / 2; mask > 0; mask /= 2) value = op(value, tile.shfl_xor(value, mask, at));
    return value;
}
// Over a coalesced group (any size): each member combines every member's value, in rank order.
template <typename T, typename Op> T reduce(const coalesced_group& group, T value, Op op) {
    T result = group.shfl(value, 0);
    for (unsigned rank = 1; rank < group.size(); ++rank) result = op(result, group.shfl(value, static_cast<int>(rank)));
    return result;
}
template <unsigned Size, typename Parent, typename T, typename Op>
T inclusive_scan(const thread_block_tile<Size, Parent>& tile, T value, Op op) {
    const unsigned rank = tile.thread_rank();
    for (unsigned delta = 1; delta < Size; delta *= 2) {
        const T other = tile.shfl_up(value, delta);
        if (rank >= delta) value = op(other, value);
    }
    return value;
}
template <unsigned Size, typename Parent, typename T> T inclusive_scan(const thread_block_tile<Size, Parent>& tile, T value) {
    return inclusive_scan(tile, value, plus<T>());
}
// The first thread's result is T{} (the identity of plus and of the bit operators but and).
template <unsigned Size, typename Parent, typename T, typename Op>
T exclusive_scan(const thread_block_tile<Size, Parent>& tile, T value, Op op) {
    const T inclusive = inclusive_scan(tile, value, op);
    const T before = tile.shfl_up(inclusive, 1);
    return tile.thread_rank() == 0 ? T{} : before;
}
template <unsigned Size, typename Parent, typename T> T exclusive_scan(const thread_block_tile<Size, Parent>& tile, T value) {
    return exclusive_scan(tile, value, plus<T>());
}
} // namespace cooperative_groups

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// Atomics: CUDA's overloads (so that atomicAdd(unsigned*, int) converts the value as nvcc does), with
// the same semantics, on std::atomic_ref (blocks run on several cores at once). The _block and _system
// forms are the same operations: on the CPU every scope is the whole process.
namespace kernelpad {
template <typename T> T atomicMinimum(T* address, T value) {
    std::atomic_ref<T> ref(*address);
    T old = ref.load();
    while (value < old && !ref.compare_exchange_weak(old, value)) {}
    return old;
}
template <typename T> T atomicMaximum(T* address, T value) {
    std::atomic_ref<T> ref(*address);
    T old = ref.load();
    while (value > old && !ref.compare_exchange_weak(old, value)) {}
    return old;
}
template <typename T> T atomicCompareExchange(T* address, T compare, T value) {
    std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
    return compare;
}
} // namespace kernelpad
#define KERNELPAD_ATOMIC_SCOPES(name, T, body)                                                          \
    inline T name(T* address, T value) { body }                                                        \
    inline T name##_block(T* address, T value) { body }                                                \
    inline T name##_system(T* address, T value) { body }
#define KERNELPAD_ATOMIC_ADD(T) KERNELPAD_ATOMIC_SCOPES(atomicAdd, T, return std::atomic_ref<T>(*address).fetch_add(value);)
#define KERNELPAD_ATOMIC_SUB(T) KERNELPAD_ATOMIC_SCOPES(atomicSub, T, return std::atomic_ref<T>(*address).fetch_sub(value);)
#define KERNELPAD_ATOMIC_EXCH(T) KERNELPAD_ATOMIC_SCOPES(atomicExch, T, return std::atomic_ref<T>(*address).exchange(value);)
#define KERNELPAD_ATOMIC_MIN(T) KERNELPAD_ATOMIC_SCOPES(atomicMin, T, return ::kernelpad::atomicMinimum(address, value);)
#define KERNELPAD_ATOMIC_MAX(T) KERNELPAD_ATOMIC_SCOPES(atomicMax, T, return ::kernelpad::atomicMaximum(address, value);)
#define KERNELPAD_ATOMIC_BITS(T)                                                                        \
    KERNELPAD_ATOMIC_SCOPES(atomicAnd, T, return std::atomic_ref<T>(*address).fetch_and(value);)       \
    KERNELPAD_ATOMIC_SCOPES(atomicOr, T, return std::atomic_ref<T>(*address).fetch_or(value);)         \
    KERNELPAD_ATOMIC_SCOPES(atomicXor, T, return std::atomic_ref<T>(*address).fetch_xor(value);)
#define KERNELPAD_ATOMIC_CAS(T)                                                                         \
    inline T atomicCAS(T* address, T compare, T value) { return ::kernelpad::atomicCompareExchange(address, compare, value); } \
    inline T atomicCAS_block(T* address, T compare, T value) { return atomicCAS(address, compare, value); } \
    inline T atomicCAS_system(T* address, T compare, T value) { return atomicCAS(address, compare, value); }
KERNELPAD_ATOMIC_ADD(int)
KERNELPAD_ATOMIC_ADD(unsigned int)
KERNELPAD_ATOMIC_ADD(unsigned long long)
KERNELPAD_ATOMIC_ADD(float)
KERNELPAD_ATOMIC_ADD(double)
KERNELPAD_ATOMIC_SUB(int)
KERNELPAD_ATOMIC_SUB(unsigned int)
KERNELPAD_ATOMIC_EXCH(int)
KERNELPAD_ATOMIC_EXCH(unsigned int)
KERNELPAD_ATOMIC_EXCH(unsigned long long)
KERNELPAD_ATOMIC_EXCH(float)
KERNELPAD_ATOMIC_MIN(int)
KERNELPAD_ATOMIC_MIN(unsigned int)
KERNELPAD_ATOMIC_MIN(long long)
KERNELPAD_ATOMIC_MIN(unsigned long long)
KERNELPAD_ATOMIC_MAX(int)
KERNELPAD_ATOMIC_MAX(unsigned int)
KERNELPAD_ATOMIC_MAX(long long)
KERNELPAD_ATOMIC_MAX(unsigned long long)
KERNELPAD_ATOMIC_BITS(int)
KERNELPAD_ATOMIC_BITS(unsigned int)
KERNELPAD_ATOMIC_BITS(unsigned long long)
KERNELPAD_ATOMIC_CAS(int)
KERNELPAD_ATOMIC_CAS(unsigned int)
KERNELPAD_ATOMIC_CAS(unsigned long long)
KERNELPAD_ATOMIC_CAS(unsigned short)
// In the bounds-checking mode an array is a Checked<T>: the atomic acts on the checked element.
#define KERNELPAD_CHECKED_ATOMIC(name)                                                                  \
    template <typename T, typename V> T name(::kernelpad::Checked<T> address, V value) {                  \
        return name(&address[0], static_cast<T>(value));                                                \
    }                                                                                                   \
    template <typename T, typename V> T name##_block(::kernelpad::Checked<T> address, V value) {          \
        return name(&address[0], static_cast<T>(value));                                                \
    }                                                                                                   \
    template <typename T, typename V> T name##_system(::kernelpad::Checked<T> address, V value) {         \
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
template <typename T, typename C, typename V> T atomicCAS(::kernelpad::Checked<T> address, C compare, V value) {
    return atomicCAS(&address[0], static_cast<T>(compare), static_cast<T>(value));
}

// Deferred atomics: the CPU backend's fast path for atomics whose value nobody reads during the launch.
// CpuRunner (core/cpu/DeferredAtomics) rewrites a call such as `atomicAdd(total, v * v);` into
// `_kp_dfAdd(total, v * v);` only where all of these hold, for a pointer parameter P of the kernel:
//   - P appears in the kernel's body only as the address of atomicAdd/Sub/Min/Max/And/Or/Xor calls that
//     are whole statements (their returned old value is discarded), once in each such address;
//   - no #define of the source names P; and, checked at each launch, no other pointer argument of the
//     launch points into P's buffer.
// Then no thread of the launch can read what P points at, so the only observers are later launches and
// the host: each worker folds its threads' operations on one address into one pending value (a sum, a
// maximum, ...) and applies it atomically once its blocks are done, before the launch ends. The final
// value is what the atomics would have left: exactly so for integers, whose operations commute; float
// and double sums are added in another order, as a GPU's atomics also add in no fixed order. Contended
// atomics on one address (a sum of squares into one float, a histogram's 256 bins) thus stop bouncing one
// cache line between cores for every operation.
namespace kernelpad {
struct DeferredSlot {
    void* address;                                  // null: free
    void (*apply)(void*, const unsigned char*);     // the operation and type, applied atomically
    alignas(8) unsigned char value[8];              // the pending operand, in its type's bytes
};
// Integer atomicAdds on a parameter that takes no other atomic (a histogram's bins) add into a window: the
// bytes around the first address a worker adds to, at their offsets from it, one plain add each instead of
// a hash probe. Its adds and the table's never meet at one address: the table then holds other parameters'
// (which do not alias it: checked at each launch), or what falls outside. A sum of integers folds exactly
// in any order, and one that wraps to zero changes nothing: flushed, the non-zero ones are added.
// One window for 4-byte adds and one for 8-byte ones, each in its own type, so that an add is a load of
// `base`, a test of the offset and an add. A parameter's adds all have its type (DeferredAtomics.cpp: no
// casts).
template <typename Bits> struct DeferredWindow {
    static constexpr unsigned long long kBytes = 16384; // an array of up to 8 KiB, wherever it is first hit
    const void* base;                                   // byte 0's address (only offsets from it are used)
    Bits pending[kBytes / sizeof(Bits)];                // no alignas: the table comes from new std::byte[]
};
struct DeferredTable {
    static constexpr unsigned kSlots = 512;         // a power of two; CpuRunner gives each worker this table
    static constexpr unsigned kProbes = 8;
    DeferredSlot slots[kSlots];
    DeferredSlot* recent;                           // the slot last used: a hot address skips the hash
    void* recentAddress;                            // its address and operation, or null: no recent slot
    void (*recentApply)(void*, const unsigned char*);
    unsigned used;
    // The recent slot's sums go to four lanes, picked by the thread's index, and are folded into it when
    // another slot becomes the recent one or the table is flushed: consecutive threads' adds to one
    // address are then four chains of dependent adds and not one (a float add waits for the last one's
    // store: a sum of squares into one float took 2.3 times the reference's time per element).
    // foldLanes is set while the lanes hold a recent slot's sums, in its type (from sumIdentity on).
    void (*foldLanes)(DeferredTable&);
    // Typed, so that the compiler knows an add into a lane changes none of the table's pointers, which it
    // then reads once per loop and not once per thread.
    union Lanes { int i[4]; unsigned u[4]; unsigned long long ull[4]; float f[4]; double d[4]; } lanes;
    DeferredWindow<unsigned> window4;
    DeferredWindow<unsigned long long> window8;
};
// Integer sums wrap, as CUDA's atomics do (in unsigned arithmetic: a signed overflow is undefined in C++).
template <typename T> inline T wrappingSum(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
    else return a + b;
}
struct DeferredAdd { template <typename T> static T fold(T a, T b) { return wrappingSum(a, b); } template <typename T> static void now(T* p, T v) { atomicAdd(p, v); } };
struct DeferredSub { template <typename T> static T fold(T a, T b) { return wrappingSum(a, b); } template <typename T> static void now(T* p, T v) { atomicSub(p, v); } };
struct DeferredMin { template <typename T> static T fold(T a, T b) { return b < a ? b : a; } template <typename T> static void now(T* p, T v) { atomicMin(p, v); } };
struct DeferredMax { template <typename T> static T fold(T a, T b) { return b > a ? b : a; } template <typename T> static void now(T* p, T v) { atomicMax(p, v); } };
struct DeferredAnd { template <typename T> static T fold(T a, T b) { return a & b; } template <typename T> static void now(T* p, T v) { atomicAnd(p, v); } };
struct DeferredOr { template <typename T> static T fold(T a, T b) { return a | b; } template <typename T> static void now(T* p, T v) { atomicOr(p, v); } };
struct DeferredXor { template <typename T> static T fold(T a, T b) { return a ^ b; } template <typename T> static void now(T* p, T v) { atomicXor(p, v); } };
template <typename T> inline T pendingOf(const unsigned char* bytes) { T v; std::memcpy(&v, bytes, sizeof(T)); return v; }
// Hidden: its address, which the fast path compares, is then a constant of this library, not a load.
template <typename Op, typename T> [[gnu::visibility("hidden")]] void applyDeferred(void* address, const unsigned char* value) {
    Op::now(static_cast<T*>(address), pendingOf<T>(value));
}
template <typename Op, typename T> inline void foldInto(DeferredSlot& s, T value) {
    const T folded = Op::fold(pendingOf<T>(s.value), value);
    std::memcpy(s.value, &folded, sizeof(T));
}
// Sums fold in lanes (DeferredTable::lanes): adds and subtracts, whose pending values add up.
template <typename Op, typename T> inline constexpr bool kLanedFold =
    (std::is_same_v<Op, DeferredAdd> || std::is_same_v<Op, DeferredSub>) &&
    (std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, unsigned long long> || std::is_same_v<T, float> || std::is_same_v<T, double>);
template <typename T> inline T (&lanesOf(DeferredTable::Lanes& lanes))[4] {
    if constexpr (std::is_same_v<T, int>) return lanes.i;
    else if constexpr (std::is_same_v<T, unsigned>) return lanes.u;
    else if constexpr (std::is_same_v<T, unsigned long long>) return lanes.ull;
    else if constexpr (std::is_same_v<T, float>) return lanes.f;
    else return lanes.d;
}
// What a sum starts from: -0.0 for floating point, which adds nothing to any value (-0.0 included, which
// +0.0 would turn into +0.0), else zero.
template <typename T> constexpr T sumIdentity() { return std::is_floating_point_v<T> ? static_cast<T>(-0.0) : T{}; }
template <typename T> void mergeLanes(DeferredTable& table) {
    T sum = pendingOf<T>(table.recent->value);
    for (T& lane : lanesOf<T>(table.lanes)) {
        sum = wrappingSum(sum, lane);
        lane = sumIdentity<T>();
    }
    std::memcpy(table.recent->value, &sum, sizeof(T));
}
// Folds the lanes into the recent slot and zeroes them; they go on taking its sums.
inline void settleLanes(DeferredTable& table) {
    if (table.foldLanes) table.foldLanes(table);
}
template <typename Op, typename T> inline void makeRecent(DeferredTable& table, DeferredSlot& s) {
    table.recent = &s;
    table.recentAddress = s.address;
    table.recentApply = s.apply;
    if constexpr (kLanedFold<Op, T>) {
        for (T& lane : lanesOf<T>(table.lanes))
            lane = sumIdentity<T>();
        table.foldLanes = &mergeLanes<T>;
    } else {
        table.foldLanes = nullptr;
    }
}
// A hash probe for the slot of `address`, out of the thread loop (deferred, below, is inlined in it).
template <typename Op, typename T> [[gnu::noinline, gnu::visibility("hidden")]] void deferredProbe(DeferredTable* table, T* address, T value) {
    void (*const apply)(void*, const unsigned char*) = &applyDeferred<Op, T>;
    settleLanes(*table); // the recent slot's lanes go into it before any slot changes
    unsigned slot = static_cast<unsigned>((reinterpret_cast<unsigned long long>(address) >> 2) * 0x9E3779B97F4A7C15ull >> 55) & (DeferredTable::kSlots - 1);
    for (unsigned probe = 0; probe < DeferredTable::kProbes; ++probe, slot = (slot + 1) & (DeferredTable::kSlots - 1)) {
        DeferredSlot& s = table->slots[slot];
        if (s.address == address) {
            if (s.apply != apply) { // another operation on this address: what is pending goes first
                s.apply(s.address, s.value);
                s.apply = apply;
                std::memcpy(s.value, &value, sizeof(T));
            } else {
                foldInto<Op>(s, value);
            }
            makeRecent<Op, T>(*table, s);
            return;
        }
        if (!s.address) {
            s.address = address;
            s.apply = apply;
            std::memcpy(s.value, &value, sizeof(T));
            ++table->used;
            makeRecent<Op, T>(*table, s);
            return;
        }
    }
    Op::now(address, value); // the table is crowded here, and holds nothing for this address
}
template <typename Op, typename T> [[gnu::always_inline]] inline void deferred(T* address, T value) {
    auto* table = static_cast<DeferredTable*>(kernelpad_block_state.deferredAtomics);
    if (!table) { Op::now(address, value); return; }
    if (table->recentAddress == address && table->recentApply == &applyDeferred<Op, T>) {
        if constexpr (kLanedFold<Op, T>) {
            T& lane = lanesOf<T>(table->lanes)[kernelpad_block_state.deferredLane & 3u];
            lane = wrappingSum(lane, value);
        } else {
            foldInto<Op>(*table->recent, value);
        }
        return;
    }
    deferredProbe<Op>(table, address, value);
}
// An integer atomicAdd of a parameter whose atomics are all adds (DeferredAtomics.cpp renames those
// _kp_dwAdd): into the window of its size where it falls in it (or claims it), else into the table.
template <typename T> inline void windowedAdd(T* address, T value) {
    auto* table = static_cast<DeferredTable*>(kernelpad_block_state.deferredAtomics);
    if (!table) { atomicAdd(address, value); return; }
    using Bits = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>; // wraps as CUDA's adds do
    DeferredWindow<Bits>& w = [&]() -> DeferredWindow<Bits>& {
        if constexpr (sizeof(T) == 8) return table->window8; else return table->window4;
    }();
    constexpr unsigned long long kBytes = DeferredWindow<Bits>::kBytes;
    const auto at = reinterpret_cast<unsigned long long>(address);
    unsigned long long offset = at - reinterpret_cast<unsigned long long>(w.base);
    if (offset >= kBytes || !w.base || at % sizeof(T) != 0) [[unlikely]] { // outside, unclaimed, misaligned
        if (w.base || at < kBytes || at % sizeof(T) != 0) { deferred<DeferredAdd>(address, value); return; }
        w.base = reinterpret_cast<const void*>((at - kBytes / 2) & ~7ull);
        offset = at - reinterpret_cast<unsigned long long>(w.base);
    }
    w.pending[offset / sizeof(Bits)] += static_cast<Bits>(value);
}
template <typename Bits> inline void flushWindow(DeferredWindow<Bits>& w) {
    if (!w.base) return;
    constexpr unsigned long long kLine = 64 / sizeof(Bits), kCount = DeferredWindow<Bits>::kBytes / sizeof(Bits);
    for (unsigned long long line = 0; line < kCount; line += kLine) {
        Bits any = 0; // a 64-byte line at a time, most of them empty
        for (unsigned long long i = line; i < line + kLine; ++i)
            any |= w.pending[i];
        if (any == 0) continue;
        for (unsigned long long i = line; i < line + kLine; ++i)
            if (w.pending[i] != 0) {
                atomicAdd(reinterpret_cast<Bits*>(reinterpret_cast<unsigned long long>(w.base) + i * sizeof(Bits)),
                          w.pending[i]);
                w.pending[i] = 0;
            }
    }
    w.base = nullptr;
}
template <typename T> struct DeferredWindowed : std::bool_constant<std::is_same_v<T, int> || std::is_same_v<T, unsigned int> || std::is_same_v<T, unsigned long long>> {};
template <typename T> struct DeferredAddable : std::bool_constant<std::is_same_v<T, int> || std::is_same_v<T, unsigned int> || std::is_same_v<T, unsigned long long> || std::is_same_v<T, float> || std::is_same_v<T, double>> {};
template <typename T> struct DeferredSubtractable : std::bool_constant<std::is_same_v<T, int> || std::is_same_v<T, unsigned int>> {};
template <typename T> struct DeferredOrdered : std::bool_constant<std::is_same_v<T, int> || std::is_same_v<T, unsigned int> || std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long>> {};
template <typename T> struct DeferredBitwise : std::bool_constant<std::is_same_v<T, int> || std::is_same_v<T, unsigned int> || std::is_same_v<T, unsigned long long>> {};
// Applies what a worker's table holds and empties it (the entry kernelpad_flush_deferred, after its blocks).
inline void flushDeferred(void* t) {
    auto* table = static_cast<DeferredTable*>(t);
    if (!table) return;
    flushWindow(table->window4);
    flushWindow(table->window8);
    if (table->used == 0) return;
    settleLanes(*table);
    for (auto& s : table->slots)
        if (s.address) { s.apply(s.address, s.value); s.address = nullptr; }
    table->used = 0;
    table->recent = nullptr;
    table->recentAddress = nullptr;
    table->foldLanes = nullptr;
}
} // namespace kernelpad
// The rewritten calls, named as long as the originals so that columns in messages stay where they were.
// A type CUDA has no such atomic for goes to the original call, which then says so.
// `call` takes the types `Supported` names; `original` the others.
#define KERNELPAD_DEFERRED_CALL(name, original, call, Supported)                                          \
    template <typename T, typename V> inline void name(T* address, V value) {                           \
        if constexpr (::kernelpad::Supported<T>::value) call(address, static_cast<T>(value));            \
        else original(address, value);                                                                   \
    }                                                                                                   \
    template <typename T, typename V> inline void name(::kernelpad::Checked<T> address, V value) { name(&address[0], value); } \
    template <typename T, typename V> inline void name##_block(T address, V value) { name(address, value); } \
    template <typename T, typename V> inline void name##_system(T address, V value) { name(address, value); }
#define KERNELPAD_DEFERRED(name, original, Op, Supported) \
    KERNELPAD_DEFERRED_CALL(name, original, ::kernelpad::deferred<::kernelpad::Op>, Supported)
KERNELPAD_DEFERRED(_kp_dfAdd, atomicAdd, DeferredAdd, DeferredAddable)
KERNELPAD_DEFERRED(_kp_dfSub, atomicSub, DeferredSub, DeferredSubtractable)
KERNELPAD_DEFERRED(_kp_dfMin, atomicMin, DeferredMin, DeferredOrdered)
KERNELPAD_DEFERRED(_kp_dfMax, atomicMax, DeferredMax, DeferredOrdered)
KERNELPAD_DEFERRED(_kp_dfAnd, atomicAnd, DeferredAnd, DeferredBitwise)
KERNELPAD_DEFERRED(_kp_dfOr, atomicOr, DeferredOr, DeferredBitwise)
KERNELPAD_DEFERRED(_kp_dfXor, atomicXor, DeferredXor, DeferredBitwise)
KERNELPAD_DEFERRED_CALL(_kp_dwAdd, _kp_dfAdd, ::kernelpad::windowedAdd, DeferredWindowed)
// Private copies: an integer atomicAdd on a parameter P (among the first ten) whose atomics are all adds
// is renamed _kp_pPAdd (DeferredAtomics.cpp). Where its buffer is small (a histogram's bins), the launch
// gives each worker a zeroed copy of that buffer and passes the kernel a pointer into it
// (core/cpu/GridRun.cpp), and the add is a plain one there, as the serial loop's: no test of where the
// address falls. When its blocks are done, the worker adds what its copy holds into the buffer with
// atomics and zeroes the copy. Nothing in the launch reads P's buffer (the rules above), so the values
// are the atomics' own, as with the windows; an integer sum is exact in any order. Where the launch gives
// no copy (a larger buffer, the bounds mode, an argument that aliases it), the add goes to the window.
namespace kernelpad {
template <unsigned P, typename T> inline void privateAdd(T* address, T value) {
    if (kernelpad_block_state.privateParameters >> P & 1u) [[likely]] {
        using U = std::make_unsigned_t<T>; // wraps, as CUDA's adds do
        *reinterpret_cast<U*>(address) += static_cast<U>(value);
        return;
    }
    windowedAdd(address, value);
}
// Bit i: parameter i is a pointer to an integer type privateAdd takes, and its calls were renamed (bit i
// of `renamed`); bit 32 + i: its elements are 8 bytes. The core gives copies only to these.
template <typename P> constexpr unsigned long long privateBits(unsigned i, unsigned long long renamed) {
    if constexpr (std::is_pointer_v<P>) {
        using T = std::remove_cv_t<std::remove_pointer_t<P>>;
        if (DeferredWindowed<T>::value && (renamed >> i & 1u))
            return (1ull << i) | (sizeof(T) == 8 ? 1ull << (32 + i) : 0ull);
    }
    return 0;
}
template <typename... P, std::size_t... I>
constexpr unsigned long long privateParameters(void (*)(P...), unsigned long long renamed, std::index_sequence<I...>) {
    return (privateBits<P>(static_cast<unsigned>(I), renamed) | ... | 0ull);
}
template <typename... P> constexpr unsigned long long privateParameters(void (*kernel)(P...), unsigned long long renamed) {
    return privateParameters(kernel, renamed, std::index_sequence_for<P...>{});
}
} // namespace kernelpad
#define KERNELPAD_PRIVATE_ADD(P) KERNELPAD_DEFERRED_CALL(_kp_p##P##Add, _kp_dwAdd, ::kernelpad::privateAdd<P>, DeferredWindowed)
// A split kernel's deferred sum into a pointer parameter itself (`atomicAdd(total, v * v)`, renamed as
// above): the block function declares one of these under the call's own name (BarrierSplit.cpp), which then
// stands in for the call in the kernel's body. The block's threads add into `sum`, which the compiler keeps
// in a register through the thread loops, and the sum goes to the call once, when the block ends. In the
// table it waited in memory, and each thread's add waited for the last one's store. So too the deferred
// atomicMin, atomicMax, atomicAnd, atomicOr and atomicXor (`atomicMax(hi, v[i])`): the block's threads
// fold into `sum` from the operation's identity, which leaves any value as it is, and the block's one
// value goes to the call. The operations are associative and commutative, so folding a block's values
// first gives what the threads' atomics one after another would. Another address (or a type the
// operation does not fold here) goes to the call.
namespace kernelpad {
template <typename Op, typename T> inline constexpr bool kBlockFolds =
    kLanedFold<Op, T> ||
    ((std::is_same_v<Op, DeferredMin> || std::is_same_v<Op, DeferredMax>) && DeferredOrdered<T>::value) ||
    ((std::is_same_v<Op, DeferredAnd> || std::is_same_v<Op, DeferredOr> || std::is_same_v<Op, DeferredXor>) &&
     DeferredBitwise<T>::value);
template <typename Op, typename T> constexpr T foldIdentity() {
    if constexpr (std::is_same_v<Op, DeferredMin>) return std::numeric_limits<T>::max();
    else if constexpr (std::is_same_v<Op, DeferredMax>) return std::numeric_limits<T>::lowest();
    else if constexpr (std::is_same_v<Op, DeferredAnd>) return static_cast<T>(~T{});
    else return sumIdentity<T>(); // adds, subtracts (whose pending values add up), or and xor
}
// One sum for each parameter Ts (a call name's parameters named alone: `atomicMax(hi, v)` and
// `atomicMax(floor, v)` share a name), each compared with the address in turn.
template <typename Op, typename Call, typename... T> struct BlockSum {
    std::tuple<T* const...> bases;
    // Whether this launch defers its atomics: not where another argument aliases a deferred parameter's
    // buffer (CpuRunner), which the kernel may then read; each add is then the atomic itself, inline. (A
    // call here, on a path the compiler cannot rule out, would keep a sum in memory: the call may change
    // every vector register.)
    const bool defers = kernelpad_block_state.deferredAtomics != nullptr;
    std::tuple<T...> sums{foldIdentity<Op, T>()...};
    explicit BlockSum(T*... b) : bases(b...) {}
    template <typename A, typename V> [[gnu::always_inline]] void operator()(A address, V value) {
        if (!take(address, value, std::index_sequence_for<T...>{})) Call{}(address, value);
    }
    BlockSum(const BlockSum&) = delete;
    BlockSum& operator=(const BlockSum&) = delete;
    ~BlockSum() { hand(std::index_sequence_for<T...>{}); }

private:
    template <std::size_t I> using Sum = std::tuple_element_t<I, std::tuple<T...>>;
    template <typename A, typename V, std::size_t... I>
    [[gnu::always_inline]] bool take(A address, V value, std::index_sequence<I...>) {
        return (takeOne<I>(address, value) || ...);
    }
    template <std::size_t I, typename A, typename V> [[gnu::always_inline]] bool takeOne(A address, V value) {
        if constexpr (kBlockFolds<Op, Sum<I>> && std::is_same_v<A, Sum<I>*>) {
            if (address == std::get<I>(bases)) [[likely]] { // always, where the body names the parameter alone
                if (defers) [[likely]] std::get<I>(sums) = Op::fold(std::get<I>(sums), static_cast<Sum<I>>(value));
                else Op::now(address, static_cast<Sum<I>>(value));
                return true;
            }
        }
        return false;
    }
    template <std::size_t... I> void hand(std::index_sequence<I...>) {
        if (defers) (handOne<I>(), ...);
    }
    template <std::size_t I> void handOne() {
        if constexpr (kBlockFolds<Op, Sum<I>>) Call{}(std::get<I>(bases), std::get<I>(sums));
    }
};
template <typename Op, typename Call, typename... T> BlockSum<Op, Call, T...> blockSum(Call, T*... bases) {
    return BlockSum<Op, Call, T...>(bases...);
}
// A split kernel's private adds into parameter P at addresses of its own (`atomicAdd(&bins[v], 1u)`
// renamed _kp_p1Add), declared like BlockSum under the call's name. Whether the launch gave this worker a
// copy of P's buffer is read once, for the block, into `copied`; the privateAdd above reads it from the
// thread's state at each add, again after every add's store, which for all the compiler knows may have
// changed it (a tenth of histogram_global's loop). Other types, and no copy, go to the call.
template <unsigned P, typename Call> struct PrivateAdds {
    const bool copied = (kernelpad_block_state.privateParameters >> P & 1u) != 0;
    template <typename A, typename V> [[gnu::always_inline]] void operator()(A address, V value) const {
        if constexpr (std::is_pointer_v<A>) {
            using T = std::remove_pointer_t<A>;
            if constexpr (DeferredWindowed<T>::value) {
                if (copied) [[likely]] {
                    using U = std::make_unsigned_t<T>; // wraps, as CUDA's adds do
                    *reinterpret_cast<U*>(address) += static_cast<U>(static_cast<T>(value));
                    return;
                }
            }
        }
        Call{}(address, value);
    }
};
template <unsigned P, typename Call> PrivateAdds<P, Call> privateAdds(Call) { return {}; }
} // namespace kernelpad
KERNELPAD_PRIVATE_ADD(0)
KERNELPAD_PRIVATE_ADD(1)
KERNELPAD_PRIVATE_ADD(2)
KERNELPAD_PRIVATE_ADD(3)
KERNELPAD_PRIVATE_ADD(4)
KERNELPAD_PRIVATE_ADD(5)
KERNELPAD_PRIVATE_ADD(6)
KERNELPAD_PRIVATE_ADD(7)
KERNELPAD_PRIVATE_ADD(8)
KERNELPAD_PRIVATE_ADD(9)
#undef KERNELPAD_PRIVATE_ADD

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
inline unsigned int atomicInc_block(unsigned int* address, unsigned int limit) { return atomicInc(address, limit); }
inline unsigned int atomicInc_system(unsigned int* address, unsigned int limit) { return atomicInc(address, limit); }
inline unsigned int atomicDec_block(unsigned int* address, unsigned int limit) { return atomicDec(address, limit); }
inline unsigned int atomicDec_system(unsigned int* address, unsigned int limit) { return atomicDec(address, limit); }
template <typename T> unsigned int atomicInc(::kernelpad::Checked<T> address, unsigned int limit) { return atomicInc(&address[0], limit); }
template <typename T> unsigned int atomicDec(::kernelpad::Checked<T> address, unsigned int limit) { return atomicDec(&address[0], limit); }
// atomicAdd in a statement that uses its result, in a kernel split at its warp operations: BarrierSplit
// renames it to warpAtomicAdd. Every lane records its address and value; the warp's first lane to take
// its result adds, for each address, the values of the lanes that name it with one atomic and hands each
// lane the value before its own addition, lanes in order: what the lanes' atomics one after another
// would return. Floating-point values are added one after another too (a compare-and-swap of the whole
// chain), so the sum rounds as that order would. A checked array (bounds mode) acts at once instead.
namespace kernelpad {
// Adds the operands of the lanes in `lanes` (a bit mask for each of `warps` warps, from thread `base` on)
// to the address `target` with one atomic, and hands each lane the value before its own addition, lanes
// in order. Integers wrap, as the lanes' own adds would; floating-point values are added one after
// another (a compare-and-swap of the whole chain), so the sum rounds as that order would.
template <typename T, bool = std::is_integral_v<T>> struct AddedAs { using type = T; };
template <typename T> struct AddedAs<T, true> { using type = std::make_unsigned_t<T>; }; // wrapping
template <typename T>
void addInOrder(WarpSlots* x, unsigned p, unsigned base, const unsigned* lanes, unsigned warps,
                unsigned long long target) {
    using Bits = typename AddedAs<T>::type;
    const auto operand = [&](unsigned t) { return static_cast<Bits>(fromBits<T>(x->operand[p][t])); };
    std::atomic_ref<T> ref(*reinterpret_cast<T*>(static_cast<std::uintptr_t>(target)));
    T old{};
    if constexpr (std::is_integral_v<T>) {
        Bits total = 0;
        for (unsigned w = 0; w < warps; ++w)
            for (unsigned rest = lanes[w]; rest != 0; rest &= rest - 1)
                total += operand(base + w * 32 + static_cast<unsigned>(__builtin_ctz(rest)));
        old = ref.fetch_add(static_cast<T>(total));
    } else {
        old = ref.load();
        for (;;) {
            T now = old;
            for (unsigned w = 0; w < warps; ++w)
                for (unsigned rest = lanes[w]; rest != 0; rest &= rest - 1)
                    now = now + operand(base + w * 32 + static_cast<unsigned>(__builtin_ctz(rest)));
            if (ref.compare_exchange_weak(old, now)) break;
        }
    }
    Bits running = static_cast<Bits>(old);
    for (unsigned w = 0; w < warps; ++w)
        for (unsigned rest = lanes[w]; rest != 0; rest &= rest - 1) {
            const unsigned t = base + w * 32 + static_cast<unsigned>(__builtin_ctz(rest));
            x->result[p][t] = bitsOf(static_cast<T>(running));
            running = running + operand(t);
        }
}
// Which of the `count` threads from `base` on recorded at `occasion`, a bit each, found without branches:
// which come is as random as the data (stream_compaction), and a mispredicted branch per lane cost more
// than the atomics a gather saves.
inline unsigned cameAt(const WarpSlots* x, unsigned p, unsigned base, unsigned count, unsigned long long occasion) {
    unsigned bits = 0;
    for (unsigned j = 0; j < count; ++j) bits |= static_cast<unsigned>(x->occasion[p][base + j] == occasion) << j;
    return bits;
}
// The warp's gathered atomicAdds at one occasion: for each address, one atomic for the lanes that name it.
// Not inlined: once per warp.
template <typename T>
__attribute__((noinline)) void gatherAtomicAdds(WarpSlots* x, unsigned p, unsigned base, unsigned long long occasion) {
    for (unsigned left = cameAt(x, p, base, 32, occasion); left != 0;) { // lanes not yet added
        const unsigned long long target = x->value[p][base + static_cast<unsigned>(__builtin_ctz(left))];
        unsigned same = 0;
        for (unsigned rest = left; rest != 0; rest &= rest - 1) {
            const unsigned i = static_cast<unsigned>(__builtin_ctz(rest));
            if (x->value[p][base + i] == target) same |= 1u << i;
        }
        left &= ~same;
        addInOrder<T>(x, p, base, &same, 1, target);
    }
}
// The whole block's gathered atomicAdds at one occasion, taken by its first thread to take one (the block
// recorded them all before): where every thread that came names one address (a counter), one atomic for
// the block, each thread handed the value before its own addition, threads in order, as if the block's
// atomics ran one after another, which CUDA allows. One locked instruction per block rather than per warp
// on the line every core counts into (stream_compaction). Otherwise each warp's, as gatherAtomicAdds.
template <typename T>
__attribute__((noinline)) void gatherBlockAtomicAdds(WarpSlots* x, unsigned p, unsigned long long occasion) {
    const unsigned threads = kernelpad_block_state.blockThreads, warps = (threads + 31) / 32;
    unsigned came[kMaxThreads / 32];
    for (unsigned w = 0; w < warps; ++w)
        came[w] = cameAt(x, p, w * 32, threads - w * 32 < 32 ? threads - w * 32 : 32, occasion);
    unsigned long long target = 0;
    bool any = false, one = true;
    for (unsigned w = 0; w < warps; ++w)
        for (unsigned rest = came[w]; rest != 0; rest &= rest - 1) {
            const unsigned long long v = x->value[p][w * 32 + static_cast<unsigned>(__builtin_ctz(rest))];
            if (!any) target = v;
            any = true;
            one &= v == target;
        }
    if (any && one)
        addInOrder<T>(x, p, 0, came, warps, target);
    else if (any)
        for (unsigned w = 0; w < warps; ++w)
            if (came[w] != 0) gatherAtomicAdds<T>(x, p, w * 32, occasion);
    for (unsigned w = 0; w < warps; ++w) x->warpDone[p][w] = occasion;
}
// An atomic is not a warp operation: a lane a warp operation missed may still call it, and nothing
// waits for lanes that do not come. So it records and takes without the warp operations' checks.
template <typename T, typename V>
inline T warpAtomicAdd(T* address, V v) {
    if constexpr (!requires { ::atomicAdd(address, static_cast<T>(v)); }) {
        return ::atomicAdd(address, v); // a type CUDA has no atomicAdd for: the original says so
    } else {
        auto& state = kernelpad_block_state;
        auto* x = static_cast<WarpSlots*>(state.warpSlots);
        const unsigned t = state.warpThread;
        if (state.warpPhase == 1) {
            x->operand[recordAtOccasion(x, t, reinterpret_cast<std::uintptr_t>(address))][t] =
                bitsOf(static_cast<T>(v));
            return T{};
        }
        const unsigned long long occasion = x->last[t];
        const unsigned p = occasion & 1;
        if (x->warpDone[p][t / 32] != occasion) gatherBlockAtomicAdds<T>(x, p, occasion);
        return fromBits<T>(x->result[p][t]);
    }
}
template <typename T, typename V> inline T warpAtomicAdd(Checked<T> address, V v) {
    auto& state = kernelpad_block_state;
    auto* x = static_cast<WarpSlots*>(state.warpSlots);
    const unsigned t = state.warpThread;
    if (state.warpPhase == 1) { // acts at once, its result kept for the take
        const unsigned long long occasion = state.warpOccasion;
        x->operand[occasion & 1][t] = bitsOf(::atomicAdd(address, v));
        x->last[t] = occasion;
        return T{};
    }
    return fromBits<T>(x->operand[x->last[t] & 1][t]);
}
} // namespace kernelpad

// Atomics on shared memory: CpuRunner (core/cpu/DeferredAtomics) renames `atomicAdd(&bins[v], 1)` to
// `_kp_shAdd(&bins[v], 1)` where the address is in a __shared__ array or variable the kernel declares. A
// block's threads all run on one worker thread (a loop, the split's loops, or fibers that switch only
// where threads meet), and its shared memory is its own: a plain read-modify-write cannot be interleaved
// with another thread's, so it is the atomic, returned old value included, without a locked instruction.
// A type CUDA has no such atomic for goes to the original call, which then says so.
#define KERNELPAD_SHARED_ATOMIC(name, original, update)                                                    \
    template <typename T, typename V> inline T name(T* address, V value) {                               \
        if constexpr (requires { original(address, static_cast<T>(value)); }) {                          \
            const T old = *address;                                                                      \
            const T operand = static_cast<T>(value);                                                     \
            *address = update;                                                                           \
            return old;                                                                                  \
        } else {                                                                                         \
            return original(address, value);                                                             \
        }                                                                                                \
    }                                                                                                    \
    template <typename T, typename V> inline T name(::kernelpad::Checked<T> address, V value) { return name(&address[0], value); } \
    template <typename T, typename V> inline auto name##_block(T address, V value) { return name(address, value); } \
    template <typename T, typename V> inline auto name##_system(T address, V value) { return name(address, value); }
KERNELPAD_SHARED_ATOMIC(_kp_shAdd, atomicAdd, old + operand)
KERNELPAD_SHARED_ATOMIC(_kp_shSub, atomicSub, old - operand)
KERNELPAD_SHARED_ATOMIC(_kp_shMin, atomicMin, operand < old ? operand : old)
KERNELPAD_SHARED_ATOMIC(_kp_shMax, atomicMax, operand > old ? operand : old)
KERNELPAD_SHARED_ATOMIC(_kp_shAnd, atomicAnd, old & operand)
KERNELPAD_SHARED_ATOMIC(_kp_shOr, atomicOr, old | operand)
KERNELPAD_SHARED_ATOMIC(_kp_shXor, atomicXor, old ^ operand)
KERNELPAD_SHARED_ATOMIC(_kp_shExch, atomicExch, operand)
template <typename T, typename C, typename V> inline T _kp_shCAS(T* address, C compare, V value) {
    if constexpr (requires { atomicCAS(address, static_cast<T>(compare), static_cast<T>(value)); }) {
        const T old = *address;
        if (old == static_cast<T>(compare)) *address = static_cast<T>(value);
        return old;
    } else {
        return atomicCAS(address, compare, value);
    }
}
template <typename T, typename C, typename V> inline T _kp_shCAS(::kernelpad::Checked<T> address, C compare, V value) { return _kp_shCAS(&address[0], compare, value); }
template <typename T, typename C, typename V> inline auto _kp_shCAS_block(T address, C compare, V value) { return _kp_shCAS(address, compare, value); }
template <typename T, typename C, typename V> inline auto _kp_shCAS_system(T address, C compare, V value) { return _kp_shCAS(address, compare, value); }

// atomicInc and atomicDec on shared memory, as CUDA defines them (see above).
inline unsigned int _kp_shInc(unsigned int* address, unsigned int limit) {
    const unsigned int old = *address;
    *address = old >= limit ? 0u : old + 1u;
    return old;
}
inline unsigned int _kp_shDec(unsigned int* address, unsigned int limit) {
    const unsigned int old = *address;
    *address = (old == 0u || old > limit) ? limit : old - 1u;
    return old;
}
template <typename T> unsigned int _kp_shInc(::kernelpad::Checked<T> address, unsigned int limit) { return _kp_shInc(&address[0], limit); }
template <typename T> unsigned int _kp_shDec(::kernelpad::Checked<T> address, unsigned int limit) { return _kp_shDec(&address[0], limit); }
template <typename T> unsigned int _kp_shInc_block(T address, unsigned int limit) { return _kp_shInc(address, limit); }
template <typename T> unsigned int _kp_shDec_block(T address, unsigned int limit) { return _kp_shDec(address, limit); }
template <typename T> unsigned int _kp_shInc_system(T address, unsigned int limit) { return _kp_shInc(address, limit); }
template <typename T> unsigned int _kp_shDec_system(T address, unsigned int limit) { return _kp_shDec(address, limit); }

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
