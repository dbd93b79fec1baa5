#define IDX (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void k(int* a, int n)
{
    __shared__ int s[64];
    const int idx = IDX;
    s[threadIdx.x] = a[idx];
    __syncthreads();
    a[idx] = s[63 - threadIdx.x];
}

__device__ void swapPtr(int*& a, int*& b) { int* t = a; a = b; b = t; }
__global__ void k(int* src, int* dst, int steps)
{
    int i = threadIdx.x;
    for (int s = 0; s < steps; ++s) {
        dst[i] = src[i] + src[(i + 1) % blockDim.x];
        __syncthreads();
        swapPtr(src, dst);
    }
}
