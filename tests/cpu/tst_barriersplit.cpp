// Kernels split at their barriers (BarrierSplit.h) must compute exactly what the same kernels compute
// with one fiber per thread, the CPU backend's general path. Each case runs both ways and compares, and
// says whether the split happened; kernels the split cannot take must fall back to fibers and still be
// right. Runs in CI (no GPU).
#include "../TestSupport.h"
#include "core/cpu/BarrierSplit.h"
#include "core/cpu/CpuRunner.h"
#include "core/io/PlaygroundFile.h"

#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <optional>

using namespace kp;

namespace {

nlohmann::json ints(const std::string& name, std::size_t n, const std::string& direction = "inout") {
    return {{"name", name},
            {"array", {{"dtype", "int32"}, {"shape", {n}}}},
            {"direction", direction},
            {"init", {{"range", {{"start", 0}, {"step", 1}}}}}};
}
nlohmann::json scalarInt(const std::string& name, int value) {
    return {{"name", name}, {"scalar", {{"dtype", "int32"}}}, {"value", value}};
}

// Where the split run's `a` differs from the fibers' (or the kernel changed none of its values 0, 1, 2, ...):
// what is wrong; empty where they agree.
template <typename Result> QString differsFromFibers(const Result& split, const Result& fibers) {
    const auto* x = split.output("a");
    const auto* y = fibers.output("a");
    if (!x || !y) return QStringLiteral("no output a");
    bool changed = false;
    for (std::size_t i = 0; i < x->size(); ++i) {
        if (x->value(i) != y->value(i))
            return QString("a[%1]: split %2, fibers %3").arg(i).arg(x->value(i)).arg(y->value(i));
        changed = changed || x->value(i) != static_cast<double>(i);
    }
    return changed ? QString() : QStringLiteral("the kernel changed nothing in a");
}

} // namespace

// An exclusive scan of each block's 2 * blockDim.x elements in place (Blelloch's up- and down-sweep), its
// stride `offset` a variable every thread changes alike: the pattern of course scans.
const char* const kScan = R"(
__global__ void k(int* a, int n) {
    __shared__ int temp[64];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * 2 * blockDim.x;
    temp[tid] = a[base + tid];
    temp[tid + blockDim.x] = a[base + tid + blockDim.x];
    int offset = 1;
    for (int d = blockDim.x; d > 0; d /= 2) {
        __syncthreads();
        if (tid < d) {
            const int right = offset * (2 * tid + 2) - 1;
            temp[right] += temp[right - offset];
        }
        offset *= 2;
    }
    if (tid == 0) temp[2 * blockDim.x - 1] = 0;
    for (int d = 1; d <= blockDim.x; d *= 2) {
        offset /= 2;
        __syncthreads();
        if (tid < d) {
            const int right = offset * (2 * tid + 2) - 1;
            const int left = right - offset;
            const int value = temp[left];
            temp[left] = temp[right];
            temp[right] += value;
        }
    }
    __syncthreads();
    a[base + tid] = temp[tid];
    a[base + tid + blockDim.x] = temp[tid + blockDim.x];
})";

class TestBarrierSplit : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    std::optional<cpu::CpuRunner> split_, fibers_;

    launch::RunSetup setupOf(const std::string& code, const std::string& kernel,
                             const std::vector<nlohmann::json>& args, const nlohmann::json& launch) {
        return test::setupOf(code, kernel, args, launch, cache_.filePath("t.kpad.json").toStdString());
    }

private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        split_.emplace(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 2);
        fibers_.emplace(cpu::HostCompiler(std::string(), cache_.path().toStdString()), 2);
        fibers_->setSplitAtBarriers(false);
    }

    void sameResultsAsFibers_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("launch");
        QTest::addColumn<bool>("splits");
        const QString grid1 = R"({"grid": [3], "block": [64]})";
        QTest::newRow("reduction with alias, uniform loop, narrowed ifs") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    const unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? a[i] : 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) a[blockIdx.x * blockDim.x] = s[0];
})" << grid1 << true;
        // A kernel without barriers whose grid-stride loop has statements after it: the body splits
        // there, the loop runs in passes of the block, and the locals it carries live in the frame.
        QTest::newRow("grid-stride loop between statements, no barrier")
            << R"(
__global__ void k(int* a, int n) {
    int acc = threadIdx.x, count = 0;
    const int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 150; i += stride) {
        acc += a[i] * 3;
        ++count;
    }
    if (count > 2) acc -= n;
    a[blockIdx.x * blockDim.x + threadIdx.x] = acc * 10 + count;
})"
            << R"({"grid": [2], "block": [32]})" << true;
        QTest::newRow("grid-stride loop between statements, no barrier, a return before it")
            << R"(
__global__ void k(int* a, int n) {
    int acc = 1;
    if (threadIdx.x % 3 == 1) return;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 150; i += blockDim.x * gridDim.x)
        acc += a[i];
    a[blockIdx.x * blockDim.x + threadIdx.x] = acc - n;
})"
            << R"({"grid": [2], "block": [32]})" << true;
        QTest::newRow("parameters each thread changes: a pointer moved, a count lowered") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    a += blockIdx.x * blockDim.x;
    n -= threadIdx.x % 3;
    s[threadIdx.x] = a[threadIdx.x] + n;
    __syncthreads();
    a[threadIdx.x] = s[63 - threadIdx.x] * 2 + n;
})" << grid1 << true;
        QTest::newRow("early return before a barrier") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = -1;
    if (t >= n) return;
    s[t] = a[blockIdx.x * blockDim.x + t] * 2;
    __syncthreads();
    a[blockIdx.x * blockDim.x + t] = s[(t + 1) % n] + t;
})" << grid1 << true;
        QTest::newRow("divergent if around a barrier, with else") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    if (a[base + t] % 3 == 0) {
        s[t] = 1;
        __syncthreads();
        a[base + t] += s[t];
    } else {
        s[t] = 2;
        __syncthreads();
        a[base + t] -= s[t];
    }
})" << grid1 << true;
        QTest::newRow("per-thread trip counts: while and do around barriers") << R"(
__global__ void k(int* a, int n) {
    int t = threadIdx.x, left = t % 5, done = 0;
    while (left > 0) {
        done += left;
        __syncthreads();
        --left;
    }
    int j = 0;
    do { j += 2; __syncthreads(); } while (j < t % 3);
    a[blockIdx.x * blockDim.x + t] = done * 100 + j;
})" << grid1 << true;
        QTest::newRow("variables across barriers: several declarators, arrays, pointers") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, u = 2 * t, v;
    int w[3];
    int* p = a + blockIdx.x * blockDim.x;
    w[0] = t; w[1] = u; w[2] = t * t;
    v = p[t];
    s[t] = v;
    __syncthreads();
    p[t] = s[63 - t] + w[0] + w[1] + w[2] + v;
})" << grid1 << true;
        QTest::newRow("2D block, tiles with a constant size, uniform loop over a parameter")
            << R"(
#define TILE 8
__global__ void k(int* a, int n) {
    const int size = TILE;
    __shared__ int tile[size][size];
    int x = threadIdx.x, y = threadIdx.y;
    int total = 0;
    for (int step = 0; step < n; ++step) {
        tile[y][x] = a[blockIdx.x * size * size + (y * size + x + step) % (size * size)];
        __syncthreads();
        total += tile[x][y];
        __syncthreads();
    }
    a[blockIdx.x * size * size + y * size + x] = total;
})"
            << R"({"grid": [3], "block": [8, 8]})" << true;
        QTest::newRow("narrowing keeps C++'s conversions: int alias against a negative bound") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    if (t < n - 100) s[t] = 7;
    __syncthreads();
    if (threadIdx.x < n - 100) s[t] += 1000;
    __syncthreads();
    a[blockIdx.x * blockDim.x + t] = s[t];
})" << grid1 << true;
        QTest::newRow("a comparison that is not the whole condition is not narrowed") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = tid;
    __syncthreads();
    if (tid == 0 || n > 0) s[tid] += 100;
    __syncthreads();
    if (threadIdx.x < 8 && n > 1000) s[tid] += 5;
    __syncthreads();
    a[blockIdx.x * blockDim.x + tid] = s[tid];
})" << grid1 << true;
        QTest::newRow("barrier-free kernel with return") << R"(
__global__ void k(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % 7 == 0) return;
    for (int r = 0; r < 3; ++r) { if (r == 1) continue; a[i] += r; }
})" << grid1 << true;
        QTest::newRow("helper reading threadIdx") << R"(
__device__ int lane() { return threadIdx.x % 32; }
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    s[threadIdx.x] = lane();
    __syncthreads();
    a[blockIdx.x * blockDim.x + threadIdx.x] = s[63 - threadIdx.x];
})" << grid1 << true;
        // Block-uniform variables (one per block, changed once between thread loops) against fibers.
        QTest::newRow("Blelloch scan: uniform offset doubled and halved, narrowed ifs")
            << kScan << R"({"grid": [3], "block": [32]})" << true;
        QTest::newRow("uniform variable in a while condition and its body") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, width = 1;
    s[t] = a[blockIdx.x * 64 + t];
    while (width < 64) {
        __syncthreads();
        const int from = t >= width ? s[t - width] : 0;
        __syncthreads();
        s[t] += from;
        width = width * 2;
    }
    a[blockIdx.x * 64 + t] = s[t] + width;
})" << grid1 << true;
        QTest::newRow("uniform variable declared in a uniform loop's body, set again each time") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    for (int r = 0; r < 3; ++r) {
        int scale = r + n;
        __syncthreads();
        s[t] += scale;
        ++scale;
        __syncthreads();
        s[63 - t] += scale;
    }
    __syncthreads();
    a[blockIdx.x * 64 + t] = s[t];
})" << grid1 << true;
        QTest::newRow("not uniform: changed in a divergent branch") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, step = 1;
    s[t] = t;
    if (t % 3 == 0) step = 5;
    __syncthreads();
    a[blockIdx.x * 64 + t] = s[63 - t] * step;
})" << grid1 << true;
        QTest::newRow("not uniform: passed to a helper that writes through a reference") << R"(
__device__ void bump(int& v, int by) { v += by; }
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, total = 10;
    bump(total, t);
    s[t] = total;
    __syncthreads();
    a[blockIdx.x * 64 + t] = s[63 - t] + total;
})" << grid1 << true;
        QTest::newRow("not uniform: its address taken") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, count = 0;
    int* p = &count;
    *p += t;
    s[t] = t;
    __syncthreads();
    a[blockIdx.x * 64 + t] = s[63 - t] + count;
})" << grid1 << true;
        QTest::newRow("not uniform: its address taken through a cast") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    unsigned count = 1;
    *(int*)&count += t;
    s[t] = t;
    __syncthreads();
    a[blockIdx.x * 64 + t] = s[63 - t] + (int)count;
})" << grid1 << true;
        QTest::newRow("uniform: loop variables in a binary and (a bitonic sort's direction)") << R"(
__device__ void order(int& x, int& y, bool up) { if ((x > y) == up) { int t = x; x = y; y = t; } }
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    const int t = threadIdx.x, first = blockIdx.x * 64;
    s[t] = (a[first + t] * 37) % 64;
    for (int size = 2; size <= 64; size *= 2) {
        for (int j = size / 2; j > 0; j /= 2) {
            __syncthreads();
            const int i = 2 * t - (t & (j - 1));
            if (i + j < 64 && t < 32) order(s[i], s[i + j], ((first + i) & size) == 0);
        }
    }
    __syncthreads();
    a[first + t] = s[t] + (s[t] & n) + (3 & n);
})" << grid1 << true;
        QTest::newRow("a global of the same name is read after the block of a variable across a barrier")
            << R"(
__device__ int scale = 3;
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    {
        int scale = 2;
        s[t] = t * scale;
        __syncthreads();
        a[blockIdx.x * 64 + t] = s[63 - t] * scale;
    }
    a[blockIdx.x * 64 + t] += scale;
})" << grid1 << true;
        // Frame variables held in locals while a region runs, written back at its end.
        QTest::newRow("tiled product: a running sum across barriers, changed in a loop") << R"(
__global__ void k(int* a, int n) {
    __shared__ int tile[64];
    const int t = threadIdx.x;
    int sum = 0, calls = 0;
    for (int step = 0; step < 4; ++step) {
        tile[t] = a[blockIdx.x * 64 + (t + step * 7) % 64];
        __syncthreads();
        for (int j = 0; j < 64; ++j)
            sum += tile[j] * (j % 3 == t % 3 ? 1 : -1);
        ++calls;
        __syncthreads();
    }
    a[blockIdx.x * 64 + t] = sum * 10 + calls;
})" << grid1 << true;
        QTest::newRow("a frame variable whose address is taken stays in its slot") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, v = t;
    int* p = &v;
    s[t] = t;
    __syncthreads();
    *p += s[63 - t];
    __syncthreads();
    a[blockIdx.x * 64 + t] = v + *p;
})" << grid1 << true;
        QTest::newRow("an inner variable hides a frame variable of the same name") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, v = 3 * t;
    s[t] = v;
    __syncthreads();
    { int v = s[63 - t]; a[blockIdx.x * 64 + t] = v; }
    __syncthreads();
    a[blockIdx.x * 64 + t] += v;
})" << grid1 << true;
        QTest::newRow("break across a barrier: fibers") << R"(
__global__ void k(int* a, int n) {
    int t = threadIdx.x, i = 0;
    for (;;) {
        __syncthreads();
        if (++i > t % 4) break;
    }
    a[blockIdx.x * blockDim.x + t] = i;
})" << grid1 << false;
        // Warp operations split too: each statement that calls one runs for every thread to record, then
        // again to take the result (WarpExchange.h). 64 threads a block: two warps.
        QTest::newRow("warp: shuffle-down sum in a helper, twice, around a barrier") << R"(
#define FULL 0xffffffffu
__device__ int warpSum(int v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL, v, offset);
    return v;
}
__global__ void k(int* a, int n) {
    __shared__ int sums[2];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[i] * a[i] % 97;
    v = warpSum(v);
    if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        int w = threadIdx.x < 2 ? sums[threadIdx.x] : 0;
        const int total = warpSum(w);
        if (threadIdx.x == 0) a[blockIdx.x * blockDim.x] = total;
    }
    a[i] += 1000;
})" << grid1 << true;
        // CUDA's samples spell the helper `__inline__ __device__`: the specifier is no part of its type.
        QTest::newRow("warp: an __inline__ helper's shuffle-down sum") << R"(
__inline__ __device__ int warpReduce(int v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}
static constexpr __device__ int twice(int v) { return 2 * v; }
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = warpReduce(a[i] % 13);
    if ((threadIdx.x & (warpSize - 1)) == 0) a[i] = twice(v);
})" << grid1 << true;
        QTest::newRow("warp: xor butterfly, up-scan with width, ballot and votes") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    int v = a[i] % 7;
    int all = v;
    for (int m = 1; m < 32; m *= 2)
        all += __shfl_xor_sync(0xffffffffu, all, m);
    int scan = v;
    for (int d = 1; d < 16; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, scan, d, 16);
        if (lane % 16 >= d) scan += up;
    }
    unsigned odd = __ballot_sync(0xffffffffu, v % 2);
    int any = __any_sync(0xffffffffu, v == 6);
    int every = __all_sync(0xffffffffu, v < 7);
    int sum = __reduce_add_sync(0xffffffffu, v);
    __syncwarp();
    a[i] = all * 1000000 + scan * 10000 + __popc(odd) * 100 + any * 10 + every + sum * 3;
})" << grid1 << true;
        QTest::newRow("warp: a divergent loop, __activemask and __match_any_sync") << R"(
__global__ void k(int* a, int n) {
    __shared__ int counts[8];
    if (threadIdx.x < 8) counts[threadIdx.x] = 0;
    __syncthreads();
    const int lane = threadIdx.x % 32;
    for (int j = threadIdx.x; j < 100 + blockIdx.x * 7; j += blockDim.x) {
        const unsigned active = __activemask();
        const unsigned value = (j * 37 + blockIdx.x) % 8;
        const unsigned peers = __match_any_sync(active, value);
        if (lane == __ffs(peers) - 1) atomicAdd(&counts[value], __popc(peers) * 100 + __popc(active));
    }
    __syncthreads();
    if (threadIdx.x < 8) a[blockIdx.x * blockDim.x + threadIdx.x] = counts[threadIdx.x];
})" << grid1 << true;
        // __activemask() that begins a region is computed for the block (no record): at a loop's pass
        // with lanes that returned in earlier passes, and as a branch's whole body; the second call in the
        // loop, after a statement that may return, records as before.
        QTest::newRow("warp: __activemask begins a pass, lanes return in the loop") << R"(
__global__ void k(int* a, int n) {
    const int me = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = threadIdx.x; j < 40 + blockIdx.x * 9; j += 5 + threadIdx.x % 4) {
        const unsigned active = __activemask();
        if (j % 11 == 3) return;
        const unsigned still = __activemask();
        const unsigned peers = __match_any_sync(still, j % 3);
        a[me] += __popc(active) * 10000 + __popc(still) * 100 + __popc(peers);
    }
})" << grid1 << true;
        QTest::newRow("warp: __activemask as a branch's whole body") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = 7;
    if (threadIdx.x % 3 != 1 && i < 150)
        m = __activemask();
    a[i] = static_cast<int>(m ^ (m >> 7));
})" << grid1 << true;
        QTest::newRow("warp: half-warp masks in a branch, returned lanes") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    int v = a[i];
    if (lane >= 28) { a[i] = -1; return; }
    if (lane < 16) {
        v += __shfl_down_sync(0x0000ffffu, v, 3);
    } else {
        v -= __shfl_sync(0x0fff0000u, v, 17);
    }
    v += __shfl_down_sync(0xffffffffu, v, 2);
    a[i] = v;
})" << grid1 << true;
        QTest::newRow("warp: helpers with a void call and a declaration") << R"(
__device__ void broadcast(int* out, int v) {
    out[threadIdx.x] = __shfl_sync(0xffffffffu, v, 5) + v;
}
__device__ unsigned votes(int p) {
    const unsigned b = __ballot_sync(0xffffffffu, p);
    return b ^ 0x1u;
}
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    broadcast(a + blockIdx.x * blockDim.x, a[i] * 3);
    __syncwarp();
    const unsigned b = votes(a[i] % 3 == 0);
    a[i] += static_cast<int>(b % 1000);
})" << grid1 << true;
        // A plain intrinsic records lightly first (WarpExchange.h). A last warp of 16 lanes, and a site
        // whose mask is full in some passes and half in others, record again in full; ballots and
        // matches of whole warps complete at once.
        QTest::newRow("warp: light records, a block of 48 threads")
            << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[i] * 7 % 23;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    a[i] = v * 100 + __popc(__ballot_sync(0xffffffffu, a[i] % 3 == 0));
})"
            << R"({"grid": [4], "block": [48]})" << true;
        QTest::newRow("warp: a site's mask full in some passes, half in others") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    int v = a[i] % 13;
    for (int j = 0; j < 5; ++j) {
        if (j % 2 == 1 || lane < 16)
            v += __shfl_xor_sync(j % 2 == 1 ? 0xffffffffu : 0x0000ffffu, v, 1 + j % 4) * (j + 1);
        const unsigned peers = __match_any_sync(0xffffffffu, v % 4);
        v += __popc(peers);
    }
    a[i] = v;
})" << grid1 << true;
        // cg::reduce records lightly too: a warp of 16 lanes, or one whose second tile does not call, makes
        // the loop record again in full, and the warps the core had already checked whole take their results
        // from the values alone beside warps completed in full.
        QTest::newRow("groups: light tile reduces, a block of 48 threads, a tile that does not call")
            << R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int n) {
    auto block = cg::this_thread_block();
    auto sixteen = cg::tiled_partition<16>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[i] % 1000;
    const int s = cg::reduce(sixteen, v, cg::plus<int>());
    int m = 0;
    if (threadIdx.x < 16 || threadIdx.x >= 32) m = cg::reduce(sixteen, v * 3 - s, cg::greater<int>());
    a[i] = s * 7 + m;
})"
            << R"({"grid": [3], "block": [48]})" << true;
        QTest::newRow("groups: light tile reduces, warps checked whole beside warps completed in full")
            << R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int n) {
    auto block = cg::this_thread_block();
    auto sixteen = cg::tiled_partition<16>(block);
    auto warp = cg::tiled_partition<32>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long v = a[i] % 977;
    for (int r = 0; r < 4; ++r) {
        if (r % 2 == 1 || threadIdx.x < 48 || threadIdx.x >= 64)
            v = cg::reduce(sixteen, v * (r + 2) + threadIdx.x, cg::plus<long long>()) % 100003;
        v += cg::reduce(warp, v % 17, cg::less<long long>());
    }
    a[i] = static_cast<int>(v);
})"
            << R"({"grid": [3], "block": [128]})" << true;
        QTest::newRow("warp: a shuffle in a condition: fibers") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (__shfl_sync(0xffffffffu, a[i], 0) % 2 == 0) a[i] = 7;
    else a[i] = 9;
})" << grid1 << false;
        QTest::newRow("groups: tile reduce, block sync, a second reduce in the first tile") << R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ int sums[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int mine = a[i] * (i % 7);
    int s = cg::reduce(tile, mine, cg::plus<int>());
    if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = s;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        int t = tile.thread_rank() < tile.meta_group_size() ? sums[tile.thread_rank()] : 0;
        t = cg::reduce(tile, t, cg::plus<int>());
        a[i] = t + (int)block.thread_rank();
    } else {
        a[i] = s - mine;
    }
})" << grid1 << true;
        QTest::newRow("groups: tiles of 8 and 16, shuffles in a loop, votes, tile sync, max") << R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
__global__ void k(int* a, int n) {
    auto block = cooperative_groups::this_thread_block();
    auto eight = cooperative_groups::tiled_partition<8>(block);
    cooperative_groups::thread_block_tile<16> sixteen = cooperative_groups::tiled_partition<16>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[i] % 11;
    for (int o = 4; o > 0; o /= 2) v += eight.shfl_down(v, o);
    const unsigned odd = eight.ballot(v % 2);
    eight.sync();
    const int top = cooperative_groups::reduce(sixteen, a[i] % 13, cooperative_groups::greater<int>());
    cooperative_groups::sync(block);
    const int left = sixteen.shfl_up(top + v, 3);
    a[i] = v * 1000 + (int)odd * 10 + top + left * 100000;
})" << grid1 << true;
        QTest::newRow("groups: using namespace, unqualified") << R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
using namespace cooperative_groups;
__global__ void k(int* a, int n) {
    thread_block b = this_thread_block();
    thread_block_tile<32> w = tiled_partition<32>(b);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const long long total = reduce(w, static_cast<long long>(a[i]) << 20, plus<long long>());
    sync(b);
    const int over = w.any(a[i] > n);
    a[i] = static_cast<int>(total >> 16) + over;
})" << grid1 << true;
        QTest::newRow("groups: a tile passed to a helper: fibers") << R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__device__ int sum(cg::thread_block_tile<32> t, int v) { return cg::reduce(t, v, cg::plus<int>()); }
__global__ void k(int* a, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = sum(tile, a[i]);
})" << grid1 << false;
        QTest::newRow("groups: coalesced threads: fibers") << R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (a[i] % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        a[i] = active.thread_rank() * 10 + active.size();
    }
})" << grid1 << false;
        QTest::newRow("groups: reduce in a condition: fibers") << R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (cg::reduce(tile, a[i], cg::plus<int>()) > 1000) a[i] = -a[i];
    else a[i] += 1;
})" << grid1 << false;
        QTest::newRow("atomics: a block's counter, slots taken in thread order") << R"(
__global__ void k(int* a, int n) {
    const int base = blockIdx.x * blockDim.x;
    const int t = threadIdx.x;
    const int v = a[base + t];
    __syncthreads();
    if (t > 0 && v % 3 != 1) {
        const int slot = atomicAdd(&a[base], 2);
        a[base + t] = slot * 1000 + v;
    }
})" << grid1 << true;
        // (In a loop, fibers run a thread's iterations before the next thread's, the split an iteration of
        // every thread before the next: both orders of the atomics are CUDA's, but they differ.)
        // Each pass of a loop's threads ends with the increment and the test in the body's last region. A
        // `for (;;)` whose threads all return ends there too (it used to go round for ever).
        QTest::newRow("loops: for (;;) left by returning") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int step = 0;
    for (;;) {
        s[threadIdx.x] = step;
        __syncthreads();
        const int seen = s[(threadIdx.x + 1) % 64];
        if (seen == 3) {
            a[blockIdx.x * blockDim.x + threadIdx.x] = seen * 100 + step;
            return;
        }
        __syncthreads();
        ++step;
    }
})" << grid1 << true;
        // ... also when the threads that run the loop are a branch's: the others, still running, do not
        // keep it going.
        QTest::newRow("loops: for (;;) in a branch, left by returning") << R"(
__global__ void k(int* a, int n) {
    const int base = blockIdx.x * blockDim.x;
    if (threadIdx.x < 32) {
        int v = a[base + threadIdx.x] + 1;
        for (;;) {
            v += __shfl_down_sync(0xffffffffu, v, 1);
            if (v > 1000) {
                a[base + threadIdx.x] = v;
                return;
            }
        }
    }
    a[base + threadIdx.x] = -1;
})" << grid1 << true;
        QTest::newRow("loops: increments that read what the body wrote, nested") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[2][64];
    const int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    int total = 0;
    for (int i = t % 5, j = 0; j < 8; i += 1 + (total & 3), ++j) {
        s[j & 1][t] = i;
        __syncthreads();
        int k = 0;
        while (k < (t % 3) + 1) {
            total += s[j & 1][(t + k) % 64] * j;
            ++k;
        }
        do {
            total ^= k;
            k -= 2;
        } while (k > 0);
    }
    a[base + t] = total + n;
})" << grid1 << true;
        QTest::newRow("parameters: written through a reference") << R"(
__global__ void k(int* a, int n) {
    const int base = blockIdx.x * blockDim.x;
    int& mine = n;
    mine += threadIdx.x;
    a[base + threadIdx.x] = n;
})" << grid1 << true;
        QTest::newRow("parameters: written through a cast of its address") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 150) return;
    int* p = (int*)&n;
    *p -= i;
    a[i] = n + a[i];
})" << grid1 << true;
        QTest::newRow("parameters: an element's address, and the parameter's own") << R"(
__global__ void k(int* a, int n) {
    const int base = blockIdx.x * blockDim.x;
    atomicAdd(&a[base + threadIdx.x % 8], 1);
    int* mine = &n;
    *mine += threadIdx.x;
    __syncthreads();
    if (threadIdx.x >= 8) a[base + threadIdx.x] = n;
})" << grid1 << true;
        QTest::newRow("atomics: four counters in each warp") << R"(
__global__ void k(int* a, int n) {
    const int base = blockIdx.x * blockDim.x;
    const int t = threadIdx.x;
    if (t >= 4 && t % 5 != 0) {
        int old = 0;
        old += atomicAdd(&a[base + t % 4], t);
        a[base + t] = old;
    }
})" << grid1 << true;
        QTest::newRow("atomics: two in one statement act at once") << R"(
__global__ void k(int* a, int n) {
    const int base = blockIdx.x * blockDim.x;
    if (threadIdx.x >= 2) {
        const int both = atomicAdd(&a[base], 1) + atomicAdd(&a[base + 1], 3);
        a[base + threadIdx.x] = both;
    }
})" << grid1 << true;
        QTest::newRow("a macro that reads threadIdx is not a block's constant") << R"(
#define IDX (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    const int idx = IDX;
    s[threadIdx.x] = a[idx];
    __syncthreads();
    a[idx] = s[63 - threadIdx.x] + idx;
})" << grid1 << true;
        QTest::newRow("a parameter and a local swapped by a helper that takes references")
            << R"(
__device__ void swapPtr(int*& x, int*& y) { int* t = x; x = y; y = t; }
__global__ void k(int* a, int n) {
    int* b = a + 32;
    const int i = threadIdx.x % 32;
    for (int s = 0; s < 2; ++s) {
        const int v = a[i] + a[(i + 1) % 32] + s;
        __syncthreads();
        if (threadIdx.x < 32) b[i] = v;
        __syncthreads();
        swapPtr(a, b);
    }
})"
            << R"({"grid": [1], "block": [64]})" << true;
        QTest::newRow("atomics: an argument that calls a function acts at once") << R"(
__device__ int take(int* c) { return atomicSub(c, 1) > 0; }
__global__ void k(int* a, int n) {
    const int base = blockIdx.x * blockDim.x;
    if (threadIdx.x >= 2) {
        const int slot = atomicAdd(&a[base], take(&a[base + 1]));
        a[base + threadIdx.x] = slot;
    }
})" << grid1 << true;
        QTest::newRow("groups: a group made where it is used: fibers") << R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int n) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[64];
    const int t = block.thread_rank();
    s[t] = a[blockIdx.x * 64 + t];
    cg::sync(cg::this_thread_block());
    a[blockIdx.x * 64 + t] = s[63 - t];
})" << grid1 << false;
        QTest::newRow("barrier in a helper: fibers") << R"(
__device__ void wait() { __syncthreads(); }
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    s[threadIdx.x] = a[blockIdx.x * blockDim.x + threadIdx.x];
    wait();
    a[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 64];
})" << grid1 << false;
    }

    // Every case keeps each block to its own part of `a`: blocks run in any order, on any core.
    void sameResultsAsFibers() {
        QFETCH(QString, code);
        QFETCH(QString, launch);
        QFETCH(bool, splits);
        const auto setup = setupOf(code.toStdString(), "k", {ints("a", 192), scalarInt("n", 40)},
                                   nlohmann::json::parse(launch.toStdString()));
        const auto split = split_->run(setup);
        const auto fibers = fibers_->run(setup);
        const QString execution = QString::fromStdString(split.execution);
        QVERIFY2((execution.contains("as loops ") || execution.contains("in one loop")) == splits,
                 qPrintable(execution));
        QVERIFY2(fibers.execution.find("loops") == std::string::npos, fibers.execution.c_str());
        const auto* a = split.output("a");
        const auto* b = fibers.output("a");
        QVERIFY(a && b);
        for (std::size_t i = 0; i < a->size(); ++i)
            if (a->value(i) != b->value(i))
                QFAIL(qPrintable(
                    QString("a[%1]: split %2, fibers %3").arg(i).arg(a->value(i)).arg(b->value(i))));
        // And the result is not the input: every case writes.
        bool changed = false;
        for (std::size_t i = 0; i < a->size(); ++i)
            changed = changed || a->value(i) != static_cast<double>(i);
        QVERIFY(changed);
    }

    // A kernel without barriers that starts with index declarations and a guard: each row of the block
    // stops where the guard starts sending threads home, when the condition can only turn one way along the
    // row. Split and fibers agree either way, and the split source says whether the rows stop early.
    void leadingGuardsEndTheRows_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("launch");
        QTest::addColumn<bool>("rows");
        QTest::addColumn<bool>("acrossRows"); // the loop over y also stops at the first empty row
        const QString grid3 = R"({"grid": [3], "block": [64]})";
        QTest::newRow("1-D index, partial first block, idle blocks") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    a[i] = a[i] * 3 + i;
})" << grid3 << true << true;
        QTest::newRow("linear index of a 2-D block, a row cut short")
            << R"(
__global__ void k(int* a, int n) {
    const int idx = threadIdx.x + threadIdx.y * blockDim.x;
    if (idx >= n) { return; }
    a[idx] *= 2;
})"
            << R"({"grid": [1], "block": [16, 8]})" << true << true;
        QTest::newRow("2-D grid, two clauses joined by ||")
            << R"(
__global__ void k(int* a, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 12 || y >= n / 4) return;
    a[y * 12 + x] += 100 + x;
})"
            << R"({"grid": [2, 3], "block": [8, 4]})" << true << true;
        QTest::newRow("an if that wraps the rest, clauses joined by &&") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && 37 > i) {
        a[i] = -a[i];
        a[i + 100] = i;
    }
})" << grid3 << true << true;
        QTest::newRow("unsigned index on the right of the comparison") << R"(
__global__ void k(int* a, int n) {
    unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
    if (n <= i) return;
    a[i] += 7;
})" << grid3 << true << true;
        QTest::newRow("an index that passes 2^31 in the block: every thread visited")
            << R"(
__global__ void k(int* a, int n) {
    const int v = threadIdx.x * 4000000;
    if (v >= 1000000000 + n) return;
    a[threadIdx.x % 192] += 1;
})"
            << R"({"grid": [1], "block": [1024]})" << true << true;
        QTest::newRow("an alias of threadIdx.x, a 3-D block")
            << R"(
__global__ void k(int* a, int n) {
    const unsigned tid = threadIdx.x;
    const int i = tid + 4 * (threadIdx.y + 2 * threadIdx.z);
    if (i >= n / 2) return;
    a[i] += 1000 + i;
})"
            << R"({"grid": [1], "block": [4, 2, 8]})" << true << true;
        QTest::newRow("a bound that rises with threadIdx.y: a row with work after an empty one")
            << R"(
__global__ void k(int* a, int n) {
    const int i = threadIdx.x + 2 * threadIdx.y;
    if (i >= n * threadIdx.y) return;
    a[i] += 1000 + i;
})"
            << R"({"grid": [1], "block": [64, 3]})" << true << false;
        QTest::newRow("a declaration that reads threadIdx.y in the bound")
            << R"(
__global__ void k(int* a, int n) {
    const int i = threadIdx.x + 2 * threadIdx.y;
    const int limit = n * threadIdx.y;
    if (i >= limit) return;
    a[i] += 1000 + i;
})"
            << R"({"grid": [1], "block": [64, 3]})" << true << false;
        QTest::newRow("a declaration the same for the block in the bound, a 3-D block")
            << R"(
__global__ void k(int* a, int n) {
    const int limit = n / 2 + blockIdx.x;
    const int i = threadIdx.x + 4 * (threadIdx.y + 2 * threadIdx.z);
    if (i >= limit) return;
    a[i] += 1000 + i;
})"
            << R"({"grid": [1], "block": [4, 2, 8]})" << true << true;
        QTest::newRow("a size_t index made with a cast") << R"(
__global__ void k(int* a, int n) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    a[i] = a[i] * 5 + 1;
})" << grid3 << true << true;
        QTest::newRow("a macro that reads threadIdx") << R"(
#define IDX (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void k(int* a, int n) {
    if (IDX >= n) return;
    a[IDX] *= 2;
})" << grid3 << false << false;
        QTest::newRow("a macro constant") << R"(
#define LIMIT (40 / 2)
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= LIMIT) return;
    a[i] *= 2;
})" << grid3 << true << true;
        QTest::newRow("a clause that turns both ways") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % 3 == 0 || i >= n) return;
    a[i] = 1;
})" << grid3 << false << false;
        QTest::newRow("an index that falls as threadIdx.x grows") << R"(
__global__ void k(int* a, int n) {
    const int i = n - 1 - static_cast<int>(threadIdx.x);
    if (i < 0) return;
    a[i] = 5;
})" << grid3 << false << false;
        QTest::newRow("a store before the guard") << R"(
__global__ void k(int* a, int n) {
    a[blockIdx.x] = 9;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    a[i] += 2;
})" << grid3 << false << false;
        QTest::newRow("a guard that reads memory") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a[5] + n) return;
    a[i] += 2;
})" << grid3 << false << false;
        QTest::newRow("a parameter the kernel changes") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    n += i;
    a[i] = n;
})" << grid3 << false << false;
    }

    void leadingGuardsEndTheRows() {
        QFETCH(QString, code);
        QFETCH(QString, launch);
        QFETCH(bool, rows);
        QFETCH(bool, acrossRows);
        const auto split = cpu::splitAtBarriers(code.toStdString(), 2, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        QCOMPARE(split.source.find("__kp_sends") != std::string::npos, rows);
        const auto setup = setupOf(code.toStdString(), "k", {ints("a", 192), scalarInt("n", 40)},
                                   nlohmann::json::parse(launch.toStdString()));
        const auto a = split_->run(setup);
        const auto b = fibers_->run(setup);
        QVERIFY2(a.execution.find("in one loop") != std::string::npos, a.execution.c_str());
        const QString wrong = differsFromFibers(a, b);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QCOMPARE(split.source.find("break; // and every later row") != std::string::npos, acrossRows);
    }

    // After a leading guard, a loop every thread runs alike (matmul's k loop) runs around each row of the
    // block's threads: declarations before it run once for each thread, the values the loop changes (and
    // those that are not plain index arithmetic) are kept for each thread between the steps, and what
    // follows the loop runs once for each thread. Each thread still does its own steps in its own order, so
    // split and fibers agree; a loop whose bound differs between threads, that leaves early, whose header
    // names a local, or that follows a statement other than a declaration, runs as written.
    void uniformLoopsRunInsideOut_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("launch");
        QTest::addColumn<QString>("loop"); // the loop run inside out ("" where none is)
        const QString grid2 = R"({"grid": [2], "block": [8, 4]})";
        QTest::newRow("matmul's k loop, a cut row, idle rows") << R"(
__global__ void k(int* a, int n) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = threadIdx.y;
    if (col >= n || row >= 3) return;
    int sum = 0;
    for (int k = 0; k < n; ++k)
        sum += a[row * 8 + k % 8] * (k + col);
    a[100 + row * 16 + col] = sum;
})" << grid2 << "k";
        QTest::newRow("a row of 26 threads, in two halves a step") << R"(
__global__ void k(int* a, int n) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = threadIdx.y;
    if (col >= 2 * n || row >= 3) return;
    int sum = 0;
    for (int k = 0; k < n; ++k)
        sum += a[row * 8 + k % 8] * (k + col);
    a[100 + row * 32 + col] = sum;
})"
                                                                   << R"({"grid": [1], "block": [32, 4]})"
                                                                   << "k";
        QTest::newRow("the wrapping form; kept values; a return after the loop")
            << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x + 8 * threadIdx.y;
    if (i < n) {
        int low = a[i], high = 0;
        const int twice = 2 * i;
        for (int s = 1; s <= n; s += 2) {
            low += s * twice;
            if (low % 7 == 0) high += low;
            a[96 + i] = a[96 + i] * 3 + low;
        }
        if (high == 0) return;
        a[i + 48] = low + high;
    }
})"
            << R"({"grid": [1], "block": [8, 5]})"
            << "s";
        QTest::newRow("rows of two threads run as written") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int product = 1;
    for (int k = 1; k <= n / 3; ++k) product = (product * (i + k)) % 1000;
    a[100 + i] = product;
})"
                                                            << R"({"grid": [2], "block": [2, 16]})"
                                                            << "k";
        QTest::newRow("a filter's seven taps: a constant header") << R"(
#define TAPS 7
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = 0;
    for (int j = 0; j < TAPS; ++j) s += a[i + j] * (j + 1);
    a[100 + i] = s;
})" << grid2 << "";
        QTest::newRow("forty constant steps") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = 0;
    for (unsigned j = 0; j < 40u; ++j) s = (s * 3 + a[(i + j) % 64]) % 1001;
    a[100 + i] = s;
})" << grid2 << "";
        QTest::newRow("a bound that differs between threads") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int sum = 0;
    for (int k = 0; k < i; ++k) sum += a[k];
    a[100 + i] = sum;
})" << grid2 << "";
        QTest::newRow("a loop inside the loop") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int sum = 0;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < k; ++j) sum += a[(j + i) % 64];
    a[100 + i] = sum;
})" << grid2 << "";
        QTest::newRow("a loop that breaks") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int sum = 0;
    for (int k = 0; k < n; ++k) { if (a[k] > i) break; sum += a[k]; }
    a[100 + i] = sum;
})" << grid2 << "";
        QTest::newRow("a bound declared after the guard") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int half = n / 2;
    int sum = 0;
    for (int k = 0; k < half; ++k) sum += a[k] * i;
    a[100 + i] = sum;
})" << grid2 << "";
        QTest::newRow("a loop that moves the guard's index") << R"(
__global__ void k(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < 3; ++k) i += k;
    a[100 + i % 64] = i;
})"
                                                             << R"({"grid": [2], "block": [8]})"
                                                             << "";
        QTest::newRow("a store before the loop") << R"(
__global__ void k(int* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    a[100 + i] = 1;
    for (int k = 0; k < n; ++k) a[100 + i] += a[k % 8];
})" << grid2 << "";
    }

    void uniformLoopsRunInsideOut() {
        QFETCH(QString, code);
        QFETCH(QString, launch);
        QFETCH(QString, loop);
        const std::string source = code.toStdString();
        const int line = source.starts_with("\n#define") ? 3 : 2;
        const auto split = cpu::splitAtBarriers(source, line, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        QCOMPARE(QString::fromStdString(split.insideOut), loop);
        const auto setup = setupOf(code.toStdString(), "k", {ints("a", 192), scalarInt("n", 13)},
                                   nlohmann::json::parse(launch.toStdString()));
        const auto a = split_->run(setup);
        const auto b = fibers_->run(setup);
        const QString wrong = differsFromFibers(a, b);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QCOMPARE(a.execution.find("its " + loop.toStdString() + " loop runs around each row of threads") !=
                     std::string::npos,
                 !loop.isEmpty());
    }

    // Inside out, an index rising by one a thread is the row's first plus a signed counter only where the
    // block checked its largest value (the guard compares it): otherwise it could overflow an int where
    // the unsigned sum as written wraps.
    void insideOutCountsOnlyCheckedIndices() {
        const auto split = [](const std::string& guard) {
            return cpu::splitAtBarriers("__global__ void k(int* a, int n) {\n"
                                        "    const int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                        "    const int row = threadIdx.y;\n" +
                                            guard +
                                            "    int sum = 0;\n"
                                            "    for (int k = 0; k < n; ++k) sum += k * col;\n"
                                            "    a[row] = sum;\n}\n",
                                        1, 17, {"k.cu", false});
        };
        const auto checked = split("    if (row >= n || col >= n) return;\n");
        QCOMPARE(checked.insideOut, std::string("k"));
        QVERIFY2(checked.source.find("__kp_first_col") != std::string::npos, checked.source.c_str());
        const auto unchecked = split("    if (row >= n) return;\n");
        QCOMPARE(unchecked.insideOut, std::string("k"));
        QVERIFY2(unchecked.source.find("__kp_first_col") == std::string::npos, unchecked.source.c_str());
    }

    // A grid-stride loop in a region of a split kernel runs in passes, the block's threads together (each
    // row's threads in one vectorisable loop), where its first index rises along the row and its limit and
    // step are the block's; every thread still adds up its own elements in its own order, so split and
    // fibers agree to the bit. Where the indices could pass 2^31 or the limit is negative, the loop runs
    // as written.
    void gridStrideLoopsRunInPasses_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("launch");
        QTest::addColumn<int>("n");
        QTest::addColumn<bool>("passes");
        QTest::addColumn<bool>("counted"); // the index as the row's first plus a signed counter
        const QString grid2 = R"({"grid": [2], "block": [32]})";
        // Each thread's sum, then a barrier, then every thread stores its neighbour's: order and values.
        const QString tail = R"(
    s[linear] = sum;
    __syncthreads();
    a[100 + blockIdx.x * 32 + linear] = s[(linear + 1) % 32];
})";
        const QString head = R"(
__global__ void k(int* a, int n) {
    __shared__ int s[32];
    const unsigned linear = threadIdx.x + blockDim.x * threadIdx.y;
    int sum = 0;
)";
        QTest::newRow("a sum over a grid-stride loop") << head + R"(
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i] * 3 + i;)" + tail << grid2 << 97 << true
                                                       << true;
        QTest::newRow("unsigned index, the limit on the left, <=, a step declared before") << head + R"(
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = threadIdx.x + blockDim.x * blockIdx.x; n >= i; i += stride) {
        sum += a[i];
    })" + tail << grid2 << 70 << true << true;
        QTest::newRow("a 2-D block, continue in the body") << head + R"(
    for (int i = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * blockIdx.x); i < n;
         i += blockDim.x * blockDim.y * gridDim.x) {
        if (i % 3 == 0) continue;
        sum += a[i] - 1;
    })" + tail << R"({"grid": [2], "block": [8, 4]})" << 90 << true
                                                           << true;
        QTest::newRow("threads that returned before the loop") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[32];
    const unsigned linear = threadIdx.x;
    if (threadIdx.x % 5 == 1) return;
    int sum = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i];
    s[linear] = sum;
    __syncthreads();
    a[100 + blockIdx.x * 32 + linear] = s[(linear + 2) % 32];
})" << grid2 << 97 << true << true;
        QTest::newRow("a negative limit: as written") << head + R"(
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i];)" + tail << grid2 << -5 << true << true;
        QTest::newRow("first indices that could pass 2^31: as written") << head + R"(
    for (int i = blockIdx.x * 1500000000 + threadIdx.x; i < n; i += blockDim.x)
        sum += a[i];)" + tail << grid2 << 97 << true << true;
        QTest::newRow("the body moves the index") << head + R"(
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i++];)" + tail << grid2 << 97 << false
                                                  << false;
        QTest::newRow("a break") << head + R"(
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (a[i] > 50) break;
        sum += a[i];
    })" + tail << grid2 << 97 << false
                                 << false;
        QTest::newRow("an index that falls along the row") << head + R"(
    for (int i = n - 1 - static_cast<int>(threadIdx.x); i >= 0; i += blockDim.x)
        sum += a[i % 97];)" + tail << grid2 << 97 << false << false;
        QTest::newRow("a step a thread reads from memory") << head + R"(
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += a[0] + 64)
        sum += a[i];)" + tail << grid2 << 97 << false << false;
        QTest::newRow("a local of the region before the loop, read in it: kept in the frame") << head + R"(
    const int mine = a[threadIdx.x] % 7;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i] * mine;)" + tail << grid2 << 97 << true << true;
        QTest::newRow("a loop variable that hides a frame variable, a body local named x") << R"(
__global__ void k(int* a, int n) {
    __shared__ int s[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const int x = a[i];
        sum += x * 2 + i;
    }
    s[threadIdx.x] = sum;
    __syncthreads();
    a[100 + i] = s[(threadIdx.x + 1) % 32] + i;
})" << grid2 << 97 << true << true;
        QTest::newRow("a kernel without barriers: the index and the stride declared first") << R"(
__global__ void k(int* a, int n) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride)
        a[100 + i] = a[i] * 2 + i + index;
})" << grid2 << 90 << true << true;
        QTest::newRow("a kernel without barriers, a 2-D block, a step of the block only")
            << R"(
__global__ void k(int* a, int n) {
    for (unsigned i = threadIdx.x + blockDim.x * threadIdx.y; i < n; i += blockDim.x * blockDim.y)
        a[100 + i] = a[i] * 3 - 1;
})"
            << R"({"grid": [1], "block": [8, 3]})" << 90 << true << true;
        QTest::newRow("a kernel without barriers, casts to size_t in the first index and the step") << R"(
__global__ void k(int* a, int n) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(blockDim.x) * gridDim.x)
        a[100 + i] = a[i] - 7;
})" << grid2 << 90 << true << true;
        QTest::newRow("a kernel without barriers, a macro that reads threadIdx, two declarators") << R"(
#define TX threadIdx.x
__global__ void k(int* a, int n) {
    int index = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride)
        a[100 + i] = a[i] + (int)TX * 1000 + stride;
})" << grid2 << 90 << true << true;
        QTest::newRow("a kernel without barriers, a statement after the loop") << R"(
__global__ void k(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = i; j < n; j += blockDim.x * gridDim.x)
        a[100 + j] = a[j] + 5;
    if (i == 0) a[99] = -1;
})" << grid2 << 90 << false << false;
        // A course's dot product: the loop's sum, then one statement that uses it. The body splits at the
        // loop (findStrideBody), which runs in passes with `sum` in the frame; before, each thread walked
        // the whole array alone.
        QTest::newRow("a kernel without barriers, its sum used after the loop") << R"(
__global__ void k(int* a, int n) {
    int sum = 0, count = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += a[i];
        ++count;
    }
    a[100 + blockIdx.x * blockDim.x + threadIdx.x] = sum * 4 + count;
})" << grid2 << 90 << true << true;
        QTest::newRow("the same with an auto sum, which no frame holds: one loop, as before") << R"(
__global__ void k(int* a, int n) {
    auto sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i];
    a[100 + blockIdx.x * blockDim.x + threadIdx.x] = sum;
})" << grid2 << 90 << false << false;
        QTest::newRow("a kernel without barriers whose loop changes a declared index") << R"(
__global__ void k(int* a, int n) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = index; i < n; i += blockDim.x * gridDim.x) {
        index += 1;
        a[100 + i] = a[i] + index;
    }
})" << grid2 << 90 << false << false;
        QTest::newRow("a kernel without barriers, a declaration that reads memory first") << R"(
__global__ void k(int* a, int n) {
    const int first = a[0] + blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = first; i < n; i += blockDim.x * gridDim.x)
        a[100 + i] = a[i] + 1;
})" << grid2 << 90 << false << false;
        QTest::newRow("a return before the loop in its region") << head + R"(
    if (threadIdx.x % 4 == 3) return;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i];)" + tail << grid2 << 97 << false << false;
        QTest::newRow("an index rising two a thread: in passes, not counted") << head + R"(
    for (int i = 2 * threadIdx.x + blockIdx.x * 64; i < n; i += 64 * gridDim.x)
        sum += a[i] + i;)" + tail << grid2 << 97 << true << false;
        QTest::newRow("an atomic in the loop (not vectorised): in passes, not counted") << R"(
__global__ void k(int* a, int n) {
    __shared__ int h[8];
    __shared__ int s[32];
    if (threadIdx.x < 8) h[threadIdx.x] = 0;
    __syncthreads();
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&h[i % 8], 1);
        sum += a[i];
    }
    s[threadIdx.x] = sum;
    __syncthreads();
    a[100 + blockIdx.x * 32 + threadIdx.x] = s[(threadIdx.x + 1) % 32] + (threadIdx.x < 8 ? h[threadIdx.x] : 0);
})" << grid2 << 97 << true << false;
        QTest::newRow("a long long index of a declared first, in a kernel without barriers") << R"(
__global__ void k(int* a, int n) {
    const long long first = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    for (long long i = first; i < n; i += (long long)blockDim.x * gridDim.x)
        a[100 + i] = a[i] * 5 + (int)first;
})" << grid2 << 90 << true << true;
        // The thread's own values declared before the loop (a lane, its half of the warp), from its index
        // alone: each pass declares them afresh. One read from memory is not: the loop may write it.
        QTest::newRow("a lane declared before, in a kernel without barriers") << R"(
__global__ void k(int* a, int n) {
    const int lane = threadIdx.x % 32;
    const unsigned half = lane / 16u + (blockIdx.x & 1);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        a[100 + i] = a[i] * 2 + lane * 1000 + (int)half;
})" << grid2 << 90 << true << true;
        QTest::newRow("a value read before the loop, which the loop may write") << R"(
__global__ void k(int* a, int n) {
    const int base = a[threadIdx.x + 100];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        a[100 + i] = a[i] + base;
})" << grid2 << 90 << false << false;
    }

    void gridStrideLoopsRunInPasses() {
        QFETCH(QString, code);
        QFETCH(QString, launch);
        QFETCH(int, n);
        QFETCH(bool, passes);
        QFETCH(bool, counted);
        const std::string text = code.toStdString();
        const auto line = static_cast<int>(
            1 +
            std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(text.find("void k(")), '\n'));
        const auto split = cpu::splitAtBarriers(text, line, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        const auto setup = setupOf(code.toStdString(), "k", {ints("a", 192), scalarInt("n", n)},
                                   nlohmann::json::parse(launch.toStdString()));
        const auto a = split_->run(setup);
        const auto b = fibers_->run(setup);
        QVERIFY2(a.execution.find("threads of a block run") != std::string::npos &&
                     a.execution.find("fibers") == std::string::npos,
                 a.execution.c_str());
        const QString wrong = differsFromFibers(a, b);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QCOMPARE(split.gridStrideLoops, passes ? 1 : 0);
        QCOMPARE(split.source.find("__kp_pass") != std::string::npos, passes);
        QCOMPARE(split.source.find("__kp_first0") != std::string::npos, counted);
        if (passes)
            QVERIFY2(a.execution.find("its strided loop runs in passes") != std::string::npos,
                     a.execution.c_str());
    }

    // Float atomicAdds whose results are used, gathered per warp: each lane gets the sum before its own
    // addition in thread order, and the total rounds as the additions one after another would.
    void gatheredFloatAtomicsAddInThreadOrder() {
        const std::string code = R"(
__global__ void k(float* f, int n) {
    const float before = atomicAdd(&f[0], f[1 + threadIdx.x]);
    f[1 + threadIdx.x] = before;
})";
        const nlohmann::json floats = {{"name", "f"},
                                       {"array", {{"dtype", "float32"}, {"shape", {65}}}},
                                       {"direction", "inout"},
                                       {"init", {{"range", {{"start", 16777216.0}, {"step", 0.75}}}}}};
        const auto setup = setupOf(code, "k", {floats, scalarInt("n", 0)}, {{"grid", {1}}, {"block", {64}}});
        const auto split = split_->run(setup);
        QVERIFY2(split.execution.find("atomicAdd whose result it uses") != std::string::npos,
                 split.execution.c_str());
        const auto fibers = fibers_->run(setup);
        const auto* a = split.output("f");
        const auto* b = fibers.output("f");
        QVERIFY(a && b);
        float sum = 16777216.0f;
        for (int t = 0; t < 64; ++t) {
            const float mine = 16777216.0f + 0.75f * static_cast<float>(t + 1);
            QCOMPARE(a->value(static_cast<std::size_t>(t) + 1), static_cast<double>(sum));
            sum += mine;
        }
        QCOMPARE(a->value(0), static_cast<double>(sum));
        for (std::size_t i = 0; i < a->size(); ++i)
            QCOMPARE(a->value(i), b->value(i));
    }

    // A counter every thread of a block adds to takes one atomic for the block: the block's threads that
    // count get consecutive slots, in thread order, whichever worker runs it (warp by warp, two workers'
    // warps interleaved). Two counters in one block go
    // warp by warp: each counter's slots are still every value once.
    void gatheredCountersTakeOneAtomicPerBlock() {
        const std::string code = R"(
__global__ void k(int* a, int n) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((t * 7 + t / 5) % 3 != 1) {
        const int slot = atomicAdd(&a[t % n], 1);
        a[2 + t] = slot;
    }
})";
        // Enough blocks that both workers run some (a small grid runs on one thread).
        constexpr int kBlocks = 4096, kThreads = kBlocks * 96;
        for (const int counters : {1, 2}) {
            const auto setup = setupOf(code, "k", {ints("a", 2 + kThreads), scalarInt("n", counters)},
                                       {{"grid", {kBlocks}}, {"block", {96}}});
            const auto split = split_->run(setup);
            QVERIFY2(split.execution.find("atomicAdd whose result it uses") != std::string::npos,
                     split.execution.c_str());
            const auto* a = split.output("a");
            QVERIFY(a);
            std::vector<std::vector<int>> taken(2);
            for (int t = 0; t < kThreads; ++t) {
                if ((t * 7 + t / 5) % 3 == 1) {
                    QCOMPARE(a->value(static_cast<std::size_t>(2 + t)),
                             static_cast<double>(2 + t)); // untouched
                    continue;
                }
                taken[static_cast<std::size_t>(t % counters)].push_back(
                    static_cast<int>(a->value(2 + static_cast<std::size_t>(t))));
            }
            for (int c = 0; c < counters; ++c) {
                auto& mine = taken[static_cast<std::size_t>(c)];
                // The counter started at its own index (the array's init) and ends past every slot.
                QCOMPARE(a->value(static_cast<std::size_t>(c)),
                         static_cast<double>(c + static_cast<int>(mine.size())));
                std::vector<int> sorted = mine;
                std::sort(sorted.begin(), sorted.end());
                for (std::size_t i = 0; i < sorted.size(); ++i)
                    QCOMPARE(sorted[i], c + static_cast<int>(i));
            }
            if (counters == 1) { // each block's counting threads: consecutive slots, in thread order
                std::size_t at = 0;
                for (int b = 0; b < kBlocks; ++b) {
                    const std::size_t first = at;
                    for (int x = 0; x < 96; ++x)
                        if (((b * 96 + x) * 7 + (b * 96 + x) / 5) % 3 != 1) ++at;
                    for (std::size_t i = first + 1; i < at; ++i)
                        QVERIFY2(taken[0][i] == taken[0][i - 1] + 1,
                                 qPrintable(QString("block %1: slots %2 then %3")
                                                .arg(b)
                                                .arg(taken[0][i - 1])
                                                .arg(taken[0][i])));
                }
            }
        }
    }

    // A parameter written through a member or a helper's reference is each thread's own.
    void writtenParametersAreEachThreads() {
        const auto member =
            cpu::splitAtBarriers("\n__global__ void k(float* out, float2 origin, float dx) {\n"
                                 "    const int i = threadIdx.x;\n    origin.x += i * dx;\n"
                                 "    out[i] = origin.x;\n}\n",
                                 2, 17, {"k.cu", false});
        QVERIFY2(member.split(), member.reason.c_str());
        QVERIFY2(member.source.find("__kp_param_origin") != std::string::npos, member.source.c_str());
        QVERIFY2(member.source.find("__kp_param_dx") == std::string::npos, member.source.c_str());
        // The address of what a pointer points to (a histogram's `&bins[v]`, `&p->x`) and a binary `&`
        // write nothing of the parameter: it stays one for the block. Its own address (`&n`) could.
        const auto element = cpu::splitAtBarriers(
            "\n__global__ void k(unsigned* bins, float2* p, int n, int mask) {\n"
            "    const int v = threadIdx.x & mask;\n    atomicAdd(&bins[v], 1u);\n"
            "    __syncthreads();\n    atomicAdd(&p->x, 1.0f);\n    if (n & mask) bins[0] = 0;\n"
            "    if (((v + 1) & n) == 0) bins[1] = 0;\n}\n",
            2, 17, {"k.cu", false});
        QVERIFY2(element.split(), element.reason.c_str());
        QVERIFY2(element.source.find("__kp_param_") == std::string::npos, element.source.c_str());
        const auto own = cpu::splitAtBarriers("\n__global__ void k(int* out, int n) {\n"
                                              "    int* where = (int*)&n;\n    *where += threadIdx.x;\n"
                                              "    __syncthreads();\n    out[threadIdx.x] = n;\n}\n",
                                              2, 17, {"k.cu", false});
        QVERIFY2(own.split(), own.reason.c_str());
        QVERIFY2(own.source.find("__kp_param_n") != std::string::npos, own.source.c_str());
    }

    // Where a leading guard's rows stop early, the block has checked that each index the guard compares
    // stays below 2^31: the compiler is told so of the index declared (so that it can vectorise the row),
    // and of nothing else but the row's own end.
    void guardedIndicesAreExactInTheirRows() {
        const auto split = [](const std::string& body) {
            auto s = cpu::splitAtBarriers("__global__ void k(float* out, const float* in, int n) {\n" + body +
                                              "}\n",
                                          1, 17, {"k.cu", false});
            if (!s.split()) qWarning("%s", s.reason.c_str());
            return s.source;
        };
        const std::string compared = split("    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                           "    const int j = i + 1;\n"
                                           "    if (i < n) out[i] = in[i] * j;\n");
        QVERIFY2(compared.find("assumeExactIndex(i)") != std::string::npos, compared.c_str());
        QVERIFY2(compared.find("assumeExactIndex(j)") == std::string::npos, compared.c_str());
        const std::string inline_ = split("    if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;\n"
                                          "    out[threadIdx.x] = 1.0f;\n");
        QVERIFY2(inline_.find("__kp_sends") != std::string::npos, inline_.c_str());
        QVERIFY2(inline_.find("assumeExactIndex") == std::string::npos, inline_.c_str());
        // Each row also says its block's x and end stay below 2^31 (GCC 13 vectorised the row only then),
        // which holds because the rows run only where the whole grid's x does.
        QVERIFY2(compared.find("::kernelpad::assumeRowFits(__kp_bidx.x, __kp_block.x, __kp_end);") !=
                     std::string::npos,
                 compared.c_str());
        QVERIFY2(compared.find("&& double(gridDim.x) * double(blockDim.x) < 2147483647.0) {") !=
                     std::string::npos,
                 compared.c_str());
    }

    // A loop whose threads differ in their passes (a grid-stride loop) ends each pass with its increment
    // and test in the body's last region: three thread loops a pass for a histogram with two warp
    // operations (each records, then takes), not five. Not when the body ends with a barrier.
    void loopsEndTheirPassesInTheLastRegion() {
        const std::string histogram =
            "__global__ void k(unsigned* bins, const unsigned char* data, int n) {\n"
            "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
            "        const unsigned active = __activemask();\n        const unsigned v = data[i];\n"
            "        const unsigned peers = __match_any_sync(active, v);\n"
            "        if (threadIdx.x % 32 == __ffs(peers) - 1) atomicAdd(&bins[v], __popc(peers));\n"
            "    }\n}\n";
        // Thread loops that run: not a light record's second loop, which records again in full only where
        // the first could not (region()).
        const auto loops = [](const std::string& source) {
            int count = 0;
            for (std::size_t at = source.find("for (unsigned __kp_z"); at != std::string::npos;
                 at = source.find("for (unsigned __kp_z", at + 1))
                ++count;
            for (std::size_t at = source.find("recordedHere()"); at != std::string::npos;
                 at = source.find("recordedHere()", at + 1))
                --count;
            return count;
        };
        const auto split = cpu::splitAtBarriers(histogram, 1, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        // Entering (with the first test), then two a pass: the __activemask() that begins the pass is
        // found for the block before it (computedActiveMask), so only __match_any_sync records and takes.
        QCOMPARE(loops(split.source), 3);
        QCOMPARE(split.computedActiveMasks, 1);
        std::string barrierLast = histogram;
        barrierLast.replace(barrierLast.find("    }\n}"), 7, "        __syncthreads();\n    }\n}");
        const auto apart = cpu::splitAtBarriers(barrierLast, 1, 17, {"k.cu", false});
        QVERIFY2(apart.split(), apart.reason.c_str());
        QCOMPARE(loops(apart.source), 5); // the increment and the test in loops of their own
        // After a statement of its region, __activemask() records as before: the threads ahead in the
        // thread loop may have returned by the time a later one would compute the lanes.
        std::string second = histogram;
        second.replace(second.find("        const unsigned active"), 0,
                       "        if (data[i] == 255) return;\n");
        const auto recorded = cpu::splitAtBarriers(second, 1, 17, {"k.cu", false});
        QVERIFY2(recorded.split(), recorded.reason.c_str());
        QCOMPARE(recorded.computedActiveMasks, 0);
        QCOMPARE(loops(recorded.source), 4);
    }

    // A deferred sum that folds into lanes (`_kp_dfAdd(&total[...], v)`, as DeferredAtomics renames
    // atomicAdd) needs the thread's lane stored in the thread loop that adds, and only there: in the
    // strided loop the store kept GCC from vectorising (cooperative_groups_reduction, 0.74 ms to 5.6 ms).
    void laneStoresOnlyWhereTheLoopAdds() {
        const std::string kernel = "__global__ void k(float* total, const float* in, int n) {\n"
                                   "    __shared__ float s[256];\n"
                                   "    float acc = 0;\n"
                                   "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                                   "         i += blockDim.x * gridDim.x)\n"
                                   "        acc += in[i];\n"
                                   "    s[threadIdx.x] = acc;\n"
                                   "    __syncthreads();\n"
                                   "    _kp_dfAdd(&total[threadIdx.x % 4], s[(threadIdx.x + 1) % 256]);\n"
                                   "}\n";
        const auto split = cpu::splitAtBarriers(kernel, 1, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        QCOMPARE(split.gridStrideLoops, 1);
        const std::string store = "kernelpad_block_state.deferredLane = __kp_x;";
        const std::size_t at = split.source.find(store);
        QVERIFY2(at != std::string::npos, split.source.c_str());
        QCOMPARE(split.source.find(store, at + 1), std::string::npos);            // one loop stores it
        QVERIFY(split.source.find("_kp_dfAdd(&total[", at) != std::string::npos); // the loop that adds
        QVERIFY(split.source.find("omp simd") < at);                              // not the strided loop
        QVERIFY(split.source.find("threadIndex = __kp_tid", split.source.find("omp simd")) >
                split.source.find("acc += in[i]"));
    }

    // A kernel's template value (`template <int BLOCK>`) is the same for every thread: a loop it bounds
    // runs once for the block, with no mask of the threads in it; a macro that reads threadIdx is not.
    void templateValuesAndMacrosOfTheBlock() {
        const std::string code =
            "template <unsigned BLOCK>\n__global__ void k(int* a) {\n"
            "    __shared__ int s[BLOCK];\n    s[threadIdx.x] = a[threadIdx.x];\n"
            "    for (unsigned active = BLOCK / 2; active > 0; active /= 2) {\n"
            "        __syncthreads();\n"
            "        if (threadIdx.x < active) s[threadIdx.x] += s[threadIdx.x + active];\n"
            "    }\n    a[threadIdx.x] = s[0];\n}\n";
        const auto split = cpu::splitAtBarriers(code, 2, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        QVERIFY2(split.source.find("__kp_loop") == std::string::npos, split.source.c_str());
        const std::string macro = "#define LANE (threadIdx.x % 32)\n__global__ void k(int* a) {\n"
                                  "    for (unsigned active = LANE; active > 0; active /= 2) {\n"
                                  "        __syncthreads();\n        a[threadIdx.x] += active;\n    }\n}\n";
        const auto divergent = cpu::splitAtBarriers(macro, 2, 17, {"k.cu", false});
        QVERIFY2(divergent.split(), divergent.reason.c_str());
        QVERIFY2(divergent.source.find("__kp_loop") != std::string::npos, divergent.source.c_str());
    }

    void knownValues() {
        // The reduction of 0..191 in blocks of 64: sums written to the first element of each block's part.
        const auto setup =
            setupOf(R"(
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = a[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) a[blockIdx.x * blockDim.x] = s[0];
})",
                    "k", {ints("a", 192), scalarInt("n", 0)}, {{"grid", {3}}, {"block", {64}}});
        const auto result = split_->run(setup);
        QVERIFY2(result.execution.find("as loops between its 2 barriers") != std::string::npos,
                 result.execution.c_str());
        QCOMPARE(result.output("a")->value(0), 63.0 * 64 / 2);
        QCOMPARE(result.output("a")->value(64), (64.0 + 127) * 64 / 2);
        QCOMPARE(result.output("a")->value(128), (128.0 + 191) * 64 / 2);
    }

    // The scan's stride is one variable for the block: declared at kernel scope, changed between the
    // thread loops, and read by narrowed regions (only the threads below d run); a variable one thread
    // changes alone keeps a slot per thread. And the scan's values are right.
    void uniformVariablesAreOnePerBlock() {
        const auto scan = cpu::splitAtBarriers(kScan, 2, 17, {"k.cu", false});
        QVERIFY2(scan.split(), scan.reason.c_str());
        QVERIFY2(scan.source.find("std::remove_const_t<int > offset{};") != std::string::npos,
                 scan.source.c_str());
        QVERIFY2(scan.source.find("__kp_f.offset") == std::string::npos, scan.source.c_str());
        QVERIFY2(scan.source.find("__kp_f.base") == std::string::npos, scan.source.c_str());
        QVERIFY2(scan.source.find("__kp_cond") != std::string::npos, scan.source.c_str());

        const std::string divergent =
            "__global__ void k(int* a) {\n    int step = 1;\n    if (threadIdx.x == 0) "
            "step = 2;\n    __syncthreads();\n    a[threadIdx.x] = step;\n}\n";
        const auto perThread = cpu::splitAtBarriers(divergent, 1, 17, {"k.cu", false});
        QVERIFY2(perThread.split(), perThread.reason.c_str());
        QVERIFY2(perThread.source.find("__kp_f.step") != std::string::npos, perThread.source.c_str());

        const auto setup =
            setupOf(kScan, "k", {ints("a", 192), scalarInt("n", 0)}, {{"grid", {3}}, {"block", {32}}});
        const auto result = split_->run(setup);
        const auto* a = result.output("a");
        QVERIFY(a);
        for (std::size_t block = 0; block < 3; ++block) {
            double sum = 0; // exclusive: element i holds the sum of the block's elements before it
            for (std::size_t i = block * 64; i < block * 64 + 64; ++i) {
                QCOMPARE(a->value(i), sum);
                sum += static_cast<double>(i);
            }
        }
    }

    // A binary and reads its operands: loop variables in one (a bitonic sort's `(first + i) & k`) keep
    // their loops one per block; an address taken, also through a cast, keeps a variable per thread. And
    // another kernel's threadIdx is not this kernel's: its thread loops do not store each thread's index
    // for helpers that do not read it (bitonic_sort: 148 -> 107 ms on 2 cores, both together).
    // A statement of a plain warp intrinsic (shuffle, vote, match, reduce, __syncwarp) records lightly first,
    // with a loop that records again in full where that was not enough; __activemask, cooperative groups'
    // reduce and gathered atomics, whose takes read their records, record in full at once.
    void plainWarpIntrinsicsRecordLightly() {
        const auto lightSites = [](const std::string& source) {
            int count = 0;
            for (std::size_t at = source.find("recordedLight()"); at != std::string::npos;
                 at = source.find("recordedLight()", at + 1))
                ++count;
            return count;
        };
        const std::string plain = "__global__ void k(int* a) {\n"
                                  "    int v = a[threadIdx.x];\n"
                                  "    v += __shfl_down_sync(0xffffffffu, v, 1);\n"
                                  "    const unsigned b = __ballot_sync(0xffffffffu, v > 0);\n"
                                  "    __syncwarp();\n"
                                  "    const unsigned m = __activemask();\n"
                                  "    if (v > 3) a[threadIdx.x] = __popc(b) + __popc(m);\n"
                                  "    const int w = __shfl_sync(m, v, 0);\n"
                                  "    a[threadIdx.x] += w;\n}\n";
        const auto split = cpu::splitAtBarriers(plain, 1, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        QCOMPARE(lightSites(split.source), 4); // not __activemask
        QVERIFY2(split.source.find("__kp_sites.generic[3]") != std::string::npos, split.source.c_str());
        const std::string groups = "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                                   "namespace cg = cooperative_groups;\n"
                                   "__global__ void k(int* a, int* total) {\n"
                                   "    cg::thread_block block = cg::this_thread_block();\n"
                                   "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
                                   "    int mine = a[threadIdx.x];\n"
                                   "    int s = cg::reduce(tile, mine, cg::plus<int>());\n"
                                   "    int before = atomicAdd(total, s);\n"
                                   "    int next = tile.shfl_down(s, 1);\n"
                                   "    a[threadIdx.x] = before + next;\n}\n";
        const auto grouped = cpu::splitAtBarriers(groups, 4, 17, {"k.cu", false});
        QVERIFY2(grouped.split(), grouped.reason.c_str());
        // cg::reduce records lightly (its take works out a warp checked whole from the values alone); the
        // gathered atomicAdd and the tile's shuffle record in full.
        QCOMPARE(lightSites(grouped.source), 1);
        const auto lightReduce = grouped.source.find("warpPhase = __kp_record; (void)(");
        QVERIFY2(lightReduce != std::string::npos, grouped.source.c_str());
        const std::string lightCall = grouped.source.substr(
            lightReduce, grouped.source.find("warpPhase = 2;", lightReduce) - lightReduce);
        QVERIFY2(lightCall.find("cg::reduce(tile, mine,") != std::string::npos, lightCall.c_str());
        int full = 0;
        for (std::size_t at = grouped.source.find("warpPhase = 1; (void)("); at != std::string::npos;
             at = grouped.source.find("warpPhase = 1; (void)(", at + 1))
            ++full;
        QCOMPARE(full, 3); // the atomic, the shuffle, and the reduce's fallback
    }

    void bitwiseAndsAndOtherKernelsKeepLoopsPerBlock() {
        const std::string code = "__device__ void order(unsigned& x, unsigned& y, bool up) {\n"
                                 "    if ((x > y) == up) { unsigned t = x; x = y; y = t; }\n}\n"
                                 "__global__ void other(unsigned* a) { a[threadIdx.x] = 0; }\n"
                                 "__global__ void k(unsigned* a) {\n"
                                 "    __shared__ unsigned s[64];\n"
                                 "    const unsigned t = threadIdx.x, first = blockIdx.x * 64;\n"
                                 "    s[t] = a[first + t];\n"
                                 "    for (unsigned size = 2; size <= 64; size *= 2) {\n"
                                 "        for (unsigned j = size / 2; j > 0; j /= 2) {\n"
                                 "            __syncthreads();\n"
                                 "            const unsigned i = 2 * t - (t & (j - 1));\n"
                                 "            if (t < 32) order(s[i], s[i + j], ((first + i) & size) == 0);\n"
                                 "        }\n    }\n"
                                 "    __syncthreads();\n    a[first + t] = s[t];\n}\n";
        const auto split = cpu::splitAtBarriers(code, 5, 17, {"k.cu", false});
        QVERIFY2(split.split(), split.reason.c_str());
        QVERIFY2(split.source.find("__kp_f.size") == std::string::npos, split.source.c_str());
        QVERIFY2(split.source.find("__kp_f.j") == std::string::npos, split.source.c_str());
        QVERIFY2(split.source.find("__kp_loop") == std::string::npos, split.source.c_str());
        QVERIFY2(split.source.find("threadIndex = __kp_tid") == std::string::npos, split.source.c_str());
        // The helper reading threadIdx (outside every kernel) needs the stores again.
        std::string reads = code;
        reads.replace(reads.find("unsigned t = x;"), 15, "unsigned t = x + threadIdx.x * 0;");
        const auto helperReads = cpu::splitAtBarriers(reads, 5, 17, {"k.cu", false});
        QVERIFY2(helperReads.split(), helperReads.reason.c_str());
        QVERIFY2(helperReads.source.find("threadIndex = __kp_tid") != std::string::npos,
                 helperReads.source.c_str());
        // An address taken keeps the loop's variable per thread.
        std::string taken = code;
        taken.replace(taken.find("__syncthreads();\n            const"), 16, "__syncthreads(); (void)&j;");
        const auto addressed = cpu::splitAtBarriers(taken, 5, 17, {"k.cu", false});
        QVERIFY2(addressed.split(), addressed.reason.c_str());
        QVERIFY2(addressed.source.find("__kp_f.j") != std::string::npos, addressed.source.c_str());
        // And the split sorts each block's 64 keys as the fibers do.
        const auto setup = setupOf(code, "k",
                                   {{{"name", "a"},
                                     {"array", {{"dtype", "uint32"}, {"shape", {128}}}},
                                     {"direction", "inout"},
                                     {"init", {{"formula", "(i * 7919) % 1000"}}}}},
                                   {{"grid", {2}}, {"block", {64}}});
        const auto a = split_->run(setup), b = fibers_->run(setup);
        const QString wrong = differsFromFibers(a, b);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        // Block 0 ascending, block 1 (its keys at 64 + i: the last stage's direction) descending.
        for (std::size_t i = 1; i < 128; ++i) {
            if (i == 64) continue;
            const double before = a.output("a")->value(i - 1), now = a.output("a")->value(i);
            QVERIFY2(i < 64 ? before <= now : before >= now,
                     qPrintable(QString("a[%1], a[%2]").arg(i - 1).arg(i)));
        }
    }

    // A region reads and writes a frame variable through a local of the same name, copied in at the
    // region's start and back at its end; a variable whose address is taken stays in its slot.
    void frameVariablesAreLocalsInARegion() {
        const std::string code = "__global__ void k(int* a) {\n    int sum = 0, *p = nullptr, v = 1;\n"
                                 "    p = &v;\n    __syncthreads();\n"
                                 "    for (int j = 0; j < 8; ++j) sum += a[j] * v;\n    *p = 2;\n"
                                 "    __syncthreads();\n    a[threadIdx.x] = sum + v;\n}\n";
        const auto result = cpu::splitAtBarriers(code, 1, 17, {"k.cu", false});
        QVERIFY2(result.split(), result.reason.c_str());
        const std::string& out = result.source;
        QVERIFY2(out.find("int > sum = __kp_f.sum[__kp_t];") != std::string::npos, out.c_str());
        QVERIFY2(out.find("sum += a[j] * __kp_f.v[__kp_t]") != std::string::npos, out.c_str());
        QVERIFY2(out.find("__kp_f.sum[__kp_t] = sum;") != std::string::npos, out.c_str());
        QVERIFY2(out.find("int > v = __kp_f.v") == std::string::npos, out.c_str());
    }

    void reasonsForNotSplitting_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("reason");
        QTest::newRow("break") << "__global__ void k(int* a) { for (;;) { __syncthreads(); break; } }"
                               << "break";
        QTest::newRow("goto") << "__global__ void k(int* a) { __syncthreads(); goto end; end: a[0] = 1; }"
                              << "goto";
        QTest::newRow("auto across")
            << "__global__ void k(int* a) { auto v = a[threadIdx.x]; __syncthreads(); a[0] = v; }"
            << "auto";
        QTest::newRow("reference across")
            << "__global__ void k(int* a) { int& v = a[threadIdx.x]; __syncthreads(); v = 1; }"
            << "reference";
        QTest::newRow("warp vote in a condition")
            << "__global__ void k(int* a) { if (__any_sync(~0u, a[1])) a[0] = 1; }"
            << "synchronisation other than __syncthreads()";
        QTest::newRow("two warp operations in a statement")
            << "__global__ void k(int* a) {\n a[0] = __shfl_sync(~0u, a[1], 0) + __shfl_sync(~0u, a[2], 1); }"
            << "two warp operations in one statement at line 2";
        QTest::newRow("a warp operation behind ?:")
            << "__global__ void k(int* a) { a[0] = a[3] ? __shfl_sync(~0u, a[1], 0) : 0; }"
            << "a warp operation behind ?";
        QTest::newRow("a warp operation whose argument changes a variable")
            << "__global__ void k(int* a) { int j = 0; a[0] = __shfl_sync(~0u, a[j++], 0); }"
            << "arguments change a variable";
        QTest::newRow("a warp helper called in an expression")
            << "__device__ int f(int v) { return __shfl_sync(~0u, v, 0); }\n"
               "__global__ void k(int* a) { a[0] = f(a[1]) + 1; }"
            << "synchronisation other than __syncthreads()";
        QTest::newRow("a warp helper with an early return")
            << "__device__ int f(int v) { if (v) return 0; return __shfl_sync(~0u, v, 0); }\n"
               "__global__ void k(int* a) { a[0] = f(a[1]); }"
            << "synchronisation other than __syncthreads()";
        QTest::newRow("barrier in an expression")
            << "__global__ void k(int* a) { a[0] = (__syncthreads(), 1); }"
            << "synchronisation other than __syncthreads()";
        QTest::newRow("barrier in a switch")
            << "__global__ void k(int* a) { switch (a[0]) { case 1: __syncthreads(); } }"
            << "switch";
        QTest::newRow("preprocessor in the body")
            << "__global__ void k(int* a) {\n#if 1\n __syncthreads();\n#endif\n}"
            << "preprocessor";
        QTest::newRow("unterminated") << "__global__ void k(int* a) { __syncthreads();"
                                      << "does not end";
    }

    void reasonsForNotSplitting() {
        QFETCH(QString, code);
        QFETCH(QString, reason);
        // The kernel's name: after "__global__ void " on its line.
        const std::string text = code.toStdString();
        const std::size_t at = text.find("__global__ void k") + 16;
        const int line =
            1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
        const int column =
            static_cast<int>(at -
                             (text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1)) +
            1;
        const auto result = cpu::splitAtBarriers(text, line, column, {"k.cu", false});
        QVERIFY(!result.split());
        QVERIFY2(QString::fromStdString(result.reason).contains(reason), result.reason.c_str());
        QVERIFY(result.source.empty());
    }

    // The statement tree is built by recursion: 50,000 nested braces once overflowed the stack. Past 256
    // levels the kernel is not split (it runs as fibers), with the line where the nesting got too deep;
    // parentheses are matched without recursion, so any depth of them is fine.
    void boundsTheNestingDepth_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("reason"); // empty: it splits
        const auto repeat = [](const QString& text, int n) { return text.repeated(n); };
        QTest::newRow("50,000 nested braces")
            << "\n" + repeat("{", 50000) + "__syncthreads();" + repeat("}", 50000)
            << "nesting deeper than 256 levels at line 2";
        QTest::newRow("50,000 nested braces without a barrier")
            << "\n" + repeat("{", 50000) + "a[0] = 1;" + repeat("}", 50000)
            << "nesting deeper than 256 levels at line 2";
        QTest::newRow("50,000 nested ifs") << "\n" + repeat("if (a[0]) ", 50000) + "__syncthreads();"
                                           << "nesting deeper than 256 levels at line 2";
        QTest::newRow("a for a line") << "\n" + repeat("for (;;)\n", 50000) + "__syncthreads();"
                                      << "nesting deeper than 256 levels at line 257";
        QTest::newRow("50,000 nested parentheses")
            << "\na[0] = " + repeat("(", 50000) + "1" + repeat(")", 50000) + ";\n__syncthreads();"
            << "";
        QTest::newRow("200 nested braces split")
            << "\n" + repeat("{", 200) + "__syncthreads();" + repeat("}", 200) << "";
    }
    void boundsTheNestingDepth() {
        QFETCH(QString, body);
        QFETCH(QString, reason);
        const std::string code = "__global__ void k(int* a) {" + body.toStdString() + "\n}\n";
        const auto result = cpu::splitAtBarriers(code, 1, 17, {"k.cu", false});
        QVERIFY2(QString::fromStdString(result.reason).contains(reason), result.reason.c_str());
        QCOMPARE(result.split(), reason.isEmpty());
    }

    void linesAfterTheKernelKeepTheirNumbers() {
        const std::string code = "__global__ void k(int* a) {\n    a[threadIdx.x] = 1;\n    "
                                 "__syncthreads();\n}\nint after() { return x; }\n";
        const auto result = cpu::splitAtBarriers(code, 1, 17, {"k.cu", false});
        QVERIFY2(result.split(), result.reason.c_str());
        QCOMPARE(result.barriers, 1);
        // What follows the body is announced as line 4 of k.cu (the closing brace's line), then continues.
        const auto at = result.source.rfind("#line 4 \"k.cu\"");
        QVERIFY(at != std::string::npos);
        QVERIFY(result.source.find("int after()", at) != std::string::npos);
        QVERIFY(result.source.find("threadIdx", result.source.find('{')) == std::string::npos ||
                result.source.find("threadIdx", result.source.find('{')) > at);
    }

    // Synchronising calls are counted in tokens: a comment or a string that names one is no call (they
    // used to stop the split), a macro that holds one still is (it hides a barrier from the split).
    void countsOnlyCallsInCode_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("line"); // of the kernel's name, at column 17
        QTest::addColumn<bool>("splits");
        QTest::newRow("a comment naming a barrier") << "__global__ void k(int* a) {\n    a[threadIdx.x] = 1; "
                                                       "// then __syncthreads();\n    __syncthreads();\n"
                                                       "    a[0] = 2;\n}\n"
                                                    << 1 << true;
        QTest::newRow("a block comment after the kernel")
            << "__global__ void k(int* a) {\n    __syncthreads();\n}\n/* __shfl_sync is not used */\n"
            << 1 << true;
        QTest::newRow("a string")
            << "__global__ void k(const char** s) {\n    s[0] = \"__syncwarp\";\n    __syncthreads();\n}\n"
            << 1 << true;
        QTest::newRow("a continued line comment hides a second barrier")
            << "__global__ void k(int* a) {\n    __syncthreads(); // one \\\n    __syncthreads();\n}\n"
            << 1 << true;
        QTest::newRow("a macro")
            << "#define SYNC __syncthreads()\n__global__ void k(int* a) {\n    SYNC;\n}\n"
            << 2 << false;
        // Device code cannot call a __global__ function: another kernel's barriers are not this one's.
        QTest::newRow("another kernel's barriers and shuffles")
            << "__global__ void other(int* a) {\n    __syncthreads();\n    a[0] = __shfl_sync(~0u, a[1], "
               "0);\n}\n"
               "__global__ void k(int* a) {\n    a[threadIdx.x] = 1;\n    __syncthreads();\n}\n"
            << 5 << true;
        QTest::newRow("a helper's barrier still counts")
            << "__device__ void helper() { __syncthreads(); }\n__global__ void k(int* a) {\n    helper();\n"
               "    __syncthreads();\n}\n"
            << 2 << false;
    }
    void countsOnlyCallsInCode() {
        QFETCH(QString, code);
        QFETCH(int, line);
        QFETCH(bool, splits);
        const auto result = cpu::splitAtBarriers(code.toStdString(), line, 17, {"k.cu", false});
        QVERIFY2(result.split() == splits, result.reason.c_str());
        if (splits) QCOMPARE(result.barriers, 1);
    }
};

QTEST_APPLESS_MAIN(TestBarrierSplit)
#include "tst_barriersplit.moc"
