#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__device__ int down(volatile int d) { volatile char pad[256]; pad[0] = (char)d; return down(d + 1) + pad[0]; }
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (float)down(i);
}
