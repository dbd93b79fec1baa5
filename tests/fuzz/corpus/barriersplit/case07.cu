
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    if (t < n - 100) s[t] = 7;
    __syncthreads();
    if (threadIdx.x < n - 100) s[t] += 1000;
    __syncthreads();
    a[blockIdx.x * blockDim.x + t] = s[t];
}