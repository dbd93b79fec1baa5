#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const int* in, int* out)
{
    __shared__ int s[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    const int t = block.thread_rank();
    s[t] = in[t];
    block.sync();
    int v = s[63 - t];
    v = cg::reduce(tile, v, cg::plus<int>());
    out[t] = v;
}
