#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile float big[16 << 20];
    for (int j = 0; j < (16 << 20); j += 1024) big[j] = (float)j;
    if (i < n) out[i] = big[i * 1024];
}
