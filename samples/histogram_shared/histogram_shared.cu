// 256-bin histogram of bytes with privatization: each block counts into its own histogram in shared
// memory (fast atomics, contention only inside the block), then adds it to the global bins once.
extern "C" __global__ void histogram_shared(const unsigned char *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[256];

    // Zero the block's histogram; any block size works.
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();

    // Count: a grid-stride loop, so a fixed grid covers any n.
    const int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();

    // Merge: one global atomicAdd per non-empty bin of this block.
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        if (local[b] > 0) {
            atomicAdd(&bins[b], local[b]);
        }
    }
}
