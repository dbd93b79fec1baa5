
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    if (a[base + t] % 3 == 0) {
        s[t] = 1;
        __syncthreads();
        a[base + t] += s[t];
    } else {
        s[t] = 2;
        __syncthreads();
        a[base + t] -= s[t];
    }
}