// Sum of squares with a block reduction: a fixed grid of threads each sums many elements in a
// register, each block adds its threads' sums in shared memory, and ONE thread per block does
// the atomicAdd. blockDim.x must be a power of two, at most BLOCK.
#define BLOCK 256

extern "C" __global__ void sum_squares(const float *a, float *total, int n)
{
    __shared__ float partial[BLOCK];
    const int t = threadIdx.x;
    const int gridStride = blockDim.x * gridDim.x; // threads in the whole grid

    // 1. Grid-stride loop: consecutive threads read consecutive floats (coalesced), and the
    //    grid moves forward by gridStride elements per load. Four independent loads per step
    //    keep enough memory requests in flight to approach the memory's bandwidth.
    float sum = 0.0f;
    int i = blockIdx.x * blockDim.x + t;
    for (; i + 3 * gridStride < n; i += 4 * gridStride) {
        const float v0 = a[i];
        const float v1 = a[i + gridStride];
        const float v2 = a[i + 2 * gridStride];
        const float v3 = a[i + 3 * gridStride];
        sum += v0 * v0 + v1 * v1 + v2 * v2 + v3 * v3;
    }
    for (; i < n; i += gridStride) { // what is left: fewer than four steps
        const float v = a[i];
        sum += v * v;
    }
    partial[t] = sum;
    __syncthreads();

    // 2. Tree reduction in shared memory with sequential addressing: at each step the first
    //    half of the active threads adds the second half's values to its own.
    for (int active = blockDim.x / 2; active > 0; active /= 2) {
        if (t < active) {
            partial[t] += partial[t + active];
        }
        __syncthreads();
    }

    // 3. One atomic per block instead of one per element.
    if (t == 0) {
        atomicAdd(total, partial[0]);
    }
}
