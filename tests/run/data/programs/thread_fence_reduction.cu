// threadFenceReduction: one launch; each block writes its partial sum, fences, and takes a ticket from a
// __device__ counter; the block that takes the last ticket adds the partial sums and resets the counter.
__device__ unsigned int retirementCount = 0;

__global__ void reduceSinglePass(const int* g_idata, int* g_odata, int* partials, unsigned int n)
{
    __shared__ int sdata[128];
    __shared__ bool amLast;
    unsigned int tid = threadIdx.x;
    int sum = 0;
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) sum += g_idata[i];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) {
        partials[blockIdx.x] = sdata[0];
        __threadfence();
        unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (amLast) {
        int total = 0;
        for (unsigned int b = tid; b < gridDim.x; b += blockDim.x) total += partials[b];
        sdata[tid] = total;
        __syncthreads();
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
            if (tid < s) sdata[tid] += sdata[tid + s];
            __syncthreads();
        }
        if (tid == 0) {
            g_odata[0] = sdata[0];
            retirementCount = 0;
        }
    }
}
