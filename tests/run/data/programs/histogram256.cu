// histogram256's idea: per-block partial histograms in shared memory, then one block per bin merges them.
#define BINS 256
__global__ void partial_histograms(const unsigned int* data, unsigned int* partial, int n)
{
    __shared__ unsigned int s_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_hist[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_hist[data[i] & (BINS - 1)], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) partial[blockIdx.x * BINS + b] = s_hist[b];
}

__global__ void merge_histograms(unsigned int* histogram, const unsigned int* partial, int count)
{
    __shared__ unsigned int data[256];
    unsigned int sum = 0;
    for (int i = threadIdx.x; i < count; i += 256) sum += partial[blockIdx.x + i * BINS];
    data[threadIdx.x] = sum;
    for (unsigned int stride = 128; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) histogram[blockIdx.x] = data[0];
}
