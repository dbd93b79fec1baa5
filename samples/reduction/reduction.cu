// Parallel reduction: the sum of n ints. Each block adds its share in a shared-memory tree with
// sequential addressing, then thread 0 adds the block's partial sum to *total with one atomicAdd.
extern "C" __global__ void reduction(int *total, const int *in, int n)
{
    // One slot per thread; blockDim.x must be a power of two, at most 1024.
    __shared__ int partial[1024];
    const int tid = threadIdx.x;
    const int block = blockDim.x;

    // Load: each thread adds two elements one block apart, in a grid-stride loop.
    int sum = 0;
    const int stride = 2 * block * gridDim.x;
    for (int i = 2 * block * blockIdx.x + tid; i < n; i += stride) {
        sum += in[i];
        if (i + block < n) {
            sum += in[i + block];
        }
    }
    partial[tid] = sum;
    __syncthreads();

    // Tree: the active threads stay contiguous (0..s-1) and read a contiguous upper half.
    for (int s = block / 2; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        atomicAdd(total, partial[0]);
    }
}
