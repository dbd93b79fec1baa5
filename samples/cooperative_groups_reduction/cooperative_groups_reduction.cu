// Sum of an integer array with cooperative groups: tiles of 32 threads reduce their values with
// cg::reduce, the block's first tile reduces the tiles' sums, and one atomicAdd per block adds the
// block's total. The same tree as the warp-shuffle sample, written with groups instead of lane masks.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void cooperative_groups_reduction(long long* total, const int* values, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

    // A grid-stride loop: each thread first adds up its share in a register.
    long long mine = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        mine += values[i];
    }

    __shared__ long long tile_sums[32];
    long long tile_sum = cg::reduce(tile, mine, cg::plus<long long>());
    if (tile.thread_rank() == 0) {
        tile_sums[tile.meta_group_rank()] = tile_sum;
    }
    block.sync();

    if (tile.meta_group_rank() == 0) {
        long long sum = tile.thread_rank() < tile.meta_group_size() ? tile_sums[tile.thread_rank()] : 0;
        sum = cg::reduce(tile, sum, cg::plus<long long>());
        if (tile.thread_rank() == 0) {
            atomicAdd(reinterpret_cast<unsigned long long*>(&total[0]), static_cast<unsigned long long>(sum));
        }
    }
}
