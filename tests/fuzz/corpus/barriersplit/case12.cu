
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = a[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) a[blockIdx.x * blockDim.x] = s[0];
}