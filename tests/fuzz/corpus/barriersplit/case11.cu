
__device__ void wait() { __syncthreads(); }
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    s[threadIdx.x] = a[blockIdx.x * blockDim.x + threadIdx.x];
    wait();
    a[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}