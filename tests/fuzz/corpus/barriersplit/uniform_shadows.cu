__device__ int scale = 3;
__device__ void bump(int& v, int by) { v += by; }
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, width = 1, total = 10, step = 1;
    bump(total, t);
    if (t % 3 == 0) step = 5;
    s[t] = a[blockIdx.x * 64 + t];
    while (width < 64) {
        __syncthreads();
        const int from = t >= width ? s[t - width] : 0;
        __syncthreads();
        s[t] += from;
        width = width * 2;
        ++width;
    }
    {
        int scale = 2;
        __syncthreads();
        a[blockIdx.x * 64 + t] = s[63 - t] * scale + total * step;
    }
    a[blockIdx.x * 64 + t] += scale;
}
