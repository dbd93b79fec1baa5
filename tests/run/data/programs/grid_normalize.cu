// Two kernels of one program, one split at its barriers on the CPU backend and one that syncs its grid:
// block sums in shared memory, then a grid-wide normalisation by their total.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void blockSums(const float* data, float* sums, int n) {
    __shared__ float partial[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? data[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

__global__ void normalize(float* data, const float* sums, int blocks, float* total, int n) {
    cg::grid_group grid = cg::this_grid();
    if (grid.thread_rank() == 0) {
        float t = 0.0f;
        for (int b = 0; b < blocks; ++b) t += sums[b];
        *total = t;
    }
    grid.sync();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] / *total;
}
