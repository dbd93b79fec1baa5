// Sum of n floats with warp shuffles: each warp adds its 32 values with __shfl_down_sync (no shared
// memory, no __syncthreads), one shared slot per warp, a last shuffle round in warp 0, one atomicAdd.
#define FULL_MASK 0xffffffffu

// After the loop, lane 0 holds the sum of the 32 lanes' values.
__device__ float warp_sum(float value)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        value += __shfl_down_sync(FULL_MASK, value, offset);
    }
    return value;
}

extern "C" __global__ void warp_shuffle_reduction(float *total, const float *in, int n)
{
    // One slot per warp; blockDim.x must be a multiple of 32 (at most 1024).
    __shared__ float warp_sums[32];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;

    // Each thread first adds its share of the input in a grid-stride loop.
    float sum = 0.0f;
    const int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        sum += in[i];
    }

    // Stage 1: every warp reduces its own 32 values; lane 0 writes the warp's sum.
    sum = warp_sum(sum);
    if (lane == 0) {
        warp_sums[warp] = sum;
    }
    __syncthreads();

    // Stage 2: the first warp reduces the per-warp sums, and one thread adds the block's total.
    if (warp == 0) {
        const int warps = blockDim.x / 32;
        sum = lane < warps ? warp_sums[lane] : 0.0f;
        sum = warp_sum(sum);
        if (lane == 0) {
            atomicAdd(total, sum);
        }
    }
}
