
__global__ void k(int* a, int n) {
    int t = threadIdx.x, i = 0;
    for (;;) {
        __syncthreads();
        if (++i > t % 4) break;
    }
    a[blockIdx.x * blockDim.x + t] = i;
}