__global__ void k(int* a, int n) {
    __shared__ int s[32];
    const unsigned linear = threadIdx.x + blockDim.x * threadIdx.y;
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i] * 3 + i;
    s[linear] = sum;
    __syncthreads();
    a[100 + blockIdx.x * 32 + linear] = s[(linear + 1) % 32];
}
