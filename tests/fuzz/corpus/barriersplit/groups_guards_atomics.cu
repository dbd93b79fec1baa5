#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void groups(long long* total, const int* v, int n) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<16>(block);
    __shared__ long long sums[64];
    long long mine = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) mine += v[i];
    const long long s = cg::reduce(tile, mine, cg::plus<long long>());
    if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = s;
    block.sync();
    const int up = tile.shfl_up((int)s, 1);
    cg::sync(block);
    if (threadIdx.x == 0) atomicAdd((unsigned long long*)total, (unsigned long long)(sums[0] + up));
}
__global__ void guarded(float* a, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    a[y * width + x] *= 2;
}
__global__ void wrapped(float* out, const float* in, int n) {
    unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n && 4 > i % 8) { out[i] = in[i]; }
}
__global__ void compact(const float* in, float* kept, unsigned* count, float t, int n) {
    in += blockIdx.x;
    n -= 1;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > t) {
        unsigned slot = atomicAdd(count, 1u);
        kept[slot] = in[i];
    }
}
