
__device__ int lane() { return threadIdx.x % 32; }
__global__ void k(int* a, int n) {
    __shared__ int s[64];
    s[threadIdx.x] = lane();
    __syncthreads();
    a[blockIdx.x * blockDim.x + threadIdx.x] = s[63 - threadIdx.x];
}