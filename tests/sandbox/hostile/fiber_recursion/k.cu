#include <cstdio>
// Recursion in a kernel whose threads run as fibers on the CPU (it shuffles): a fiber's stack is small.
__device__ int down(volatile int d) { volatile char pad[512]; pad[0] = (char)d; return down(d + 1) + pad[0]; }
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = __shfl_sync(0xffffffffu, i, 0);
    if (i < n) out[i] = (float)(v + down(i));
}
